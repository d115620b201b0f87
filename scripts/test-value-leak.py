#!/usr/bin/env python3
"""Tests of scripts/value-leak.py with a fake oracle whose values are known.

The fake oracle (a small UCI program) reads each position's value, White's view, from a JSON
table keyed by the FEN's first four fields. A short game priced by it must give each move the
fall of the mover's expected score the table implies, by side, phase and step size; the losses
of both sides must add up to the fall from the first position to the last; book moves (no
engine comment) are not priced; a finished game's mate is valued without the oracle; bad input
gets a message, not a traceback.

    python3 scripts/test-value-leak.py
"""

import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

import chess
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "value-leak.py")

FAKE = r'''
import json, os, sys
import chess
TABLE = json.load(open(os.environ["FAKE_TABLE"]))
if len(sys.argv) > 2 and sys.argv[1] == "eval":
    # Our fake trace: family A grows with the move number, B cycles; the static value
    # (White's view) is 0.5 A + 3, printed from the side to move's view as the engine does.
    board = chess.Board(" ".join(sys.argv[2:]))
    a, b = 10 * board.fullmove_number, 7 * (board.fullmove_number % 3)
    for name, v in (("Family A", a), ("Family B", b)):
        print(f"{name:<16}|  {0:5d}  {0:5d} |  {0:5d}  {0:5d} |  {v:5d}  {v:5d}")
    print("Phase: 24 / 24")
    white = round(0.5 * a + 3)
    print(f"Total: {white if board.turn == chess.WHITE else -white} cp (side to move)")
    sys.exit(0)

board = chess.Board()
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name fake-oracle"); print("option name Use NNUE type check default true")
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        if words[1] == "startpos":
            board = chess.Board(); rest = words[2:]
        else:
            board = chess.Board(" ".join(words[2:8])); rest = words[8:]
        if rest and rest[0] == "moves":
            for m in rest[1:]:
                board.push_uci(m)
    elif words[0] == "go":
        white = TABLE.get(" ".join(board.fen().split()[:4]), 0)
        value = white if board.turn == chess.WHITE else -white
        move = sorted(m.uci() for m in board.legal_moves)[0]
        if "searchmoves" in words:  # the position after the one move, the mover's view
            move = words[words.index("searchmoves") + 1]
            after = board.copy(); after.push_uci(move)
            white = TABLE.get(" ".join(after.fen().split()[:4]), 0)
            value = white if board.turn == chess.WHITE else -white
        print(f"info depth 5 score cp {value} nodes 10 pv {move}")
        print(f"bestmove {move}", flush=True)
    elif words[0] == "eval":
        # As Stockfish's classical `eval`: White's view in pawns, here a tenth of family A.
        print(f"Final evaluation       {board.fullmove_number:+.2f} (white side)", flush=True)
    elif words[0] == "quit":
        break
'''

K = 0.00368208


def expected(cp):
    return 1 / (1 + math.exp(-K * cp))


def key(board):
    return " ".join(board.fen().split()[:4])


