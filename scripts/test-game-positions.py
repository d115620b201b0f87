#!/usr/bin/env python3
"""Tests of scripts/game-positions.py on small hand-made PGN games (needs python-chess).

The games hold each kind of position the rule must drop (a capture, a promotion, a check, a
mate score, an early ply), a game repeated (its positions are written once), a game without a
result and a held-out game; the tests check each line written against the rule by replaying
the games, and the trailers against the lines.

    python3 scripts/test-game-positions.py
"""

import io
import os
import subprocess
import sys
import tempfile
import unittest

import chess
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "game-positions.py")

# A Ruy Lopez exchange: captures (4. Bxc6, 4... dxc6, 6... exd4, 7. Nxd4, 8... Qxd1+, 9. Kxd1),
# a check (8... Qxd1+ gives one), and a mate score on 13. a4.
RUY = """[Event "t"]
[Round "1"]
[White "a"]
[Black "b"]
[Result "1-0"]

1. e4 {+0.30/10} e5 {-0.20/10} 2. Nf3 {+0.25/10} Nc6 {-0.21/10} 3. Bb5 {+0.33/10}
a6 {-0.22/10} 4. Bxc6 {+0.31/10} dxc6 {-0.24/10} 5. O-O {+0.35/10} f6 {-0.25/10}
6. d4 {+0.36/10} exd4 {-0.16/10} 7. Nxd4 {+0.41/10} c5 {-0.17/10} 8. Nb3 {+0.32/10}
Qxd1 {-0.18/10} 9. Rxd1 {+0.34/10} Bg4 {-0.19/10} 10. f3 {+0.27/10} Be6 {-0.23/10}
11. Nc3 {+0.38/10} Bd6 {-0.26/10} 12. Be3 {+0.39/10} b6 {-0.28/10} 13. a4 {+M3/10}
Kf7 {-0.35/10} 14. Nd5 {+1.20/10} Re8 {-1.10/10} 1-0
"""

# A pawn race to a promotion, with a check: 10. h8=Q promotes, 10... Kb2 answers no check but
# 11. Qh2+ gives one (the position after it is in check).
RACE = """[Event "t"]
[Round "2"]
[White "b"]
[Black "a"]
[Result "0-1"]
[FEN "4k3/7P/8/8/8/8/p7/4K3 w - - 0 9"]
[SetUp "1"]

9. Kd2 {+0.10/5} Kf7 {-0.50/5} 10. h8=Q {+0.20/5} a1=Q {-0.30/5} 11. Qh5+ {+0.15/5}
Kg7 {-0.20/5} 12. Qg4+ {+0.10/5} Kh7 {-0.10/5} 13. Qf5+ {+0.10/5} Kg8 {-0.10/5} 0-1
"""

UNFINISHED = """[Event "t"]
[Round "3"]
[White "a"]
[Black "b"]
[Result "*"]

1. d4 {+0.20/10} d5 {-0.20/10} 2. c4 {+0.20/10} e6 {-0.20/10} 3. Nc3 {+0.20/10}
Nf6 {-0.20/10} 4. Bg5 {+0.20/10} Be7 {-0.20/10} 5. e3 {+0.20/10} O-O {-0.20/10}
6. Nf3 {+0.20/10} h6 {-0.20/10} 7. Bh4 {+0.20/10} b6 {-0.20/10} *
"""

HELD_OUT = """[Event "t"]
[Round "4"]
[White "a"]
[Black "b"]
[Result "1/2-1/2"]

1. e4 {+0.30/10} c5 {-0.20/10} 2. Nf3 {+0.25/10} d6 {-0.21/10} 3. d3 {+0.33/10}
Nf6 {-0.22/10} 4. g3 {+0.31/10} g6 {-0.24/10} 5. Bg2 {+0.35/10} Bg7 {-0.25/10}
6. O-O {+0.36/10} O-O {-0.16/10} 7. c3 {+0.41/10} Nc6 {-0.17/10} 8. Re1 {+0.32/10}
e5 {-0.18/10} 1/2-1/2
"""


def games(text):
    handle = io.StringIO(text)
    found = []
    while (game := chess.pgn.read_game(handle)) is not None:
        found.append(game)
    return found


def played_from(text):
    """{position key: (move played from it, mover's comment)} of every game of `text`."""
    table = {}
    for game in games(text):
        board = game.board()
        for node in game.mainline():
            table.setdefault(" ".join(board.fen().split()[:4]), (board.copy(), node.move, node.comment))
            board.push(node.move)
    return table


