#!/usr/bin/env python3
"""Relabel datagen files with another UCI engine's scores, in resumable shards.

`minkowski datagen` writes `FEN | score | result` lines, the score being Minkowski's own search
score. `minkowski tune --lambda 0` fits the evaluation to those scores instead of the game
results; with this script the scores come from any UCI engine searched to a fixed depth or node
count (a "teacher"), so the fit learns that engine's judgement of the same positions.

    scripts/label.py --engine /usr/games/stockfish --depth 8 --jobs 2 \\
        --out-dir /work/data/labels/sf15-d8 /work/data/positions

With --static the label is the teacher's static evaluation instead of a search: Stockfish's
`eval` command (as 15.1 prints it), its `Final evaluation` line x 100 in centipawns, White's view.
The positions go to the engine --batch at a time, each batch fenced by `isready`: `eval` is
thousands of positions a second, so one round trip per position would cost more than the eval.
A position in check has no static evaluation (`Final evaluation: none (in check)`) and is left
unlabelled.

    scripts/label.py --engine /usr/games/stockfish --static --jobs 2 \\
        --out-dir /work/data/labels/sf15-eval /work/data/positions

Inputs are data files or directories of datagen shards (their finished `positions-*.txt`; a
`.part` shard still being written is left for a later run). Each input is cut into output
shards of about --shard-size positions, always after a game's trailer, named
`<input stem>-<k>.txt` in --out-dir, each with a manifest `<input stem>-<k>.json` (teacher and
version, limit, command, input and line range, counts, sha256 of the shard, times, rate) written
when the shard is complete. A run skips the shards that have a manifest and continues a shard in
progress after its last whole line: every input line gives exactly one output line, so the
lines already written are the input lines already done. A stop loses only the positions being
searched (with --static, the batches being evaluated).

Every line keeps its place, result and game trailer (`# game ...`), so `minkowski tune` still
holds whole games out for validation; only the score changes, written from White's view as
datagen writes it. A mate score becomes +-MATE_SCORE. A position the engine gives no score for
becomes a comment `# unlabelled <FEN>` and its game's trailer claims one position fewer. Lines
that are not `FEN | score | result` are copied as they are. Needs only the Python standard
library.
"""

import argparse
import datetime
import decimal
import hashlib
import json
import multiprocessing
import os
import queue
import signal
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

# The line of Stockfish's `eval` output that holds the label, e.g. (15.1)
#   Final evaluation       +0.25 (white side) [with scaled NNUE, hybrid, ...]
#   Final evaluation: none (in check)
FINAL = "Final evaluation"
# The lines --static-line can take the label from: the final value (what Stockfish's search
# starts from: the network's output scaled by the material and damped by the halfmove clock),
# or the raw network's line printed just above it. The `Final evaluation` line closes each
# position in either case.
STATIC_LINES = {"final": FINAL, "nnue": "NNUE evaluation"}
# Positions per batch with --static unless --batch says otherwise: ~40 ms of Stockfish's `eval`,
# so the `isready` fence after each batch costs little, and a stop loses little.
STATIC_BATCH = 256
# A position a working engine evaluates: the probe that --static works before the pool starts.
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


class Silent(Exception):
    """The engine said nothing for SILENCE_LIMIT seconds, or quit."""


class Unsupported(RuntimeError):
    """The engine does not answer `eval` with a `Final evaluation` line: not a static teacher."""


def static_go(line):
    """What a --static run records as the manifest's "go" for `--static-line line`."""
    return f"eval (static, {STATIC_LINES[line]})"


def final_evaluation(line, prefix=FINAL):
    """The centipawns (White's view) of a `Final evaluation` line (or of another line of the
    same shape starting with `prefix`); None for `none` (in check). Raises ValueError on a line
    it cannot read."""
    rest = line[len(prefix) :].lstrip(":").split()
    if rest[:1] == ["none"]:
        return None
    # Stockfish prints the evaluation from White's view whoever is to move, and says so; a line
    # without "(white side)" might be from the side to move's view, and a wrong sign is worse
    # than no label.
    if len(rest) < 3 or rest[1:3] != ["(white", "side)"]:
        raise ValueError(f"not `{prefix} <pawns> (white side)`: {line.strip()}")
    try:
        pawns = decimal.Decimal(rest[0])
    except decimal.InvalidOperation:
        raise ValueError(f"not a number of pawns: {line.strip()}") from None
    if not pawns.is_finite():
        raise ValueError(f"not a number of pawns: {line.strip()}")
    # Decimal, not float: "+0.29" is exactly 29, not 28.999999999999996 truncated or rounded.
    return int((pawns * 100).to_integral_value(rounding=decimal.ROUND_HALF_EVEN))


