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
    evaluator = mk.Evaluator(weights)
    for path in argv[1:]:
        with open(path) as f:
            lines = [line for line in f if len(line.split()) >= 4]
        fens = [" ".join(line.split()[:4]) for line in lines]
        boards = [chess.Board.from_epd(line)[0] for line in lines]  # built by python-chess
        # One batch for the whole file: every term of every position, in arrays.
        traces = evaluator.trace_many(boards)
        for i, fen in enumerate(fens):
            rows = "".join(
                f"\t{name}={wmg} {weg} {bmg} {beg}"
                for name, ((wmg, weg), (bmg, beg)) in zip(traces.names, traces.terms[i].tolist()))
            endgame = traces.endgame[i] or "none"
            print(f"{fen}\ttotal={traces.total[i]}\tphase={traces.phase[i]}"
                  f"\tendgame={endgame}{rows}")


if __name__ == "__main__":
    main(sys.argv)
