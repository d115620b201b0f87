#!/usr/bin/env python3
"""Pool the game pairs of SPRT runs between the same two binaries (issue 16).

A run of ../shared/tools/match.py that ended without a decision cannot be resumed, but a new run
with another --seed continues the same sequential test: this adds the pentanomial (game-pair)
counts of finished runs (their --json files) to those of a running or unfinished one (its --pgn;
match.py numbers games so that rounds 2k+1 and 2k+2 are one pair) and prints the pooled Elo and
the LLR of the GSPRT [ELO0, ELO1] with the harness's own statistics.

    scripts/sprt-pool.py NAME RUN.pgn [FINISHED.json | STOPPED.pgn ...] [--elo0 0 --elo1 5]

A stopped run's PGN counts like a finished run's JSON (its complete pairs only).

NAME is the engine's -n name in the matches (the side whose Elo is reported).
"""
import argparse
import json
import os
import re
import sys

TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "tools")
sys.path.insert(0, os.environ.get("MATCH_TOOLS", TOOLS))
from harness.stats import llr, pentanomial_elo, trinomial_elo  # noqa: E402

SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def pgn_scores(path, name):
    """Round number -> NAME's score, for every finished game of the PGN."""
    scores = {}
    with open(path, encoding="utf-8") as fh:
        for game in fh.read().split("[Event ")[1:]:
            tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
            score = SCORES.get(tags.get("Result", "*"))
            if score is None or "Round" not in tags:
                continue
            scores[int(tags["Round"])] = score if tags.get("White") == name else 1.0 - score
    return scores


def pgn_counts(path, name):
    """(pentanomial counts of complete pairs, W/D/L of every game) of NAME in a PGN."""
    scores = pgn_scores(path, name)
    penta = [0] * 5
    for pair in {(r - 1) // 2 for r in scores}:
        first, second = scores.get(2 * pair + 1), scores.get(2 * pair + 2)
        if first is not None and second is not None:
            penta[round((first + second) * 2)] += 1
    wdl = [sum(s == v for s in scores.values()) for v in (1.0, 0.5, 0.0)]
    return penta, wdl


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name")
    ap.add_argument("pgn")
    ap.add_argument("finished", nargs="*")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=5.0)
    a = ap.parse_args()
    penta, wdl = pgn_counts(a.pgn, a.name)
    print(f"{a.pgn}: {sum(wdl)} games, W/D/L {wdl}, pentanomial {penta}")
    for path in a.finished:
        if path.endswith(".pgn"):
            run_penta, run_wdl = pgn_counts(path, a.name)
            run = {"pentanomial": run_penta, "wins": run_wdl[0], "draws": run_wdl[1],
                   "losses": run_wdl[2]}
        else:
            with open(path, encoding="utf-8") as fh:
                run = json.load(fh)
        penta = [x + y for x, y in zip(penta, run["pentanomial"])]
        wdl = [x + run[k] for x, k in zip(wdl, ("wins", "draws", "losses"))]
    print(f"pooled: {sum(wdl)} games, W/D/L {wdl}, pentanomial {penta}")
    print(f"Elo (W/D/L) {trinomial_elo(*wdl)}")
    print(f"Elo (pairs) {pentanomial_elo(penta)}")
    print(f"LLR [{a.elo0:g}, {a.elo1:g}] {llr(penta, a.elo0, a.elo1):.2f} (bounds ±2.94)")


if __name__ == "__main__":
    main()