class Engine:
    """One UCI engine process, searching positions to a fixed depth or node count, or (static)
    evaluating them with `eval`."""

    def __init__(self, command, go, hash_mb, static=None):
        """`static`: None to search, or the `--static-line` to label by (`final`, `nnue`)."""
        self.args = (command, go, hash_mb, static)
        self.go = go
        self.static = static
        # Stockfish's `eval` prints some 70 lines a position (tables of terms and piece values);
        # only the `Final evaluation` line counts. Dropping the rest in bulk in the reader
        # thread, not one queue item each, keeps Python from being slower than the engine.
        self.keep = (
            tuple({FINAL.encode(), STATIC_LINES[static].encode()})
            + (b"readyok", b"uciok", b"id name ")
            if static
            else None
        )
        # In a process group of its own: the command goes through a shell, and killing only the
        # shell would leave a stuck engine running (and holding our stderr) after a restart.
        self.proc = subprocess.Popen(
            command,
            shell=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
            start_new_session=True,
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
        """Move the engine's lines into the queue ("" when it quits), read in blocks, not
        lines: a static teacher prints hundreds of thousands of lines a second."""
        fd = self.proc.stdout.fileno()
        rest = b""
        while True:
            try:
                block = os.read(fd, 1 << 16)
            except OSError:
                block = b""
            if not block:
                break
            lines = (rest + block).split(b"\n")
            rest = lines.pop()
            for line in lines:
                if self.keep is None or line.startswith(self.keep):
                    self.lines.put(line.rstrip(b"\r").decode(errors="replace") + "\n")
        if rest and (self.keep is None or rest.startswith(self.keep)):
            self.lines.put(rest.decode(errors="replace") + "\n")
        self.lines.put("")

    def send(self, text):
        """Send one command, or several lines at once (a batch: one write, one flush)."""
        self.proc.stdin.write((text + "\n").encode())
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
            self.kill()

    def kill(self):
        """Kill the engine: the shell and everything it started."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass  # already gone
        self.proc.wait()

    def restarted(self):
        """A fresh engine of the same command, this one killed."""
        self.kill()
        return Engine(*self.args)

    def score(self, fen):
        """The engine's score of `fen` from the side to move's view, or None."""
        if self.searched % 1000 == 0:
            self.send("ucinewgame")  # a fresh table now and then: no drift from old entries
        self.searched += 1
        try:
            self.send("position fen " + fen)
            self.send(self.go)
        except OSError:
            raise Silent() from None  # it died since its last answer
        score = None
        while True:
            line = self.read()
            if not line:
                raise Silent()  # silent (None), or quit (""): restarted alike
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

    def evaluate(self, fens, answers):
        """Append to `answers` the static evaluation of each of `fens` (White's view; None: in
        check, or an answer it cannot read), in order, as the engine gives them: after a Silent
        the answers so far are there, the rest is to be asked again.

        The whole batch is sent at once, then `isready`. `eval` has no end marker of its own, so
        each `Final evaluation` line closes one position (other lines, including the blank line
        Stockfish prints after it, are not counted), and the `readyok` after them all says that
        nothing more is coming."""
        batch = "".join(f"position fen {fen}\neval\n" for fen in fens)
        # With --static-line nnue the label is the `NNUE evaluation` line read since the last
        # `Final evaluation` (none there: in check, no label).
        wanted = STATIC_LINES[self.static]
        pending = None
        try:
            self.send(batch + "isready")
        except OSError:
            raise Silent() from None  # it died since its last answer
        while True:
            line = self.read()
            if not line:
                raise Silent()  # silent (None), or quit (""): restarted alike
            if line.startswith("readyok"):
                if len(answers) < len(fens):
                    raise Unsupported(
                        f"it answered `isready` after {len(answers)} of {len(fens)} `eval` "
                        f"commands had a `{FINAL}` line"
                    )
                return
            if wanted != FINAL and line.startswith(wanted):
                pending = line
            elif line.startswith(FINAL):
                if len(answers) == len(fens):
                    raise Unsupported(f"more `{FINAL}` lines than `eval` commands")
                try:
                    if wanted == FINAL:
                        answers.append(final_evaluation(line))
                    else:
                        answers.append(pending and final_evaluation(pending, wanted))
                except ValueError as e:
                    fen = fens[len(answers)]
                    print(f"label.py: on {fen}: {e}: left unlabelled", file=sys.stderr)
                    answers.append(None)
                pending = None


ENGINE = None


def start(command, go, hash_mb, static):
    global ENGINE
    ENGINE = Engine(command, go, hash_mb, static)


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


def label_static(lines):
    """The relabelled lines of a batch (see `label`), from the teacher's `eval`."""
    global ENGINE
    positions = []  # (index in lines, fen, result)
    for i, line in enumerate(lines):
        parts = [p.strip() for p in line.split("|")]
        if not line.startswith("#") and len(parts) == 3:
            positions.append((i, parts[0], parts[2]))
    fens = [fen for _, fen, _ in positions]
    scores, failures = [], 0
    while len(scores) < len(fens):
        answers = []
        try:
            ENGINE.evaluate(fens[len(scores) :], answers)
            scores += answers
        except Silent:
            scores += answers
            ENGINE = ENGINE.restarted()
            if len(scores) == len(fens):
                break  # every position answered; only the `readyok` fence was lost
            # The first position without an answer is the likely culprit: asked once more with
            # the rest of the batch, then left unlabelled if the engine fails on it again.
            failures = 1 if answers else failures + 1
            fen = fens[len(scores)]
            if failures == 1:
                print(
                    f"label.py: no answer on {fen}: engine restarted, evaluating again",
                    file=sys.stderr,
                )
            else:
                print(f"label.py: no answer again on {fen}: left unlabelled", file=sys.stderr)
                scores.append(None)
                failures = 0
    out = list(lines)
    for (i, fen, result), score in zip(positions, scores):
        out[i] = None if score is None else f"{fen} | {score} | {result}\n"
    return out


def label_batch(lines):
    """The relabelled lines of a batch of input lines (see `label`)."""
    if ENGINE.static:
        return label_static(lines)
    return [label(line) for line in lines]


def batches(lines, static, size):
    """`lines` cut into the pool's units of work: with --static, runs of `size` positions (the
    comments between them ride along); otherwise single lines, searched one at a time."""
    if not static:
        for line in lines:
            yield [line]
        return
    batch, count = [], 0
    for line in lines:
        batch.append(line)
        if is_position(line):
            count += 1
            if count == size:
                yield batch
                batch, count = [], 0
    if batch:
        yield batch


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
    static = manifest_base["static"]
    counts = {"positions": 0, "unlabelled": 0, "mates": 0}
    todo = lines[done:]
    searched = n = 0
    # A search goes one line at a time, 16 lines to a worker's turn as before; a static batch is
    # already a worker's turn.
    work = list(batches(todo, static, manifest_base["batch"]))
    answered = pool.imap(label_batch, work, chunksize=1 if static else 16)
    with open(out_path, "a") as out:
        for batch, results in zip(work, answered):
            for line, result in zip(batch, results):
                n += 1
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
                out.write(result)
                if n % 10000 == 0:
                    print(f"label.py: {out_path}: {done + n}/{len(lines)} lines", file=sys.stderr)
            # Flushed batch by batch (a search: line by line): a batch costs far more than a
            # write, and a stop then loses only the batches being worked on.
            out.flush()
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
    if static:
        # A static evaluation is never a mate score; a 3000 there is a coincidence, not a mate.
        counts["mates"] = None
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
    limit.add_argument(
        "--static",
        action="store_true",
        help="no search: the engine's static evaluation, `eval`'s `Final evaluation` line "
        "as Stockfish 15.1 prints it; positions in check are left unlabelled",
    )
    parser.add_argument(
        "--static-line",
        choices=sorted(STATIC_LINES),
        help="with --static: the line of `eval` the label comes from: `final` (default: "
        "`Final evaluation`, what Stockfish's search starts from) or `nnue` (`NNUE "
        "evaluation`, the raw network without the material scale and the halfmove damping)",
    )
    parser.add_argument(
        "--batch",
        type=int,
        help=f"with --static: positions sent to each engine at once (default {STATIC_BATCH})",
    )
    parser.add_argument("--jobs", type=int, default=1, help="engine processes at once")
    parser.add_argument("--hash", type=int, default=16, help="each engine's hash in MB")
    parser.add_argument(
        "--shard-size", type=int, default=100000, help="positions per output shard (about)"
    )
    parser.add_argument("--out-dir", required=True, help="directory of the labelled shards")
    parser.add_argument("inputs", nargs="+", help="datagen files or directories of shards")
    args = parser.parse_args()
    if args.batch is not None and not args.static:
        parser.error("--batch goes with --static only (a search sends one position at a time)")
    if args.static_line is not None and not args.static:
        parser.error("--static-line goes with --static only")
    if args.static:
        args.static_line = args.static_line or "final"
    if args.static and args.batch is None:
        args.batch = STATIC_BATCH
    limit_value = 1 if args.static else args.depth if args.depth is not None else args.nodes
    if limit_value < 1 or args.jobs < 1 or args.hash < 1 or args.shard_size < 1:
        parser.error("--depth/--nodes, --jobs, --hash and --shard-size must be positive")
    if args.batch is not None and args.batch < 1:
        parser.error("--batch must be positive")
    return args


def main():
    args = parse_args()
    if args.static:
        go = static_go(args.static_line)
    else:
        go = f"go depth {args.depth}" if args.depth is not None else f"go nodes {args.nodes}"
    files = input_files(args.inputs)
    try:
        os.makedirs(args.out_dir, exist_ok=True)
    except OSError as e:
        sys.exit(f"label.py: cannot create {args.out_dir}: {e}")
    try:
        # Start one engine here first: a bad command should stop the run with its reason, not
        # leave a pool restarting workers that cannot start.
        probe = Engine(args.engine, go, args.hash, args.static_line)
        teacher = probe.name or args.engine
    except (OSError, RuntimeError) as e:
        sys.exit(f"label.py: the engine `{args.engine}` does not answer `uci`: {e}")
    if args.static:
        # And one `eval`: an engine without it, or with other wording than Stockfish 15.1's,
        # would otherwise leave every position unlabelled, or fail every batch.
        answers = []
        try:
            probe.evaluate([START_FEN], answers)
        except (Silent, RuntimeError) as e:
            answers = [None]
            reason = str(e) or "no answer"
        else:
            reason = "no number of pawns"
        if answers[0] is None:
            probe.kill()
            sys.exit(
                f"label.py: the engine `{args.engine}` does not answer `eval` with a "
                f"`{FINAL} <pawns> (white side)` line, as Stockfish 15.1 does: {reason}"
            )
    probe.quit()
    base = {
        "teacher": teacher,
        "engine": args.engine,
        "go": go,
        "static": args.static,
        # The `eval` line the labels come from (`final` or `nnue`); null for a search.
        "static_line": args.static_line,
        "depth": args.depth,
        "nodes": args.nodes,
        # Positions per `eval` batch; null for a search (one position at a time).
        "batch": args.batch,
        "hash_mb": args.hash,
        "jobs": args.jobs,
        "command": " ".join([sys.executable] + sys.argv),
    }
    print(f"label.py: teacher {teacher}, `{go}`, {args.jobs} jobs", file=sys.stderr)
    totals = {"positions": 0, "unlabelled": 0, "shards": 0, "skipped": 0}
    engine_args = (args.engine, go, args.hash, args.static_line)
    with multiprocessing.Pool(args.jobs, start, engine_args) as pool:
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
                try:
                    counts = label_shard(pool, lines[first:end], out_path, first, shard_base)
                except RuntimeError as e:
                    # An engine that no longer starts, or that stopped answering `eval` as it
                    # did for the probe: the shard stays in progress, a later run continues it.
                    sys.exit(f"label.py: {out_path}: stopped: the engine: {e}")
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
