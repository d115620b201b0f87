#!/usr/bin/env python3
"""Positions per second of evaluate_many (1 and 2 threads) against a Python loop of single
evaluate calls, on the same positions in the same run, and whether they agree.

    python3 python/examples/bench_batch.py [--positions 100000] [--seed 1]

Positions: every FEN of epd/*.epd, then positions along seeded random games from the start
position (python-chess), up to --positions. Each measurement is the best of --repeat runs.
"""
import argparse
import random
import time
from pathlib import Path

import chess
import numpy as np

import minkowski_chess as mk

REPO = Path(__file__).resolve().parents[2]


def positions(count, seed):
    fens = []
    for path in sorted((REPO / "epd").glob("*.epd")):
        for line in path.read_text().splitlines():
            fields = line.split()
            if len(fields) >= 4 and "/" in fields[0]:
                fens.append(" ".join(fields[:4]) + " 0 1")
    suites = len(fens)
    rng = random.Random(seed)
    boards = []
    while len(fens) + len(boards) < count:
        board = chess.Board()
        for _ in range(rng.randint(20, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            boards.append(board.copy(stack=False))
    fens = (fens + [b.fen() for b in boards])[:count]
    return fens, boards[: count - suites], suites


def best(repeat, call):
    """The shortest wall time of `repeat` runs (on a shared machine the others only add), the
    process CPU time of that run, and the result."""
    runs = []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = call()
        runs.append((time.perf_counter() - wall, time.process_time() - cpu))
    wall, cpu = min(runs)
    print(f"    ({wall:.3f} s wall, {cpu:.3f} s CPU)")
    return wall, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    fens, boards, suites = positions(args.positions, args.seed)
    print(f"{len(fens)} positions: {suites} from epd/*.epd, {len(fens) - suites} from random games")
    e = mk.Evaluator()

    def loop():
        out = np.zeros(len(fens), dtype=np.int32)
        bad = np.zeros(len(fens), dtype=bool)
        for i, fen in enumerate(fens):
            try:
                out[i] = e.evaluate(fen)
            except mk.PositionError:
                bad[i] = True
        return np.ma.MaskedArray(out, mask=bad)

    t_loop, single = best(args.repeat, loop)
    print(f"Python loop of evaluate(fen): {len(fens) / t_loop:12,.0f} positions/s")
    for threads in (1, 2):
        t, batch = best(args.repeat, lambda: e.evaluate_many(fens, threads=threads, errors="mask"))
        same = bool((batch.mask == single.mask).all() and (batch.data == single.data).all())
        print(f"evaluate_many(fens, threads={threads}): {len(fens) / t:12,.0f} positions/s, "
              f"{t_loop / t:5.1f}x the loop, equal to it: {same} "
              f"({int(batch.mask.sum())} bad positions)")
    t_bloop, bsingle = best(args.repeat, lambda: [e.evaluate(b) for b in boards])
    print(f"Python loop of evaluate(board): {len(boards) / t_bloop:10,.0f} boards/s")
    for threads in (1, 2):
        t, batch = best(args.repeat, lambda: e.evaluate_many(boards, threads=threads))
        print(f"evaluate_many(boards, threads={threads}): {len(boards) / t:10,.0f} boards/s, "
              f"{t_bloop / t:5.1f}x the loop, equal to it: {batch.tolist() == bsingle}")


if __name__ == "__main__":
    main()