class GamePositions(unittest.TestCase):
    def run_script(self, pgn_text, *extra, exclude_text=None):
        with tempfile.TemporaryDirectory() as tmp:
            pgn = os.path.join(tmp, "in.pgn")
            with open(pgn, "w") as f:
                f.write(pgn_text)
            args = [sys.executable, SCRIPT, pgn, "--out", os.path.join(tmp, "out.txt"), *extra]
            if exclude_text is not None:
                held = os.path.join(tmp, "held.pgn")
                with open(held, "w") as f:
                    f.write(exclude_text)
                args += ["--exclude", held]
            proc = subprocess.run(args, capture_output=True, text=True)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(os.path.join(tmp, "out.txt")) as f:
                return f.read().splitlines(), proc.stderr

    def test_every_line_obeys_the_rule(self):
        text = RUY + "\n" + RACE
        lines, _ = self.run_script(text, "--per-game", "0", "--min-ply", "12")
        table = played_from(text)
        positions = [line for line in lines if not line.startswith("#")]
        self.assertGreater(len(positions), 5)
        for line in positions:
            fen, score, result = (part.strip() for part in line.split("|"))
            board, move, comment = table[" ".join(fen.split()[:4])]
            self.assertFalse(board.is_check(), fen)
            self.assertFalse(board.is_capture(move), fen)
            self.assertIsNone(move.promotion, fen)
            self.assertNotIn("M", comment.split("/")[0], fen)
            self.assertGreaterEqual(board.ply(), 12, fen)
            # The mover's score, turned to White's view.
            pawns = float(comment.split("/")[0])
            self.assertEqual(int(score), round(pawns * 100) * (1 if board.turn == chess.WHITE else -1), fen)
            self.assertIn(result, ("1.0", "0.0"))
        # Every quiet position of the Ruy Lopez from ply 12 on is there: 6. d4 (ply 10) is not,
        # 7... c5 (ply 13) is, 13. a4 (a mate score) is not.
        keys = {" ".join(line.split("|")[0].split()[:4]) for line in positions}
        for fen_moves, present in ((["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O", "f6"], False),
                                   (["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O", "f6",
                                     "d4", "exd4", "Nxd4"], True)):
            board = chess.Board()
            for san in fen_moves:
                board.push_san(san)
            self.assertEqual(" ".join(board.fen().split()[:4]) in keys, present, board.fen())

    def test_trailers_claim_their_lines_and_the_cap_holds(self):
        lines, _ = self.run_script(RUY + "\n" + RACE, "--per-game", "3", "--min-ply", "0", "--seed", "5")
        claimed, pending, trailers = 0, 0, 0
        for line in lines:
            if line.startswith("# game "):
                fields = dict(w.split("=", 1) for w in line[len("# game "):].split())
                self.assertEqual(int(fields["positions"]), pending)
                self.assertLessEqual(pending, 3)
                self.assertEqual(fields["seed"], "5")
                claimed += pending
                pending = 0
                trailers += 1
            else:
                pending += 1
        self.assertEqual(pending, 0)
        self.assertEqual(trailers, 2)
        self.assertEqual(claimed, 6)
        # The same seed chooses the same positions; another seed, other ones.
        again, _ = self.run_script(RUY + "\n" + RACE, "--per-game", "3", "--min-ply", "0", "--seed", "5")
        self.assertEqual(again, lines)
        other, _ = self.run_script(RUY + "\n" + RACE, "--per-game", "3", "--min-ply", "0", "--seed", "6")
        self.assertNotEqual([l for l in other if not l.startswith("#")],
                            [l for l in lines if not l.startswith("#")])

    def test_repeats_unfinished_and_held_out_games_give_nothing(self):
        text = RUY + "\n" + RUY.replace('[Round "1"]', '[Round "9"]') + "\n" + UNFINISHED + "\n" + HELD_OUT
        lines, stderr = self.run_script(text, "--per-game", "0", "--min-ply", "0", exclude_text=HELD_OUT)
        trailers = [line for line in lines if line.startswith("# game ")]
        # The unfinished game is skipped; the repeat and the held-out game write no position.
        self.assertEqual(len(trailers), 3)
        self.assertIn("round=9", trailers[1])
        self.assertIn("positions=0", trailers[1])
        self.assertIn("positions=0", trailers[2])
        self.assertNotIn("positions=0", trailers[0])
        self.assertIn("1 games skipped", stderr)
        fens = [line.split("|")[0].strip() for line in lines if not line.startswith("#")]
        self.assertEqual(len(fens), len({" ".join(f.split()[:4]) for f in fens}))

    def test_bad_input_is_an_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            proc = subprocess.run([sys.executable, SCRIPT, os.path.join(tmp, "missing.pgn"),
                                   "--out", os.path.join(tmp, "out.txt")], capture_output=True, text=True)
            self.assertEqual(proc.returncode, 2)
            self.assertIn("cannot read", proc.stderr)


if __name__ == "__main__":
    unittest.main()
