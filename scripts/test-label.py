#!/usr/bin/env python3
"""Tests of scripts/label.py that need no teacher installed: a fake UCI engine (written to a
temporary directory) answers every `go` with a score computed from the FEN, and every `eval`
with a Stockfish-like static evaluation, so the expected labels are known. Covers a whole run, a
run killed midway and restarted (the same shards, byte for byte), the manifests and their
sha256, positions left unlabelled, --static (in check, batches, resume, a silent or dying
engine), and bad arguments.

    python3 scripts/test-label.py
"""

import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LABEL = os.path.join(HERE, "label.py")

# The fake teacher: `id name`, a deterministic score per FEN (side to move's view), no score at
# all for bare kings, a mate score for positions with a white queen; FAKE_SLEEP slows each `go`
# and `eval`.
#
# `eval` answers as Stockfish 15.1 does: an `info string`, a blank line, tables, the classical
# and NNUE lines, then `Final evaluation  +x.xx (white side) [...]` (White's view, pawns with two
# decimals) and a blank line; or, when the side to move's king is attacked along a rank or file
# by a rook or queen (the only checks these fixtures hold), just `Final evaluation: none (in
# check)`. FAKE_FAIL=hang:<board> or die:<board> makes it fall silent or exit on that board's
# `eval`; with FAKE_FAIL_ONCE=<file> only while that file does not exist (it is then made).
# FAKE_NO_EVAL=1: `eval` is ignored, as an engine without it does.
FAKE_ENGINE = r"""
import hashlib, os, signal, sys, time
# As a real engine: a closed pipe (label.py gone, its pool ended) ends it without a traceback.
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
fen = ""

def in_check(fen):
    board, side = fen.split()[:2]
    rows = []
    for row in board.split("/"):
        squares = ""
        for c in row:
            squares += "." * int(c) if c.isdigit() else c
        rows.append(squares)
    king, enemies = ("K", "rq") if side == "w" else ("k", "RQ")
    for r, row in enumerate(rows):
        if king in row:
            f = row.index(king)
            for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, ff = r + dr, f + df
                while 0 <= rr < 8 and 0 <= ff < 8 and rows[rr][ff] == ".":
                    rr, ff = rr + dr, ff + df
                if 0 <= rr < 8 and 0 <= ff < 8 and rows[rr][ff] in enemies:
                    return True
    return False

def fail(board):
    how, _, where = os.environ.get("FAKE_FAIL", "").partition(":")
    if where != board:
        return
    once = os.environ.get("FAKE_FAIL_ONCE")
    if once:
        if os.path.exists(once):
            return
        open(once, "w").close()
    if how == "hang":
        time.sleep(3600)
    sys.exit(1)

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name FakeTeacher 1.5\nid author nobody\nuciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        fen = " ".join(words[2:])
    elif words[0] == "go":
        time.sleep(float(os.environ.get("FAKE_SLEEP", "0")))
        board = fen.split()[0]
        if board == "8/8/8/4k3/8/8/8/K7":
            print("bestmove a1a2", flush=True)
            continue
        if "Q" in board:
            print("info depth 3 score mate 2 pv a1a2", flush=True)
        else:
            score = sum(fen.encode()) % 401 - 200
            print(f"info depth 1 score cp {score + 7} lowerbound", flush=True)
            print(f"info depth 2 score cp {score} pv a1a2", flush=True)
        print("bestmove a1a2", flush=True)
    elif words[0] == "eval" and not os.environ.get("FAKE_NO_EVAL"):
        time.sleep(float(os.environ.get("FAKE_SLEEP", "0")))
        fail(fen.split()[0])
        print("info string NNUE evaluation using nn-fake.nnue enabled\n")
        if in_check(fen):
            print("Final evaluation: none (in check)", flush=True)
            continue
        white = int(hashlib.sha256(fen.encode()).hexdigest(), 16) % 1601 - 800
        print(" Contributing terms for the classical eval:")
        print("|   Material |  ----  ---- |  ----  ---- | -0.61 -0.69 |")
        print("|      Total |  ----  ---- |  ----  ---- |  0.37 -0.25 |\n")
        print(" NNUE network contributions (White to move)")
        print("|  7         |  +  0.53   |  +  0.13   |  +  0.67   | <-- this bucket is used\n\n")
        print("Classical evaluation   +9.99 (white side)")
        print(f"NNUE evaluation        {-white / 100:+.2f} (white side)")
        print(f"Final evaluation       {white / 100:+.2f} (white side)"
              " [with scaled NNUE, hybrid, ...]")
        print("", flush=True)
    elif words[0] == "quit":
        break
"""