class ValueLeak(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.fake = os.path.join(self.dir, "fake.py")
        with open(self.fake, "w") as f:
            f.write(FAKE)

    def run_script(self, args, table):
        path = os.path.join(self.dir, "table.json")
        with open(path, "w") as f:
            json.dump(table, f)
        env = dict(os.environ, FAKE_TABLE=path)
        return subprocess.run([sys.executable, SCRIPT] + args, capture_output=True, text=True, env=env)

    def write_game(self, moves, comments, white="minkowski", black="sf", result="0-1"):
        game = chess.pgn.Game()
        game.headers.update({"White": white, "Black": black, "Result": result})
        node = game
        for move, comment in zip(moves, comments):
            node = node.add_variation(chess.Move.from_uci(move))
            node.comment = comment
        path = os.path.join(self.dir, f"g{len(os.listdir(self.dir))}.pgn")
        with open(path, "w") as f:
            print(game, file=f)
        return path

    def test_prices_each_move_and_the_sum_telescopes(self):
        # Fool's mate: 1. f3 (book) e5 2. g4 Qh4#. White is ours; the table's values (White's
        # view) make f3 free (book), e5 a small gain for Black, g4 a large loss for White.
        moves = ["f2f3", "e7e5", "g2g4", "d8h4"]
        comments = ["book", "+0.10/12 0.1s", "-0.50/13 0.1s", "+M1/1 0.0s"]
        board, table, positions = chess.Board(), {}, []
        values = [20, 0, -30, -400]  # before f3, before e5, before g4, before Qh4
        for move, value in zip(moves, values):
            table[key(board)] = value
            positions.append(board.copy())
            board.push_uci(move)
        pgn = self.write_game(moves, comments)
        out = os.path.join(self.dir, "leak.json")
        r = self.run_script(["--pgn", pgn, "--player", "minkowski", "--oracle",
                             f"{sys.executable} {self.fake}", "--oracle-nodes", "10", "--json", out], table)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            data = json.load(f)
        priced = data["games"][0]["moves"]
        self.assertEqual([m["ply"] for m in priced], [1, 2, 3])  # f3 is a book move
        e5, g4, qh4 = priced
        self.assertEqual((e5["side"], e5["before"], e5["after"]), ("theirs", 0, 30))
        self.assertAlmostEqual(e5["drop"], expected(0) - expected(30))  # negative: a gain
        self.assertEqual((g4["side"], g4["before"], g4["after"]), ("ours", -30, -400))
        self.assertEqual((qh4["side"], qh4["after"]), ("theirs", 3000))  # mate, not asked
        self.assertTrue(all(m["phase"] == "opening" for m in priced))
        # White's signed losses minus Black's = E(first priced, White) - E(last, White).
        signed = sum(m["drop"] if m["side"] == "ours" else -m["drop"] for m in priced)
        self.assertAlmostEqual(signed, expected(0) - expected(-3000))
        s = data["summary"]
        self.assertEqual(s["games"], 1)
        self.assertEqual(s["score"], 0.0)
        self.assertAlmostEqual(s["lost_per_game"]["ours"]["opening"], expected(-30) - expected(-400))
        # Black's e5 and the mate both raised Black's expected score.
        self.assertAlmostEqual(s["gained_per_game"]["theirs"],
                               expected(30) - expected(0) + expected(3000) - expected(400))
        # Only e5 is undecided after the move: Black claimed +10, the oracle says +30.
        self.assertEqual(s["bias"]["theirs"]["opening"], {"moves": 1, "mean": -20.0, "mean_abs": 20.0})
        self.assertEqual(s["bias"]["ours"]["opening"]["moves"], 0)
        kinds = {(k["kind"], k["middlegame"]): k for k in s["kinds"]}
        # Only moves from level positions (|before| <= 100): not the mate, played at +400.
        self.assertEqual(set(kinds), {("pawn push", False)})
        self.assertEqual(kinds[("pawn push", False)]["moves"], {"ours": 1, "theirs": 1})
        self.assertAlmostEqual(kinds[("pawn push", False)]["lost_per_game"]["ours"],
                               expected(-30) - expected(-400))
        self.assertEqual(kinds[("pawn push", False)]["lost_per_game"]["theirs"], 0.0)  # e5 gained
        big = [b for b in s["steps"]["ours"] if b["moves"]]
        self.assertEqual([b["step"] for b in big], [">= 0.20"])
        self.assertIn("| **all** |", r.stdout)
        # --summarise of the same file twice: the same per-game figures over two games.
        r2 = self.run_script(["--summarise", out, out], {})
        self.assertEqual(r2.returncode, 0, r2.stderr)
        self.assertIn("2 games; our score 0.0%", r2.stdout)

    def test_family_fit_recovers_an_overrated_family(self):
        # Knights out and back: every position after our (White's) move is quiet and the
        # oracle calls it 0, so our static error is 0.5 A + 3: the fit must say so.
        moves = ["g1f3", "g8f6", "f3g1", "f6g8"] * 6
        comments = ["+0.10/10 0.1s"] * len(moves)
        pgn = self.write_game(moves, comments, result="1/2-1/2")
        fake = f"{sys.executable} {self.fake}"
        r = self.run_script(["--pgn", pgn, "--player", "minkowski", "--oracle", fake, "--trace", fake,
                             "--classical", fake, "--oracle-nodes", "10", "--json", os.path.join(self.dir, "f.json")], {})
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(self.dir, "f.json")) as f:
            fit = json.load(f)["summary"]["family_fit"]
        self.assertEqual(fit["positions"], 24)  # after both sides' moves
        by = {x["family"]: x for x in fit["families"]}
        self.assertAlmostEqual(by["Family A"]["coefficient"], 0.5, delta=0.01)
        self.assertAlmostEqual(by["Family B"]["coefficient"], 0.0, delta=0.05)
        self.assertAlmostEqual(fit["intercept"], 3.0, delta=1.0)
        self.assertIn("| Family A |", r.stdout)
        # Our evaluation in our favour after both sides' moves (White's moves at move numbers
        # 1-12, Black's leave 2-13 on the board): 0.5 * 10 * mean + 3.
        with open(os.path.join(self.dir, "f.json")) as f:
            favour = json.load(f)["summary"]["in_our_favour"]
        # The fake classical evaluation is the move number in pawns: 100 * mean.
        self.assertEqual(favour["ours"], {"positions": 12, "mean": 35.5, "oracle": 0.0, "classical_mean": 650.0})
        self.assertEqual(favour["theirs"], {"positions": 12, "mean": 40.5, "oracle": 0.0, "classical_mean": 750.0})
        self.assertIn("| after their moves | 12 | +0.0 | +40.5 | +750.0 |", r.stdout)

    def test_bad_input(self):
        pgn = self.write_game(["e2e4"], ["+0.20/10 0.1s"], white="a", black="b", result="*")
        r = self.run_script(["--pgn", pgn, "--player", "minkowski", "--oracle",
                             f"{sys.executable} {self.fake}"], {})
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("names neither or both", r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        r = self.run_script(["--pgn", os.path.join(self.dir, "missing.pgn"), "--player", "x"], {})
        self.assertNotEqual(r.returncode, 0)
        self.assertNotIn("Traceback", r.stderr)
        r = self.run_script(["--pgn", pgn], {})
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("--player", r.stderr)
        r = self.run_script(["--pgn", pgn, "--player", "a", "--classical", "stockfish"], {})
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("--trace", r.stderr)


if __name__ == "__main__":
    unittest.main()
