#!/usr/bin/env python3
"""Relabel a datagen file with another UCI engine's search scores.

`minkowski datagen` writes `FEN | score | result` lines, the score being Minkowski's own search
score. `minkowski tune --lambda 0` fits the evaluation to those scores instead of the game
results; with this script the scores come from any UCI engine searched to a fixed depth (a
"teacher"), so the fit learns that engine's judgement of the same positions.

    scripts/label.py --engine /usr/games/ethereal-chess --depth 10 --jobs 2 data.txt labelled.txt

Every line keeps its place, result and game trailer (`# game ...`), so `minkowski tune` still
holds whole games out for validation; only the score changes, written from White's view as
datagen writes it. A mate score becomes +-MATE_SCORE. A line the engine gives no score for
is dropped and counted; lines that are not `FEN | score | result` are copied as they are. Needs only the Python standard library.
"""

import argparse
import multiprocessing
import queue
import subprocess
import sys
import threading

# What a mate score is written as: far beyond any evaluation, so its expected score is 0 or 1.
MATE_SCORE = 3000

# Seconds without a line from the engine before it counts as stuck: it is then restarted and the
# position searched once more (and dropped if that fails too). Some engines now and then miss a
# `go` sent right after their previous `bestmove`; a stuck engine must not stall the whole run.
SILENCE_LIMIT = 10


class Silent(Exception):
    """The engine said nothing for SILENCE_LIMIT seconds."""


class Engine:
    """One UCI engine process, searching positions to a fixed depth."""

    def __init__(self, command, depth, hash_mb):
        self.args = (command, depth, hash_mb)
        self.depth = depth
        self.proc = subprocess.Popen(
            command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        # The engine's lines come through a queue, so that a read can time out.
        self.lines = queue.Queue()
        threading.Thread(target=self.pump, daemon=True).start()
        self.send("uci")
        self.wait_for("uciok")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("isready")
        self.wait_for("readyok")
        self.searched = 0

    def pump(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put("")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self):
        """The engine's next line; "" when it quit; None after SILENCE_LIMIT seconds of silence."""
        try:
            return self.lines.get(timeout=SILENCE_LIMIT)
        except queue.Empty:
            return None

    def wait_for(self, token):
        while True:
            line = self.read()
            if not line:
                raise RuntimeError("the engine quit" if line == "" else "the engine fell silent")
            if line.startswith(token):
                return line

    def restarted(self):
        """A fresh engine of the same command, this one killed."""
        self.proc.kill()
        self.proc.wait()
        return Engine(*self.args)

    def score(self, fen):
        """The engine's score of `fen` from the side to move's view, or None."""
        if self.searched % 1000 == 0:
            self.send("ucinewgame")  # a fresh table now and then: no drift from old entries
        self.searched += 1
        self.send("position fen " + fen)
        self.send(f"go depth {self.depth}")
        score = None
        while True:
            line = self.read()
            if line == "":
                raise RuntimeError("the engine quit on " + fen)
            if line is None:
                raise Silent()
            words = line.split()
            if words[:1] == ["info"] and "score" in words:
                i = words.index("score")
                if (
                    i + 2 < len(words)
                    and words[i + 1] in ("cp", "mate")
                    and words[i + 2].lstrip("-").isdigit()
                ):
                    value = int(words[i + 2])
                    if words[i + 1] == "mate":
                        value = MATE_SCORE if value > 0 else -MATE_SCORE
                    # Bounds (`lowerbound`/`upperbound`) are kept too: the last exact score wins
                    # when there is one after them.
                    score = value
            elif words[:1] == ["bestmove"]:
                return score


ENGINE = None


def start(command, depth, hash_mb):
    global ENGINE
    ENGINE = Engine(command, depth, hash_mb)


def label(line):
    """The relabelled line, the line itself (not a position), or None (no score)."""
    global ENGINE
    parts = [p.strip() for p in line.split("|")]
    if line.startswith("#") or len(parts) != 3:
        return line
    fen, _, result = parts
    try:
        score = ENGINE.score(fen)
    except Silent:
        print(f"label.py: no answer on {fen}: engine restarted, searching again", file=sys.stderr)
        ENGINE = ENGINE.restarted()
        try:
            score = ENGINE.score(fen)
        except Silent:
            print(f"label.py: no answer again on {fen}: dropped", file=sys.stderr)
            ENGINE = ENGINE.restarted()
            return None
    if score is None:
        return None
    fields = fen.split()
    if len(fields) > 1 and fields[1] == "b":
        score = -score
    return f"{fen} | {score} | {result}\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="the UCI engine's command line")
    parser.add_argument("--depth", type=int, default=10, help="search depth per position")
    parser.add_argument("--jobs", type=int, default=1, help="engine processes at once")
    parser.add_argument("--hash", type=int, default=16, help="each engine's hash in MB")
    parser.add_argument("input", help="a datagen file: FEN | score | result lines")
    parser.add_argument("output", help="the relabelled file")
    args = parser.parse_args()
    if args.depth < 1 or args.jobs < 1 or args.hash < 1:
        parser.error("--depth, --jobs and --hash must be positive")
    try:
        with open(args.input) as f:
            lines = f.readlines()
    except OSError as e:
        sys.exit(f"label.py: cannot read {args.input}: {e}")
    try:
        # Start one engine here first: a bad command should stop the run with its reason, not
        # leave a pool restarting workers that cannot start.
        Engine(args.engine, args.depth, args.hash).send("quit")
    except (OSError, RuntimeError) as e:
        sys.exit(f"label.py: the engine `{args.engine}` does not answer `uci`: {e}")
    dropped = positions = 0
    with multiprocessing.Pool(args.jobs, start, (args.engine, args.depth, args.hash)) as pool, open(
        args.output, "w"
    ) as out:
        for done, result in enumerate(pool.imap(label, lines, chunksize=64), 1):
            if result is None:
                dropped += 1
                continue
            if not result.startswith("#") and result.count("|") == 2:
                positions += 1
            out.write(result)
            if done % 10000 == 0:
                print(f"{done}/{len(lines)} lines", file=sys.stderr, flush=True)
    print(f"{positions} positions labelled, {dropped} dropped (no score)", file=sys.stderr)


if __name__ == "__main__":
    main()
