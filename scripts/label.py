#!/usr/bin/env python3
"""Relabel datagen files with another UCI engine's search scores, in resumable shards.

`minkowski datagen` writes `FEN | score | result` lines, the score being Minkowski's own search
score. `minkowski tune --lambda 0` fits the evaluation to those scores instead of the game
results; with this script the scores come from any UCI engine searched to a fixed depth or node
count (a "teacher"), so the fit learns that engine's judgement of the same positions.

    scripts/label.py --engine /usr/games/stockfish --depth 8 --jobs 2 \\
        --out-dir /work/data/labels/sf15-d8 /work/data/positions

Inputs are data files or directories of datagen shards (their finished `positions-*.txt`; a
`.part` shard still being written is left for a later run). Each input is cut into output
shards of about --shard-size positions, always after a game's trailer, named
`<input stem>-<k>.txt` in --out-dir, each with a manifest `<input stem>-<k>.json` (teacher and
version, limit, command, input and line range, counts, sha256 of the shard, times, rate) written
when the shard is complete. A run skips the shards that have a manifest and continues a shard in
progress after its last whole line: every input line gives exactly one output line, so the
lines already written are the input lines already done. A stop loses only the positions being
searched.

Every line keeps its place, result and game trailer (`# game ...`), so `minkowski tune` still
holds whole games out for validation; only the score changes, written from White's view as
datagen writes it. A mate score becomes +-MATE_SCORE. A position the engine gives no score for
becomes a comment `# unlabelled <FEN>` and its game's trailer claims one position fewer. Lines
that are not `FEN | score | result` are copied as they are. Needs only the Python standard
library.
"""

import argparse
import datetime
import hashlib
import json
import multiprocessing
import os
import queue
import subprocess
import sys
import threading
import time

# What a mate score is written as: far beyond any evaluation, so its expected score is 0 or 1.
MATE_SCORE = 3000

# Seconds without a line from the engine before it counts as stuck: it is then restarted and the
# position searched once more (and left unlabelled if that fails too). Some engines now and then
# miss a `go` sent right after their previous `bestmove`; a stuck engine must not stall the run.
# The environment variable lets the tests use a short limit.
SILENCE_LIMIT = float(os.environ.get("LABEL_SILENCE_LIMIT", "10"))

TRAILER = "# game "
UNLABELLED = "# unlabelled "


class Silent(Exception):
    """The engine said nothing for SILENCE_LIMIT seconds."""


