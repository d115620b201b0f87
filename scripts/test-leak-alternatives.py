#!/usr/bin/env python3
"""Tests of scripts/leak-alternatives.py with the fake engine of test-value-leak.py.

The fake engine (oracle, "Stockfish classical" and "ours" alike) values each position from a
JSON table, plays the first legal move in UCI order, and scores a `searchmoves` move by the
position after it. A game is priced by value-leak.py, then examined: only our quiet moves from
level positions that lost enough are taken; the classical move's loss, our replay and our
search's scores of both moves must be the table's; bad input gets a message, not a traceback.

    python3 scripts/test-leak-alternatives.py
"""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

import chess
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "leak-alternatives.py")
LEAK = os.path.join(HERE, "value-leak.py")
_spec = importlib.util.spec_from_file_location("test_value_leak", os.path.join(HERE, "test-value-leak.py"))
fixture = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fixture)


class LeakAlternatives(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.fake = os.path.join(self.dir, "fake.py")
        with open(self.fake, "w") as f:
            f.write(fixture.FAKE)
        self.engine = f"{sys.executable} {self.fake}"

    def run_tool(self, script, args, table):
        path = os.path.join(self.dir, "table.json")
        with open(path, "w") as f:
            json.dump(table, f)
        env = dict(os.environ, FAKE_TABLE=path)
        return subprocess.run([sys.executable, script] + args, capture_output=True, text=True, env=env)

    def game(self):
        # Ours is White: 1. h3 (from level, -60 after it: a leak) e5 2. a3 (-65 after: too small).
        # The fake's own move at the start is a2a3 (first in UCI order), -10 after it.
        moves = ["h2h3", "e7e5", "a2a3"]
        table, board = {}, chess.Board()
        for move, value in zip(moves, [0, -60, -60]):
            table[fixture.key(board)] = value
            board.push_uci(move)
        table[fixture.key(board)] = -65
        start = chess.Board()
        start.push_uci("a2a3")
        table[fixture.key(start)] = -10
        game = chess.pgn.Game()
        game.headers.update({"White": "minkowski", "Black": "sf", "Result": "*"})
        node = game
        for move in moves:
            node = node.add_variation(chess.Move.from_uci(move))
            node.comment = "+0.10/12 0.1s"
        pgn = os.path.join(self.dir, "g.pgn")
        with open(pgn, "w") as f:
            print(game, file=f)
        return pgn, table

    def test_the_classical_move_and_our_scores_of_both(self):
        pgn, table = self.game()
        priced = os.path.join(self.dir, "leak.json")
        out = self.run_tool(LEAK, ["--pgn", pgn, "--player", "minkowski", "--oracle", self.engine,
                                   "--oracle-nodes", "10", "--json", priced], table)
        self.assertEqual(out.returncode, 0, out.stderr)
        alt = os.path.join(self.dir, "alt.json")
        out = self.run_tool(SCRIPT, ["--leak", priced, "--pgn", pgn, "--player", "minkowski",
                                     "--ours", self.engine, "--classical", self.engine, "--oracle", self.engine,
                                     "--nodes", "10", "--oracle-nodes", "10", "--trace", "--json", alt], table)
        self.assertEqual(out.returncode, 0, out.stderr)
        with open(alt) as f:
            result = json.load(f)
        rows, summary = result["positions"], result["summary"]
        self.assertEqual(len(rows), 1, "only h3: a3's loss is under --min-drop, e5 is theirs")
        row = rows[0]
        self.assertEqual((row["played"], row["classical"], row["replay"]), ("h2h3", "a2a3", "a2a3"))
        self.assertAlmostEqual(row["drop"], fixture.expected(0) - fixture.expected(-60), places=6)
        self.assertAlmostEqual(row["classical_drop"], fixture.expected(0) - fixture.expected(-10), places=6)
        self.assertEqual((row["our_score_played"], row["our_score_classical"]), (-60, -10))
        self.assertEqual((summary["classical_better"], summary["replay_same"]), (1, 0))
        self.assertAlmostEqual(summary["our_gap_where_better"], 50.0)
        # The fake's trace after 1. a3 and after 1. h3 is the same (it depends on the move number).
        self.assertEqual(summary["family_gap_where_better"], {"Family A": 0.0, "Family B": 0.0})
        self.assertIn("1 of 1", out.stdout)

    def test_bad_input_gets_a_message(self):
        pgn, table = self.game()
        common = ["--pgn", pgn, "--player", "minkowski", "--ours", self.engine]
        out = self.run_tool(SCRIPT, ["--leak", os.path.join(self.dir, "missing.json")] + common, table)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("leak-alternatives.py:", out.stderr)
        self.assertNotIn("Traceback", out.stderr)
        wrong = os.path.join(self.dir, "wrong.json")
        with open(wrong, "w") as f:
            json.dump({"games": [{"index": 5, "moves": []}]}, f)
        out = self.run_tool(SCRIPT, ["--leak", wrong] + common, table)
        self.assertIn("the PGNs hold 1", out.stderr)
        self.assertNotIn("Traceback", out.stderr)
        out = self.run_tool(SCRIPT, ["--leak", wrong, "--nodes", "0"] + common, table)
        self.assertEqual(out.returncode, 2)


if __name__ == "__main__":
    unittest.main()
