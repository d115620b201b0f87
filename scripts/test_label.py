#!/usr/bin/env python3
"""Tests of scripts/label.py that need no teacher installed: a fake UCI engine (written to a
temporary directory) answers every `go` with a score computed from the FEN, so the expected
labels are known. Covers a whole run, a run killed midway and restarted (the same shards, byte
for byte), the manifests and their sha256, positions left unlabelled, and bad arguments.

    python3 scripts/test_label.py
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
# all for bare kings, a mate score for positions with a white queen; FAKE_SLEEP slows each `go`.
FAKE_ENGINE = r'''
import os, sys, time
fen = ""
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
    elif words[0] == "quit":
        break
'''


def fake_score(fen):
    """The fake engine's label of `fen`, White's view, as label.py writes it (None: no score)."""
    board, side = fen.split()[:2]
    if board == "8/8/8/4k3/8/8/8/K7":
        return None
    score = 3000 if "Q" in board else sum(fen.encode()) % 401 - 200
    return -score if side == "b" else score


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

    def label(self, out, *extra, env=None, wait=True):
        command = [
            sys.executable, LABEL, "--engine", f"{sys.executable} {self.engine}",
            "--depth", "3", "--shard-size", "10", "--out-dir", out, *extra, self.input,
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
        whole = os.path.join(self.dir, "whole")
        self.assertEqual(self.label(whole).returncode, 0)
        out = os.path.join(self.dir, "killed")
        run = self.label(out, env={"FAKE_SLEEP": "0.05"}, wait=False)
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
        done = self.label(out)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("1 already done", done.stderr)
        self.assertEqual(self.shards(out), self.shards(whole))
        for name in self.shards(whole):
            self.assertEqual(self.read(out, name), self.read(whole, name), name)
            resumed = json.loads(self.read(out, name[:-4] + ".json"))
            uninterrupted = json.loads(self.read(whole, name[:-4] + ".json"))
            self.assertEqual(resumed["sha256"], uninterrupted["sha256"])
            self.assertEqual(resumed["positions"], uninterrupted["positions"])
        resumed = json.loads(self.read(out, "positions-000-001.json"))
        self.assertGreater(resumed["resumed_after_lines"], 0)

    def test_bad_arguments_are_messages(self):
        out = os.path.join(self.dir, "bad")
        cases = [
            (["--depth", "0"], "must be positive"),
            (["--jobs", "0"], "must be positive"),
            (["--nodes", "100"], "not allowed with argument --depth"),
        ]
        for extra, message in cases:
            run = self.label(out, *extra)
            self.assertEqual(run.returncode, 2, extra)
            self.assertIn(message, run.stderr, extra)
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