class Engine:
    """One UCI engine process, searching positions to a fixed depth or node count."""

    def __init__(self, command, go, hash_mb):
        self.args = (command, go, hash_mb)
        self.go = go
        self.proc = subprocess.Popen(
            command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        # The engine's lines come through a queue, so that a read can time out.
        self.lines = queue.Queue()
        threading.Thread(target=self.pump, daemon=True).start()
        self.name = None
        self.send("uci")
        for line in self.until("uciok"):
            if line.startswith("id name "):
                self.name = line[len("id name ") :].strip()
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

    def until(self, token):
        """The engine's lines up to the one starting with `token` (excluded)."""
        seen = []
        while True:
            line = self.read()
            if not line:
                raise RuntimeError("the engine quit" if line == "" else "the engine fell silent")
            if line.startswith(token):
                return seen
            seen.append(line)

    def wait_for(self, token):
        self.until(token)

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()

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
        self.send(self.go)
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


def start(command, go, hash_mb):
    global ENGINE
    ENGINE = Engine(command, go, hash_mb)


def label(line):
    """The relabelled line; the line itself (not a position); or None (no score)."""
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
            print(f"label.py: no answer again on {fen}: left unlabelled", file=sys.stderr)
            ENGINE = ENGINE.restarted()
            return None
    if score is None:
        return None
    fields = fen.split()
    if len(fields) > 1 and fields[1] == "b":
        score = -score
    return f"{fen} | {score} | {result}\n"


def is_position(line):
    return not line.startswith("#") and line.count("|") == 2


def shards_of(lines, size):
    """Line ranges [start, end) of about `size` position lines each, cut only after a trailer
    (or, in a file without trailers, after exactly `size` position lines)."""
    has_trailers = any(line.startswith(TRAILER) for line in lines)
    ranges, start, count = [], 0, 0
    for i, line in enumerate(lines):
        if is_position(line):
            count += 1
        at_cut = line.startswith(TRAILER) if has_trailers else is_position(line)
        if at_cut and count >= size:
            ranges.append((start, i + 1))
            start, count = i + 1, 0
    if start < len(lines):
        ranges.append((start, len(lines)))
    return ranges


def input_files(paths):
    """The data files named: files as given, directories by their finished datagen shards."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            names = sorted(
                n for n in os.listdir(path) if n.startswith("positions-") and n.endswith(".txt")
            )
            if not names:
                sys.exit(f"label.py: {path}: no finished shard (positions-*.txt)")
            files += [os.path.join(path, n) for n in names]
        elif os.path.isfile(path):
            files.append(path)
        else:
            sys.exit(f"label.py: {path}: no such file or directory")
    stems = [os.path.splitext(os.path.basename(f))[0] for f in files]
    if len(set(stems)) != len(stems):
        sys.exit("label.py: two inputs share a file name; their shards would collide")
    return files


def resume_point(path):
    """How many whole lines the shard in progress at `path` holds (a partial last line is cut
    off the file) and how many positions of its last, unfinished game were left unlabelled."""
    if not os.path.exists(path):
        return 0, 0
    with open(path, "rb+") as f:
        data = f.read()
        keep = data.rfind(b"\n") + 1
        if keep < len(data):
            f.truncate(keep)
    lines = data[:keep].decode().splitlines()
    pending = 0
    for line in lines:
        if line.startswith(TRAILER):
            pending = 0
        elif line.startswith(UNLABELLED):
            pending += 1
    return len(lines), pending


def fix_trailer(line, unlabelled):
    """The trailer `line` claiming `unlabelled` positions fewer."""
    words = line.split()
    for i, w in enumerate(words):
        if w.startswith("positions=") and w[len("positions=") :].isdigit():
            words[i] = f"positions={max(0, int(w[len('positions='):]) - unlabelled)}"
    return " ".join(words) + "\n"


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def label_shard(pool, lines, out_path, first, manifest_base):
    """Label `lines` (one shard of the input) into `out_path`, continuing what is there; write
    the manifest next to it when done."""
    done, unlabelled = resume_point(out_path)
    started, t0 = utc_now(), time.monotonic()
    counts = {"positions": 0, "unlabelled": 0, "mates": 0}
    todo = lines[done:]
    searched = 0
    with open(out_path, "a") as out:
        for n, (line, result) in enumerate(zip(todo, pool.imap(label, todo, chunksize=16)), 1):
            if is_position(line):
                searched += 1
            if result is None:
                unlabelled += 1
                fen = line.split("|")[0].strip()
                result = f"{UNLABELLED}{fen}\n"
            elif line.startswith(TRAILER):
                if unlabelled:
                    result = fix_trailer(line, unlabelled)
                unlabelled = 0
            elif not result.endswith("\n"):
                result += "\n"  # a last line without its newline
            # Flushed line by line: a search costs far more than a write, and a stop then loses
            # only the positions being searched.
            out.write(result)
            out.flush()
            if n % 10000 == 0:
                print(f"label.py: {out_path}: {done + n}/{len(lines)} lines", file=sys.stderr)
    seconds = time.monotonic() - t0
    # The counts of the whole shard, read back: a resumed shard was written by several runs.
    with open(out_path) as f:
        for line in f:
            if is_position(line):
                counts["positions"] += 1
                if abs(int(line.split("|")[1])) == MATE_SCORE:
                    counts["mates"] += 1
            elif line.startswith(UNLABELLED):
                counts["unlabelled"] += 1
    manifest = dict(manifest_base)
    manifest.update(
        {
            # 0-based, end excluded: the input's lines[start:end].
            "input_lines": [first, first + len(lines)],
            "output": os.path.basename(out_path),
            "lines": len(lines),
            **counts,
            "sha256": sha256_of(out_path),
            "resumed_after_lines": done,
            "start": started,
            "end": utc_now(),
            "seconds": round(seconds, 1),
            # Of this run's part of the shard (all of it unless resumed).
            "searched": searched,
            "positions_per_second": round(searched / max(seconds, 1e-3), 2),
        }
    )
    json_path = os.path.splitext(out_path)[0] + ".json"
    with open(json_path + ".tmp", "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    os.replace(json_path + ".tmp", json_path)
    return counts


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="the UCI engine's command line")
    limit = parser.add_mutually_exclusive_group(required=True)
    limit.add_argument("--depth", type=int, help="search depth per position")
    limit.add_argument("--nodes", type=int, help="nodes searched per position")
    parser.add_argument("--jobs", type=int, default=1, help="engine processes at once")
    parser.add_argument("--hash", type=int, default=16, help="each engine's hash in MB")
    parser.add_argument(
        "--shard-size", type=int, default=100000, help="positions per output shard (about)"
    )
    parser.add_argument("--out-dir", required=True, help="directory of the labelled shards")
    parser.add_argument("inputs", nargs="+", help="datagen files or directories of shards")
    args = parser.parse_args()
    limit_value = args.depth if args.depth is not None else args.nodes
    if limit_value < 1 or args.jobs < 1 or args.hash < 1 or args.shard_size < 1:
        parser.error("--depth/--nodes, --jobs, --hash and --shard-size must be positive")
    return args


def main():
    args = parse_args()
    go = f"go depth {args.depth}" if args.depth is not None else f"go nodes {args.nodes}"
    files = input_files(args.inputs)
    try:
        os.makedirs(args.out_dir, exist_ok=True)
    except OSError as e:
        sys.exit(f"label.py: cannot create {args.out_dir}: {e}")
    try:
        # Start one engine here first: a bad command should stop the run with its reason, not
        # leave a pool restarting workers that cannot start.
        probe = Engine(args.engine, go, args.hash)
        teacher = probe.name or args.engine
        probe.quit()
    except (OSError, RuntimeError) as e:
        sys.exit(f"label.py: the engine `{args.engine}` does not answer `uci`: {e}")
    base = {
        "teacher": teacher,
        "engine": args.engine,
        "go": go,
        "depth": args.depth,
        "nodes": args.nodes,
        "hash_mb": args.hash,
        "jobs": args.jobs,
        "command": " ".join([sys.executable] + sys.argv),
    }
    print(f"label.py: teacher {teacher}, `{go}`, {args.jobs} jobs", file=sys.stderr)
    totals = {"positions": 0, "unlabelled": 0, "shards": 0, "skipped": 0}
    with multiprocessing.Pool(args.jobs, start, (args.engine, go, args.hash)) as pool:
        for path in files:
            try:
                with open(path) as f:
                    lines = f.readlines()
            except (OSError, UnicodeDecodeError) as e:
                sys.exit(f"label.py: cannot read {path}: {e}")
            stem = os.path.splitext(os.path.basename(path))[0]
            for k, (first, end) in enumerate(shards_of(lines, args.shard_size)):
                out_path = os.path.join(args.out_dir, f"{stem}-{k:03}.txt")
                if os.path.exists(os.path.splitext(out_path)[0] + ".json"):
                    totals["skipped"] += 1
                    continue
                shard_base = dict(base, input=os.path.abspath(path))
                counts = label_shard(pool, lines[first:end], out_path, first, shard_base)
                totals["positions"] += counts["positions"]
                totals["unlabelled"] += counts["unlabelled"]
                totals["shards"] += 1
                print(
                    f"label.py: {out_path}: {counts['positions']} positions, "
                    f"{counts['unlabelled']} unlabelled",
                    file=sys.stderr,
                )
    print(
        f"label.py: {totals['shards']} shards labelled ({totals['positions']} positions, "
        f"{totals['unlabelled']} unlabelled), {totals['skipped']} already done",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
