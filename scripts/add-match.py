#!/usr/bin/env python3
"""Append one match to docs/strength/matches.csv from the PGN cutechess-cli writes
(`-pgnout`, with `--pgn`) or the JSON that ../shared/tools/match.py writes with --json.

From cutechess-cli (docs/strength.md, "Re-run a match"): Minkowski is the player named by
`--player` (default `minkowski`), the opponent's `name=` its preset in anchors.csv; W/D/L,
the time control, forfeits ("time forfeit", "illegal move", "abandoned", "stalled connection"
terminations) and the Elo come from the games, the Elo from game pairs (the two games of a
`-repeat` round share its number) when every round has two. A strength level's UCI_Elo is
given with --uci-elo.

    python3 scripts/add-match.py --pgn GAMES.pgn [--player minkowski] [--commit abc1234] ...

Minkowski must be the match's first engine (`-e`): match.py reports from that side (or
Stockfish at a level being rated, `calibrate-elo.py --stockfish-levels`). The opponent's name,
rating and rating list come from docs/strength/anchors.csv by its preset name (`ethereal`,
`toga2`, ...; `sf@1500` is Stockfish at UCI_Elo 1500, rated at that setting unless anchors.csv
rates the preset `sf@1500`) unless given; the time control, games, W/D/L, score, Elo (from game
pairs when match.py had them) and forfeits come from the JSON; a strength level's `UCI_Elo`
comes from the options the first engine was given (`-o UCI_LimitStrength=true -o
UCI_Elo=1500`).

    python3 scripts/add-match.py RESULT.json [--commit abc1234] [--engine-version 0.2.0] \\
        [--date 2026-11-28] [--opponent NAME --rating N --list "CCRL 40/15"] [--notes TEXT]

Then `python3 scripts/strength-plot.py` redraws the picture and the tables.
"""