# The positions of make_input the fake finds in check: its e2 rook attacks the e5 king.
IN_CHECK = "8/8/8/4k3/8/8/4R3/K7 b"


def fake_score(fen):
    """The fake engine's label of `fen`, White's view, as label.py writes it (None: no score)."""
    board, side = fen.split()[:2]
    if board == "8/8/8/4k3/8/8/8/K7":
        return None
    score = 3000 if "Q" in board else sum(fen.encode()) % 401 - 200
    return -score if side == "b" else score


def fake_static(fen):
    """The fake engine's `Final evaluation` of `fen` x 100 (White's view already; None: in
    check)."""
    if fen.startswith(IN_CHECK + " "):
        return None
    return int(hashlib.sha256(fen.encode()).hexdigest(), 16) % 1601 - 800


def make_input(path):
    """Four games of datagen lines with trailers; game 2 has a position without a score."""
    lines = []
    for g in range(4):
        n = 6 + g
        for i in range(n):
            side = "w" if i % 2 == 0 else "b"
            rank = 1 + (i + g) % 6
            board = f"8/8/8/4k3/8/8/{rank}R{7 - rank}/K7"
            if g == 1 and i == 3:
                board = "8/8/8/4k3/8/8/8/K7"
            if g == 3 and i == 0:
                board = "8/8/8/4k3/8/8/8/KQ6"
            lines.append(f"{board} {side} - - 0 {i + 1} | {10 * i} | 0.5\n")
        lines.append(f"# game seed=1 index={g} positions={n} plies={2 * n} end=draw-adj result=0.5\n")
    with open(path, "w") as f:
        f.writelines(lines)
    return lines


class LabelTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.engine = os.path.join(self.dir, "fake_engine.py")
        with open(self.engine, "w") as f:
            f.write(FAKE_ENGINE)
        self.input = os.path.join(self.dir, "positions-000.txt")
        self.lines = make_input(self.input)

    def tearDown(self):
        self.tmp.cleanup()

    def label(self, out, *extra, env=None, wait=True, limit=("--depth", "3")):
        command = [
            sys.executable, LABEL, "--engine", f"{sys.executable} {self.engine}",
            *limit, "--shard-size", "10", "--out-dir", out, *extra, self.input,
        ]
        environment = dict(os.environ, **(env or {}))
        if not wait:
            return subprocess.Popen(
                command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                start_new_session=True,
            )
        return subprocess.run(command, env=environment, capture_output=True, text=True, timeout=120)

    def shards(self, out):
        return sorted(n for n in os.listdir(out) if n.endswith(".txt"))

    def read(self, out, name):
        with open(os.path.join(out, name)) as f:
            return f.read()

    def test_a_whole_run_labels_every_position_and_writes_manifests(self):
        out = os.path.join(self.dir, "whole")
        run = self.label(out, "--jobs", "2")
        self.assertEqual(run.returncode, 0, run.stderr)
        # Games of 6..9 positions cut after the game reaching 10: 6+7, 8+9.
        self.assertEqual(self.shards(out), ["positions-000-000.txt", "positions-000-001.txt"])
        written = "".join(self.read(out, n) for n in self.shards(out)).splitlines(keepends=True)
        self.assertEqual(len(written), len(self.lines), "one output line per input line")
        for source, line in zip(self.lines, written):
            if source.startswith("#"):
                continue
            fen = source.split("|")[0].strip()
            expected = fake_score(fen)
            if expected is None:
                self.assertEqual(line, f"# unlabelled {fen}\n")
            else:
                self.assertEqual(line, f"{fen} | {expected} | 0.5\n")
        # The game with the unlabelled position claims one position fewer.
        trailers = [l for l in written if l.startswith("# game ")]
        self.assertIn("index=1 positions=6 ", trailers[1])
        self.assertIn("index=0 positions=6 ", trailers[0])
        for name in self.shards(out):
            with open(os.path.join(out, name[:-4] + ".json")) as f:
                manifest = json.load(f)
            with open(os.path.join(out, name), "rb") as f:
                self.assertEqual(manifest["sha256"], hashlib.sha256(f.read()).hexdigest())
            self.assertEqual(manifest["teacher"], "FakeTeacher 1.5")
            self.assertEqual((manifest["depth"], manifest["nodes"]), (3, None))
            self.assertEqual(manifest["go"], "go depth 3")
            self.assertIn("--shard-size 10", manifest["command"])
            self.assertEqual(manifest["input"], os.path.abspath(self.input))
        first = json.loads(self.read(out, "positions-000-000.json"))
        self.assertEqual(first["input_lines"], [0, 15])
        self.assertEqual((first["positions"], first["unlabelled"], first["mates"]), (12, 1, 0))
        second = json.loads(self.read(out, "positions-000-001.json"))
        self.assertEqual((second["positions"], second["mates"]), (17, 1))
        # A second run finds every shard done.
        again = self.label(out)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertIn("0 shards labelled", again.stderr)
        self.assertIn("2 already done", again.stderr)

    def test_a_killed_run_resumes_to_the_same_shards(self):
        self.check_resume(limit=("--depth", "3"))

    def check_resume(self, limit, extra=()):
        whole = os.path.join(self.dir, "whole")
        self.assertEqual(self.label(whole, limit=limit).returncode, 0)
        out = os.path.join(self.dir, "killed")
        run = self.label(out, *extra, env={"FAKE_SLEEP": "0.05"}, wait=False, limit=limit)
        second = os.path.join(out, "positions-000-001.txt")
        deadline = time.time() + 60
        # Kill (the script, its pool and the engines) once the second shard is under way.
        while time.time() < deadline:
            if os.path.exists(second) and os.path.getsize(second) > 0:
                break
            time.sleep(0.01)
        os.killpg(run.pid, signal.SIGKILL)
        run.wait()
        run.stdout.close()
        run.stderr.close()
        self.assertTrue(os.path.exists(os.path.join(out, "positions-000-000.json")))
        self.assertFalse(os.path.exists(os.path.join(out, "positions-000-001.json")))
        # A crash mid-write leaves a partial line too.
        with open(second, "a") as f:
            f.write("8/8/8/4k3/8/8/8/KR6 w - - 0 1 | 1")
        done = self.label(out, *extra, limit=limit)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("1 already done", done.stderr)
        self.assertEqual(self.shards(out), self.shards(whole))
        for name in self.shards(whole):
            self.assertEqual(self.read(out, name), self.read(whole, name), name)
            resumed = json.loads(self.read(out, name[:-4] + ".json"))
            uninterrupted = json.loads(self.read(whole, name[:-4] + ".json"))
            self.assertEqual(resumed["sha256"], uninterrupted["sha256"])
            self.assertEqual(resumed["positions"], uninterrupted["positions"])
            self.assertEqual(resumed["unlabelled"], uninterrupted["unlabelled"])
        resumed = json.loads(self.read(out, "positions-000-001.json"))
        self.assertGreater(resumed["resumed_after_lines"], 0)

    def static_run(self, out, *extra, env=None):
        """A --static run into `out` that must succeed; its shards' lines, joined."""
        run = self.label(out, *extra, env=env, limit=("--static",))
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertNotIn("Traceback", run.stderr)
        return "".join(self.read(out, n) for n in self.shards(out)).splitlines(keepends=True)

    def test_static_labels_are_the_final_evaluation(self):
        out = os.path.join(self.dir, "static")
        written = self.static_run(out, "--jobs", "2")
        self.assertEqual(len(written), len(self.lines), "one output line per input line")
        signs, in_check = set(), 0
        for source, line in zip(self.lines, written):
            if source.startswith("#"):
                continue
            fen = source.split("|")[0].strip()
            expected = fake_static(fen)
            if expected is None:
                in_check += 1
                self.assertEqual(line, f"# unlabelled {fen}\n")
            else:
                # White's view as printed, whoever is to move: no sign flip for Black.
                self.assertEqual(line, f"{fen} | {expected} | 0.5\n")
                signs.add((expected > 0, fen.split()[1]))
        # Both signs, with both sides to move; and the fixtures' three positions in check (games
        # 0 and 2), which are left unlabelled. Bare kings have a static evaluation.
        self.assertEqual(signs, {(True, "w"), (True, "b"), (False, "w"), (False, "b")})
        self.assertEqual(in_check, 3)
        trailers = [l for l in written if l.startswith("# game ")]
        self.assertIn("index=0 positions=5 ", trailers[0])
        self.assertIn("index=1 positions=7 ", trailers[1])
        self.assertIn("index=2 positions=6 ", trailers[2])
        self.assertIn("index=3 positions=9 ", trailers[3])
        for name in self.shards(out):
            manifest = json.loads(self.read(out, name[:-4] + ".json"))
            self.assertEqual(manifest["go"], "eval (static, Final evaluation)")
            self.assertIs(manifest["static"], True)
            self.assertEqual((manifest["depth"], manifest["nodes"]), (None, None))
            self.assertEqual((manifest["batch"], manifest["mates"]), (256, None))
            with open(os.path.join(out, name), "rb") as f:
                self.assertEqual(manifest["sha256"], hashlib.sha256(f.read()).hexdigest())
        first = json.loads(self.read(out, "positions-000-000.json"))
        self.assertEqual((first["positions"], first["unlabelled"]), (12, 1))
        # A search run's manifest says it is not static.
        search = os.path.join(self.dir, "search")
        self.assertEqual(self.label(search).returncode, 0)
        manifest = json.loads(self.read(search, "positions-000-000.json"))
        self.assertEqual((manifest["static"], manifest["batch"]), (False, None))

    def test_static_line_nnue_takes_the_network_line(self):
        # The fake prints `NNUE evaluation` as minus its final value: the labels must follow
        # the line asked for, and a position in check (no NNUE line) stays unlabelled.
        out = os.path.join(self.dir, "nnue")
        written = self.static_run(out, "--static-line", "nnue", "--batch", "3")
        final = self.static_run(os.path.join(self.dir, "final"), "--static-line", "final")
        self.assertEqual(final, self.static_run(os.path.join(self.dir, "default")))
        checked = 0
        for source, line in zip(self.lines, written):
            if source.startswith("#"):
                continue
            fen = source.split("|")[0].strip()
            expected = fake_static(fen)
            if expected is None:
                self.assertEqual(line, f"# unlabelled {fen}\n")
            else:
                self.assertEqual(line, f"{fen} | {-expected} | 0.5\n")
                checked += expected != 0
        self.assertGreater(checked, 20)
        manifest = json.loads(self.read(out, "positions-000-000.json"))
        self.assertEqual(manifest["go"], "eval (static, NNUE evaluation)")
        self.assertEqual((manifest["static"], manifest["static_line"]), (True, "nnue"))

    def test_static_batches_give_the_same_shards(self):
        one = self.static_run(os.path.join(self.dir, "one"), "--batch", "1")
        for extra in (["--batch", "3"], ["--batch", "4", "--jobs", "2"], ["--jobs", "2"]):
            out = os.path.join(self.dir, "batch" + "".join(extra))
            self.assertEqual(self.static_run(out, *extra), one, extra)

    def test_a_killed_static_run_resumes_to_the_same_shards(self):
        # Batches of two, so that the second shard is under way, not done, at the kill.
        self.check_resume(limit=("--static",), extra=("--batch", "2"))

    def test_a_silent_or_dead_static_engine_is_restarted(self):
        normal = self.static_run(os.path.join(self.dir, "normal"))
        queen = "8/8/8/4k3/8/8/8/KQ6"  # the first position of game 3, the only one on its board
        fast = {"LABEL_SILENCE_LIMIT": "1"}
        for how in ("hang", "die"):
            # Failing once: restarted, the position and the rest of its batch asked again.
            once = os.path.join(self.dir, how + "-once")
            env = dict(fast, FAKE_FAIL=f"{how}:{queen}", FAKE_FAIL_ONCE=once + ".flag")
            self.assertEqual(self.static_run(once, env=env), normal, how)
            self.assertTrue(os.path.exists(once + ".flag"), how)
            # Failing every time: that position only is left unlabelled.
            env = dict(fast, FAKE_FAIL=f"{how}:{queen}")
            always = self.static_run(os.path.join(self.dir, how), env=env)
            changed = [(a, b) for a, b in zip(normal, always) if a != b]
            self.assertEqual(len(changed), 2, how)
            self.assertTrue(changed[0][1].startswith(f"# unlabelled {queen} w "), how)
            self.assertEqual(changed[1][1], changed[1][0].replace(" positions=9 ", " positions=8 "))

    def test_bad_arguments_are_messages(self):
        out = os.path.join(self.dir, "bad")
        cases = [
            (["--depth", "0"], "must be positive"),
            (["--jobs", "0"], "must be positive"),
            (["--nodes", "100"], "not allowed with argument --depth"),
            (["--static"], "argument --static: not allowed with argument --depth"),
            (["--batch", "8"], "--batch goes with --static only"),
            (["--static-line", "nnue"], "--static-line goes with --static only"),
        ]
        for extra, message in cases:
            run = self.label(out, *extra)
            self.assertEqual(run.returncode, 2, extra)
            self.assertIn(message, run.stderr, extra)
            self.assertNotIn("Traceback", run.stderr, extra)
        for limit, message in [
            ((), "one of the arguments --depth --nodes --static is required"),
            (("--static", "--batch", "0"), "--batch must be positive"),
        ]:
            run = self.label(out, limit=limit)
            self.assertEqual(run.returncode, 2, limit)
            self.assertIn(message, run.stderr, limit)
        # An engine without `eval` is refused before any shard is started.
        no_eval = self.label(out, env={"FAKE_NO_EVAL": "1"}, limit=("--static",))
        self.assertEqual(no_eval.returncode, 1)
        self.assertIn("does not answer `eval`", no_eval.stderr)
        self.assertNotIn("Traceback", no_eval.stderr)
        self.assertFalse(os.path.exists(os.path.join(out, "positions-000-000.txt")))
        missing = subprocess.run(
            [sys.executable, LABEL, "--engine", "x", "--nodes", "5", "--out-dir", out, "nothere"],
            capture_output=True, text=True, timeout=60,
        )
        self.assertNotEqual(missing.returncode, 0)
        self.assertIn("nothere: no such file or directory", missing.stderr)
        dead = subprocess.run(
            [sys.executable, LABEL, "--engine", "/nonexistent/engine", "--nodes", "5",
             "--out-dir", out, self.input],
            capture_output=True, text=True, timeout=60,
        )
        self.assertNotEqual(dead.returncode, 0)
        self.assertIn("does not answer `uci`", dead.stderr)
        self.assertNotIn("Traceback", missing.stderr + dead.stderr)


if __name__ == "__main__":
    unittest.main()
