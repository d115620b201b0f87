#!/usr/bin/env python3
"""Clock used per game by each engine of a match PGN (issue 47: a search change must not win by
spending more of its clock).

    scripts/pgn-time.py MATCH.pgn [MORE.pgn ...]

Reads the move comments that ../shared/tools/match.py writes (`{ +0.25/17 0.294s }`: score,
depth, seconds) and prints, per engine name: games, mean seconds per game, mean seconds per move,
mean depth, and the share of the clock (base time plus increments of the moves it played) that it
used. The PGN's TimeControl tag (`8+0.08`) gives the clock.
"""
import re
import sys
from collections import defaultdict

MOVE = re.compile(r"\{ ?[^}]*?/(\d+) ([\d.]+)s")


def games(path):
    with open(path, encoding="utf-8") as fh:
        for game in fh.read().split("[Event ")[1:]:
            tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
            body = game.split("\n\n", 1)[-1]
            yield tags, MOVE.findall(body)


def main(paths):
    totals = defaultdict(lambda: {"games": 0, "seconds": 0.0, "moves": 0, "depth": 0, "clock": 0.0})
    for path in paths:
        for tags, moves in games(path):
            tc = re.match(r"([\d.]+)(?:\+([\d.]+))?", tags.get("TimeControl", ""))
            if not tc or not moves:
                continue
            base, inc = float(tc.group(1)), float(tc.group(2) or 0)
            # match.py's PGN starts at the opening's side to move: White's first comment is the
            # first move when the FEN has White to move.
            white_first = " w " in tags.get("FEN", " w ")
            for i, (depth, seconds) in enumerate(moves):
                white = (i % 2 == 0) == white_first
                name = tags["White"] if white else tags["Black"]
                t = totals[name]
                t["seconds"] += float(seconds)
                t["moves"] += 1
                t["depth"] += int(depth)
                t["clock"] += inc
            for name in (tags["White"], tags["Black"]):
                totals[name]["games"] += 1
                totals[name]["clock"] += base
    print(f"{'engine':<12} {'games':>6} {'s/game':>7} {'s/move':>7} {'depth':>6} {'clock used':>10}")
    for name, t in sorted(totals.items()):
        if not t["games"] or not t["moves"]:
            continue
        print(
            f"{name:<12} {t['games']:>6} {t['seconds'] / t['games']:>7.2f} "
            f"{t['seconds'] / t['moves']:>7.3f} {t['depth'] / t['moves']:>6.1f} "
            f"{100 * t['seconds'] / t['clock']:>9.1f}%"
        )


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