import argparse
import csv
import datetime
import importlib.util
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load_plot():
    """scripts/strength-plot.py as a module (its name has a hyphen): the CSV's columns and
    readers."""
    spec = importlib.util.spec_from_file_location("strength_plot",
                                                  os.path.join(HERE, "strength-plot.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


plot = load_plot()


class MatchError(Exception):
    """A result that cannot be added, and why."""


def opponent_of(name, anchors):
    """(opponent, rating, rating list) for match.py's name of the second engine. Stockfish at
    its own level (`sfN`) is rated at N, unless anchors.csv rates its preset `sf@N` (a level
    measured against a rated engine: docs/strength.md, "The bottom of the range")."""
    sf = re.fullmatch(r"sf(\d+)", name)
    presets = {name, f"sf@{sf.group(1)}"} if sf else {name}
    for row in anchors.values():
        if row["preset"] in presets and (row["rating"].strip() or not sf):
            return row["opponent"], row["rating"], row["rating_list"]
    if sf:
        return f"Stockfish 15.1 UCI_Elo {sf.group(1)}", sf.group(1), "Stockfish UCI_Elo"
    return name, "", ""


Z95 = 1.959963984540054  # two-sided 95 % normal quantile, as match.py and cutechess-cli
TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]\s*$')
FORFEITS = {"time forfeit": "time", "illegal move": "illegal", "abandoned": "crash",
            "stalled connection": "crash"}


def elo_estimate(values, counts):
    """(score, Elo, half-width of its 95 % interval) of outcomes ``values`` seen ``counts``
    times: match.py's (and cutechess-cli's) normal approximation; the margin None when the
    interval reaches 0 or 1."""
    n = sum(counts)
    mu = sum(v * c for v, c in zip(values, counts)) / n
    var = sum(c * (v - mu) ** 2 for v, c in zip(values, counts)) / n
    lo, hi = mu - Z95 * math.sqrt(var / n), mu + Z95 * math.sqrt(var / n)

    def elo(p):
        return -400.0 * math.log10(1.0 / p - 1.0)

    return (mu, elo(mu) if 0.0 < mu < 1.0 else None,
            (elo(hi) - elo(lo)) / 2.0 if 0.0 < lo and hi < 1.0 else None)


def pgn_headers(path):
    """The tag pairs of every game of a PGN file, in order (the moves are not needed)."""
    games, current = [], {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = TAG.match(line)
            if m:
                if m.group(1) == "Event" and current:
                    games.append(current)
                    current = {}
                current[m.group(1)] = m.group(2)
    if current:
        games.append(current)
    return games


def result_from_pgn(paths, player):
    """match.py's --json result (the fields row_of reads) from cutechess-cli's PGNs."""
    games = [g for path in paths for g in pgn_headers(path)
             if g.get("Result") in ("1-0", "0-1", "1/2-1/2")]
    if not games:
        raise MatchError("no finished game in the PGN")
    opponents = set()
    wins = draws = losses = 0
    faults = {player: {"time": 0, "illegal": 0, "crash": 0}}
    rounds = {}
    for g in games:
        if g.get("White") == player:
            ours, theirs = "1-0", g.get("Black", "")
        elif g.get("Black") == player:
            ours, theirs = "0-1", g.get("White", "")
        else:
            raise MatchError(f"a game without {player!r} (White {g.get('White')!r}, Black "
                             f"{g.get('Black')!r}); see --player")
        opponents.add(theirs)
        faults.setdefault(theirs, {"time": 0, "illegal": 0, "crash": 0})
        score = 0.5 if g["Result"] == "1/2-1/2" else 1.0 if g["Result"] == ours else 0.0
        wins += score == 1.0
        draws += score == 0.5
        losses += score == 0.0
        kind = FORFEITS.get(g.get("Termination", ""))
        if kind and score != 0.5:
            faults[player if score == 0.0 else theirs][kind] += 1
        rounds.setdefault(g.get("Round", ""), []).append(score)
    if len(opponents) != 1:
        raise MatchError(f"more than one opponent: {sorted(opponents)}")
    theirs = opponents.pop()
    n = wins + draws + losses
    score, elo, margin = elo_estimate((1.0, 0.5, 0.0), (wins, draws, losses))
    result = {"engines": [player, theirs], "options": [{}],
              "limit": games[0].get("TimeControl", ""), "games": n, "wins": wins,
              "draws": draws, "losses": losses, "score": score, "elo": elo,
              "elo_margin95": margin, "faults": faults, "source": "cutechess-cli"}
    if all(len(pair) == 2 for pair in rounds.values()):
        penta = [0, 0, 0, 0, 0]
        for pair in rounds.values():
            penta[int(round(2 * sum(pair)))] += 1
        _, elo_p, margin_p = elo_estimate((0.0, 0.25, 0.5, 0.75, 1.0), penta)
        result.update(pentanomial=penta, elo_pentanomial=elo_p,
                      elo_pentanomial_margin95=margin_p)
    return result


def number_text(x, digits=1):
    return "" if x is None else f"{x:.{digits}f}"


def row_of(result, args, anchors):
    """The CSV row (a dict of plot.COLUMNS) for match.py's `result`."""
    if result.get("aborted"):
        raise MatchError(f"the match was aborted ({result['aborted']}); nothing added")
    if result.get("interrupted") and not args.allow_partial:
        raise MatchError("the match was interrupted; add it anyway with --allow-partial")
    games = result.get("games") or 0
    if games == 0:
        raise MatchError("the match has no finished game")
    engines = result.get("engines") or ["", ""]
    mine, theirs = engines[0], engines[1]
    opponent, rating, rating_list = opponent_of(theirs, anchors)
    opponent = args.opponent or opponent
    if args.opponent and args.opponent in anchors and args.rating is None:
        rating = anchors[args.opponent]["rating"]
        rating_list = anchors[args.opponent]["rating_list"]
    if args.rating is not None:
        rating = str(args.rating)
    if args.list is not None:
        rating_list = args.list
    options = (result.get("options") or [{}])[0]
    lowered = {k.lower(): v for k, v in options.items()}
    uci_elo = ""
    if args.uci_elo is not None:
        uci_elo = str(args.uci_elo)
    elif str(lowered.get("uci_limitstrength", "false")).lower() == "true":
        uci_elo = str(lowered.get("uci_elo", ""))
    if result.get("elo_pentanomial") is not None:
        elo, error = result["elo_pentanomial"], result.get("elo_pentanomial_margin95")
        how = f"Elo from game pairs, pentanomial {result.get('pentanomial')}"
    else:
        elo, error = result.get("elo"), result.get("elo_margin95")
        how = "Elo from W/D/L"
    faults = result.get("faults") or {}

    def count(name):
        f = faults.get(name) or {}
        return sum(int(f.get(k, 0)) for k in ("time", "illegal", "crash"))

    notes = [f"{result.get('source', 'match.py')}: {mine} vs {theirs}", how]
    if count(theirs):
        notes.append(f"the opponent forfeited {count(theirs)}")
    if result.get("interrupted"):
        notes.append("interrupted: a partial match")
    if args.notes:
        notes.append(args.notes)
    return {
        "date": args.date or datetime.date.today().isoformat(),
        "commit": args.commit or "",
        "engine_version": args.engine_version or "",
        "opponent": opponent,
        "opponent_rating": rating,
        "rating_list": rating_list,
        "time_control": result.get("limit", ""),
        "games": str(games),
        "wins": str(result.get("wins", "")),
        "draws": str(result.get("draws", "")),
        "losses": str(result.get("losses", "")),
        "score_pct": number_text(100.0 * result["score"]) if result.get("score") is not None
        else "",
        "elo": number_text(elo),
        "elo_error": number_text(error),
        "forfeits": str(count(mine)),
        "uci_elo": uci_elo,
        "notes": "; ".join(notes),
    }


def append(path, row):
    """Add `row` at the end of the CSV, refusing an exact repeat of a row already there."""
    existing = plot.read_rows(path)
    same = ("date", "opponent", "games", "wins", "draws", "losses", "uci_elo", "time_control")
    for old in existing:
        if all(old[k] == row[k] for k in same):
            raise MatchError(f"{path}:{old['line']} already holds this match")
    with open(path, "a", newline="", encoding="utf-8") as f:
        csv.DictWriter(f, fieldnames=plot.COLUMNS, lineterminator="\n").writerow(row)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("json", nargs="?",
                        help="match.py's --json file (Minkowski the first engine)")
    parser.add_argument("--pgn", action="append",
                        help="cutechess-cli's -pgnout file instead (repeatable: one match)")
    parser.add_argument("--player", default="minkowski",
                        help="Minkowski's name= in the cutechess-cli command (%(default)s)")
    parser.add_argument("--csv", default=plot.MATCHES, help="the matches (default: %(default)s)")
    parser.add_argument("--anchors", default=plot.ANCHORS,
                        help="the anchors' ratings (default: %(default)s)")
    parser.add_argument("--date", help="YYYY-MM-DD (default: today)")
    parser.add_argument("--commit", help="Minkowski's commit")
    parser.add_argument("--engine-version", help="Minkowski's version (0.2.0)")
    parser.add_argument("--opponent", help="the opponent's name (default: from anchors.csv)")
    parser.add_argument("--rating", type=float, help="the opponent's rating")
    parser.add_argument("--list", help="the rating list of --rating (CCRL 40/15, ...)")
    parser.add_argument("--uci-elo", type=int,
                        help="the UCI_Elo played at (default: from the first engine's options)")
    parser.add_argument("--notes", help="free text for the notes column")
    parser.add_argument("--allow-partial", action="store_true",
                        help="add an interrupted match too")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the row instead of adding it")
    args = parser.parse_args(argv)
    if args.date and not re.fullmatch(r"\d{4}-\d\d-\d\d", args.date):
        parser.error("--date must be YYYY-MM-DD")
    if (args.json is None) == (args.pgn is None):
        parser.error("give match.py's JSON or --pgn (cutechess-cli), one of them")
    try:
        if args.pgn:
            result = result_from_pgn(args.pgn, args.player)
        else:
            with open(args.json, encoding="utf-8") as f:
                result = json.load(f)
        row = row_of(result, args, plot.read_anchors(args.anchors))
        if args.dry_run:
            writer = csv.DictWriter(sys.stdout, fieldnames=plot.COLUMNS, lineterminator="\n")
            writer.writerow(row)
            return 0
        append(args.csv, row)
    except (OSError, ValueError, MatchError, plot.DataError) as e:
        print(f"add-match: {e}", file=sys.stderr)
        return 1
    print(f"added to {os.path.relpath(args.csv)}: {row['opponent']}, {row['games']} games, "
          f"Elo {row['elo'] or '?'} ± {row['elo_error'] or '?'}"
          + (f", UCI_Elo {row['uci_elo']}" if row["uci_elo"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
