#!/usr/bin/env python3
"""Nodes and time to each depth, and the effective branching factor, of UCI engines.

Each engine searches every position with `go depth N` (Hash 16, Threads 1, `ucinewgame`
before each position); the last `info` line of each depth gives the nodes and time spent to
finish that depth (both cumulative from the start of the search). Printed per engine and depth:
the positions that finished it, the mean nodes and mean time over those positions, and

    EBF(d) = (sum of nodes(d) / sum of nodes(d - 2)) ** (1/2)

over the positions that finished depth d: the growth per ply over the last two plies, which
evens out the odd/even oscillation of alpha-beta trees. The nps is total nodes / total time of
the deepest depth each position finished. Stdlib only; positions from an EPD file (the first
four fields of each line, evenly spread `--count` of them) or the bench positions of
src/search/bench.rs (`--bench`).

    scripts/depth-profile.py --bench --depth 16 \\
        --engine minkowski=target/release/minkowski \\
        --engine sf=/usr/games/stockfish --option "sf:Use NNUE=false" --json out.json

Wall-clock times depend on the machine's load; node counts do not (one thread).
`--summarize out.json` prints the tables again from a saved run.

`--selfplay PLIES --go "wtime 10000 btime 10000 winc 100 binc 100"` measures instead what a game
shows: from each position every engine plays PLIES plies against itself with that `go` command
(TT and histories kept from move to move, `ucinewgame` only between start positions), and the
mean depth, nodes and time of its moves are printed. A clock lets an engine's time management
act (Stockfish 15.1 then keeps counting iterations past the point where it stops deepening its
search); `--go "movetime 250"` does not.
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def bench_positions():
    """The FENs of BENCH_POSITIONS in src/search/bench.rs."""
    text = open(os.path.join(ROOT, "src", "search", "bench.rs"), encoding="utf-8").read()
    block = text[text.index("pub const BENCH_POSITIONS"):]
    block = block[: block.index("];")]
    return re.findall(r'^\s*"([^"]+)",', block, re.M)


def epd_positions(path, count):
    """`count` positions spread evenly over an EPD file (its first four fields, + "0 1")."""
    fens = []
    for line in open(path, encoding="utf-8"):
        fields = line.split()
        if len(fields) >= 4:
            fens.append(" ".join(fields[:4]) + " 0 1")
    if count and count < len(fens):
        step = len(fens) / count
        fens = [fens[int(i * step)] for i in range(count)]
    return fens


class Engine:
    """One UCI engine process, spoken to over pipes."""

    def __init__(self, name, path, options):
        self.name = name
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait_for("uciok")
        for key, value in [("Hash", "16"), ("Threads", "1")] + options:
            self.send(f"setoption name {key} value {value}")
        self.ready()

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, word):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"{self.name}: exited while waiting for {word}")
            if line.split()[:1] == [word]:
                return line

    def ready(self):
        self.send("isready")
        self.wait_for("readyok")

    def search(self, fen, depth, max_seconds):
        """{depth: (nodes, time ms)} of the last info line of each finished depth."""
        self.send("ucinewgame")
        self.ready()
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        start = time.monotonic()
        stopped = False
        per_depth = {}
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"{self.name}: exited during a search")
            words = line.split()
            if words[:1] == ["bestmove"]:
                break
            if words[:1] == ["info"] and "depth" in words and "nodes" in words:
                # Bounds from aspiration fails and lines without a pv are not a finished depth.
                if "lowerbound" in words or "upperbound" in words or "pv" not in words:
                    continue
                d = int(words[words.index("depth") + 1])
                nodes = int(words[words.index("nodes") + 1])
                ms = int(words[words.index("time") + 1]) if "time" in words else 0
                per_depth[d] = (nodes, ms)
            if not stopped and time.monotonic() - start > max_seconds:
                self.send("stop")
                stopped = True
        if stopped and per_depth:
            # The depth being searched when stopped may have printed a partial line.
            per_depth.pop(max(per_depth))
        return per_depth

    def play(self, fen, plies, go):
        """Self-play of `plies` plies from `fen` with `go`: [(depth, nodes, ms)] of each move."""
        self.send("ucinewgame")
        self.ready()
        moves, out = [], []
        for _ in range(plies):
            self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
            self.send(f"go {go}")
            last = (0, 0, 0)
            while True:
                words = self.proc.stdout.readline().split()
                if not words:
                    raise SystemExit(f"{self.name}: exited during a search")
                if words[0] == "bestmove":
                    break
                if words[0] == "info" and "depth" in words and "nodes" in words and "pv" in words:
                    d = int(words[words.index("depth") + 1])
                    ms = int(words[words.index("time") + 1]) if "time" in words else 0
                    last = (d, int(words[words.index("nodes") + 1]), ms)
            if len(words) < 2 or words[1] in ("(none)", "0000"):
                break
            moves.append(words[1])
            out.append(last)
        return out

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def summarize(results, engines, depth):
    """Print the per-depth table of every engine and return it as rows."""
    rows = []
    for name in engines:
        runs = [r[name] for r in results]
        print(f"\n{name}: {len(runs)} positions")
        print(f"{'depth':>5} {'done':>5} {'mean nodes':>12} {'mean ms':>9} {'EBF':>6}")
        for d in range(1, depth + 1):
            done = [r for r in runs if str(d) in r]
            if not done:
                continue
            nodes = sum(r[str(d)][0] for r in done)
            ms = sum(r[str(d)][1] for r in done)
            ebf = ""
            back = [r for r in done if str(d - 2) in r]
            if d > 2 and back:
                num = sum(r[str(d)][0] for r in back)
                den = sum(r[str(d - 2)][0] for r in back)
                ebf = f"{math.sqrt(num / max(den, 1)):.3f}"
            print(f"{d:>5} {len(done):>5} {nodes / len(done):>12.0f} {ms / len(done):>9.1f} {ebf:>6}")
            rows.append((name, d, len(done), nodes / len(done), ms / len(done), ebf))
        last = [r[max(r, key=int)] for r in runs if r]
        total_nodes = sum(n for n, _ in last)
        total_ms = sum(t for _, t in last)
        print(f"nps {total_nodes * 1000 / max(total_ms, 1):.0f} (nodes {total_nodes}, {total_ms} ms)")
    return rows


def selfplay(engines, fens, args):
    """Mean depth, nodes and time a move of each engine in self-play from every position."""
    moves = {name: [] for name in engines}
    for i, fen in enumerate(fens):
        for name, engine in engines.items():
            moves[name] += engine.play(fen, args.selfplay, args.go)
        print(f"{i + 1}/{len(fens)}", file=sys.stderr, flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"go": args.go, "moves": moves}, f)
    print(f"self-play, go {args.go}: {len(fens)} positions x {args.selfplay} plies")
    print(f"{'engine':<12} {'moves':>6} {'depth':>6} {'nodes':>10} {'ms':>7} {'nps':>9}")
    for name in engines:
        got = moves[name]
        n = max(len(got), 1)
        depth = sum(d for d, _, _ in got) / n
        nodes = sum(x for _, x, _ in got) / n
        ms = sum(t for _, _, t in got) / n
        print(f"{name:<12} {len(got):>6} {depth:>6.2f} {nodes:>10.0f} {ms:>7.1f} {nodes * 1000 / max(ms, 1):>9.0f}")
    for engine in engines.values():
        engine.quit()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", action="append", default=[], help="NAME=PATH (repeatable)")
    ap.add_argument("--option", action="append", default=[], help='"NAME:UCI option=value" (repeatable)')
    ap.add_argument("--bench", action="store_true", help="the bench positions of src/search/bench.rs")
    ap.add_argument("--epd", help="positions from this EPD file")
    ap.add_argument("--count", type=int, default=200, help="positions taken from --epd (spread evenly)")
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--max-seconds", type=float, default=120.0, help="per search; stopped after")
    ap.add_argument("--json", help="write every position's per-depth nodes and times here")
    ap.add_argument("--summarize", help="print the tables of a saved --json run and exit")
    ap.add_argument("--selfplay", type=int, help="plies of self-play from each position (with --go)")
    ap.add_argument("--go", default="movetime 250", help="the go command's arguments in --selfplay")
    args = ap.parse_args()

    if args.summarize:
        saved = json.load(open(args.summarize, encoding="utf-8"))
        summarize(saved["results"], saved["engines"], saved["depth"])
        return
    fens = bench_positions() if args.bench else epd_positions(args.epd, args.count)
    if not args.engine or not fens:
        ap.error("need --engine and positions (--bench or --epd)")
    options = {}
    for opt in args.option:
        name, _, setting = opt.partition(":")
        key, _, value = setting.partition("=")
        options.setdefault(name, []).append((key, value))
    engines = {}
    for spec in args.engine:
        name, _, path = spec.partition("=")
        engines[name] = Engine(name, path, options.get(name, []))
    if args.selfplay:
        selfplay(engines, fens, args)
        return
    results = []
    for i, fen in enumerate(fens):
        row = {"fen": fen}
        for name, engine in engines.items():
            row[name] = {str(d): v for d, v in engine.search(fen, args.depth, args.max_seconds).items()}
        results.append(row)
        done = " ".join(f"{n}:{max(map(int, row[n]), default=0)}" for n in engines)
        print(f"{i + 1}/{len(fens)} {done}", file=sys.stderr, flush=True)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump({"engines": list(engines), "depth": args.depth, "results": results}, f)
    for engine in engines.values():
        engine.quit()
    summarize(results, list(engines), args.depth)


if __name__ == "__main__":
    main()
