#!/usr/bin/env python3
"""Tests of scripts/miss-rules.py with fake engines: a fake tuning build that plays the right
move only when SEE pruning is weakened must be found out by that rule alone; a build without
the options is refused with a message.

    python3 scripts/test-miss-rules.py
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import chess

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "miss-rules.py")
sys.path.insert(0, HERE)

FAKE = r'''
import json, os, sys
import chess
ROLE = sys.argv[1]
TABLE = json.load(open(os.environ["FAKE_TABLE"]))
OPTIONS = TABLE["options"] if ROLE == "ours" else []
board, values = chess.Board(), {}
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == "uci":
        print("id name fake")
        for name in OPTIONS + ["Hash"]:
            print(f"option name {name} type spin default 50 min 0 max 100000")
        print("uciok", flush=True)
    elif w[0] == "isready":
        print("readyok", flush=True)
    elif w[0] == "setoption":
        values[w[2]] = w[4]
    elif w[0] == "position":
        board = chess.Board(" ".join(w[2:8])) if w[1] == "fen" else chess.Board()
        if "moves" in w:
            for m in w[w.index("moves") + 1:]:
                board.push_uci(m)
    elif w[0] == "go":
        if ROLE == "oracle":
            # The side to move's value from the table (after the bad move: Black +250).
            value = TABLE["after"].get(" ".join(board.fen().split()[:4]), 0)
            print(f"info depth 10 score cp {value} pv {sorted(m.uci() for m in board.legal_moves)[0]}")
            print("bestmove " + sorted(m.uci() for m in board.legal_moves)[0], flush=True)
        else:
            move = TABLE["good"] if values.get("see_prune_depth") == "1" else TABLE["bad"]
            print(f"info depth 10 score cp 0 pv {move}")
            print("bestmove " + move, flush=True)
    elif w[0] == "quit":
        break
'''


class MissRules(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.tmp.name
        self.fake = os.path.join(d, "fake.py")
        with open(self.fake, "w") as f:
            f.write(FAKE)
        board = chess.Board()
        bad, good = chess.Move.from_uci("f2f3"), chess.Move.from_uci("e2e4")
        after_bad, after_good = board.copy(), board.copy()
        after_bad.push(bad)
        after_good.push(good)
        key = lambda b: " ".join(b.fen().split()[:4])  # noqa: E731
        import importlib.util
        spec = importlib.util.spec_from_file_location("miss_rules", SCRIPT)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        options = sorted({o for opts in module.RULES.values() for o in opts if o != "Hash"})
        self.table = os.path.join(d, "table.json")
        with open(self.table, "w") as f:
            json.dump({"options": options, "bad": "f2f3", "good": "e2e4",
                       "after": {key(after_bad): 250, key(after_good): -20}}, f)
        self.analysis = os.path.join(d, "loss.json")
        mistake = {"fen": board.fen(), "move": "f2f3", "kind": "search", "budget": 1000, "oracle_before": 20}
        judgement = dict(mistake, kind="judgement")
        with open(self.analysis, "w") as f:
            json.dump({"games": [{"mistakes": [mistake, judgement]}]}, f)

    def tearDown(self):
        self.tmp.cleanup()

    def run_script(self, ours_role="ours", *extra):
        py = sys.executable
        env = dict(os.environ, FAKE_TABLE=self.table)
        return subprocess.run([py, SCRIPT, "--analysis", self.analysis, "--ours", f"{py} {self.fake} {ours_role}",
                               "--oracle", f"{py} {self.fake} oracle", "--oracle-nodes", "100", *extra],
                              capture_output=True, text=True, env=env, timeout=120)

    def test_finds_the_rule(self):
        out = os.path.join(self.tmp.name, "rules.json")
        r = self.run_script("ours", "--json", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            results = json.load(f)
        self.assertEqual(results["SEE pruning"]["avoided"], 1)
        self.assertEqual(results["SEE pruning"]["misses"], 1, "judgement mistakes are not search misses")
        self.assertEqual(results["SEE pruning"]["moves"][0]["drop"], 0)
        for rule, result in results.items():
            if rule != "SEE pruning":
                self.assertEqual(result["avoided"], 0, rule)
        self.assertIn("| SEE pruning | 1 of 1 |", r.stdout)
        self.assertIn("| defaults | 0 of 1 |", r.stdout)

    def test_needs_a_tuning_build(self):
        r = self.run_script("plain")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("tuning build", r.stderr)
        self.assertNotIn("Traceback", r.stderr)


if __name__ == "__main__":
    unittest.main()
