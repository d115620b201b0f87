#!/usr/bin/env python3
"""Evaluates every position of EPD files with python-chess boards through minkowski_chess and
prints the numbers `minkowski eval` prints, in the C example's line format (see
capi/examples/eval_epd.c; capi/examples/compare_with_cli.py checks them).

    python3 python/examples/eval_epd.py --weights engine.toml epd/wac.epd
"""
import sys

import chess

import minkowski_chess as mk


def main(argv):
    weights = None
    if len(argv) > 2 and argv[1] == "--weights":
        weights = mk.Weights.load(argv[2])
        argv = argv[2:]
    if len(argv) < 2:
        sys.exit("usage: eval_epd.py [--weights engine.toml] FILE.epd...")
    for path in argv[1:]:
        with open(path) as f:
            for line in f:
                fields = line.split()
                if len(fields) < 4:
                    continue
                fen = " ".join(fields[:4])
                board, _ = chess.Board.from_epd(line)  # the board, built by python-chess
                t = mk.trace(board, weights)
                rows = "".join(f"\t{name}={wmg} {weg} {bmg} {beg}"
                               for name, wmg, weg, bmg, beg in t.rows)
                print(f"{fen}\ttotal={t.total}\tphase={t.phase}\tendgame={t.endgame or 'none'}{rows}")


if __name__ == "__main__":
    main(sys.argv)
