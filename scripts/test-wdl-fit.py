#!/usr/bin/env python3
"""Tests of scripts/wdl-fit.py: reading scores, results and material from PGNs the way
cutechess-cli writes them, the weighting by opening, and the fit itself on synthetic games whose
true model is known (it must find that model again, and predict held-out games as well as the
truth does). Standard library and python-chess only; a few seconds.

    python3 scripts/test-wdl-fit.py
"""

import importlib.util
import io
import os
import random
import subprocess
import sys
import tempfile
import unittest

import chess
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "wdl-fit.py")
spec = importlib.util.spec_from_file_location("wdl_fit", SCRIPT)
wdl_fit = importlib.util.module_from_spec(spec)
sys.modules["wdl_fit"] = wdl_fit  # dataclasses look their module up by name
spec.loader.exec_module(wdl_fit)

# The model the synthetic games are drawn from: a and b rise with the material, as in real
# games, but with every coefficient of both cubics in use.
TRUTH = wdl_fit.Model([-100.0, 250.0, 0.0, 80.0], [40.0, -60.0, 90.0, 30.0])

# Two games by hand: Minkowski is Black in the first (and wins), White in the second (a draw);
# their comments are cutechess-cli's, with and without spaces, mates and book moves.
HAND_PGN = """[White "Ethereal 12"]
[Black "Minkowski 0.2.0"]
[Result "0-1"]
[FEN "4k3/8/8/8/8/8/4P3/4K2R w K - 0 9"]
[SetUp "1"]

9. Rh8+ {+0.50/10 0.1s} 9... Kd7 { -1.25/12 0.2s } 10. Rh7+ {book} 10... Kd6 {-M5/20 0.1s}
11. e4 {+0.10/9 0.1s} 11... Ke5 {+3.10/11 0.1s, White loses on time} 0-1

[White "Minkowski 0.2.0"]
[Black "Ethereal 12"]
[Result "1/2-1/2"]

1. e4 {+0.30/10 0.1s} e5 {-0.20/10 0.1s} 2. Nf3 {+0.25/11 0.1s} Nc6 {-0.20/10 0.1s} 1/2-1/2
"""


def synthetic_games(n, seed, model=TRUTH):
    """``n`` one-move games from positions of every material: the start position with each
    piece but the kings taken off with a chance of its own, Minkowski to move at move 20 with a
    score drawn from -500..500 cp, the result drawn from ``model``. Each game its own opening."""
    rng = random.Random(seed)
    out = io.StringIO()
    made = 0
    while made < n:
        board = chess.Board()
        keep = rng.random()
        for square, piece in list(board.piece_map().items()):
            if piece.piece_type != chess.KING and rng.random() > keep:
                board.remove_piece_at(square)
        board.turn = rng.choice(chess.COLORS)
        board.castling_rights = chess.BB_EMPTY
        board.fullmove_number = 20
        if not board.is_valid() or board.is_game_over():
            continue
        score = rng.uniform(-500.0, 500.0)
        win, draw, _ = model.chances(score, wdl_fit.material(board))
        r = rng.random()
        mover_result = "win" if r < win else "draw" if r < win + draw else "loss"
        white_result = {"win": "1-0", "loss": "0-1", "draw": "1/2-1/2"}[mover_result]
        if board.turn == chess.BLACK and mover_result != "draw":
            white_result = {"1-0": "0-1", "0-1": "1-0"}[white_result]
        game = chess.pgn.Game()
        game.setup(board)
        ours, theirs = ("White", "Black") if board.turn == chess.WHITE else ("Black", "White")
        game.headers[ours] = "Minkowski 0.2.0"
        game.headers[theirs] = "Stockfish 15.1"
        game.headers["Result"] = white_result
        node = game.add_variation(next(iter(board.legal_moves)),
                                  comment=f"{score / 100.0:+.2f}/14 0.12s")
        reply = node.board()
        if not reply.is_game_over():
            # The opponent's score must not count: a wrong one on purpose.
            node.add_variation(next(iter(reply.legal_moves)), comment="+9.99/14 0.10s")
        print(game, file=out, end="\n\n")
        made += 1
    return out.getvalue()


def write(text):
    f = tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False, encoding="utf-8")
    f.write(text)
    f.close()
    return f.name


class Reading(unittest.TestCase):
    def test_comment_scores(self):
        self.assertEqual(wdl_fit.comment_score("+0.35/17 0.21s"), 35.0)
        self.assertEqual(wdl_fit.comment_score(" -1.20/15 0.09s, Black resigns "), -120.0)
        self.assertEqual(wdl_fit.comment_score("0.00/1 0s"), 0.0)
        self.assertIsNone(wdl_fit.comment_score("+M16/20 0.06s"))
        self.assertIsNone(wdl_fit.comment_score("-M3/120 0.03s"))
        self.assertIsNone(wdl_fit.comment_score("book"))
        self.assertIsNone(wdl_fit.comment_score(""))

    def test_moves_of_ours_from_the_ply_on_with_the_result_from_the_movers_side(self):
        path = write(HAND_PGN)
        try:
            data = wdl_fit.read_games([path], min_ply=16)
        finally:
            os.unlink(path)
        # Game 1: Black's moves at plies 17, 19, 21: -1.25 (scored), mate (out), +3.10 (scored);
        # White's (Ethereal's) never. Game 2 has no move of ply 16 or later.
        self.assertEqual([(o.score, o.outcome) for o in data],
                         [(-125.0, wdl_fit.WIN), (310.0, wdl_fit.WIN)])
        # Material before each move: rook and pawn (6), after Rh7+ Kd6 e4 still 6.
        self.assertEqual([o.material for o in data], [6, 6])
        # One opening: its two moves share its weight of one.
        self.assertEqual(sum(o.weight for o in data), 1.0)

    def test_every_ply_with_min_ply_zero_and_a_draw_is_a_draw(self):
        path = write(HAND_PGN)
        try:
            data = wdl_fit.read_games([path], min_ply=0)
        finally:
            os.unlink(path)
        drawn = [o for o in data if o.outcome == wdl_fit.DRAW]
        self.assertEqual([o.score for o in drawn], [30.0, 25.0])
        self.assertEqual([o.material for o in drawn], [78, 78])

    def test_named_player(self):
        path = write(HAND_PGN)
        try:
            theirs = wdl_fit.read_games([path], is_ours=lambda n: n == "Ethereal 12", min_ply=0)
        finally:
            os.unlink(path)
        # Ethereal: White in game 1 (loses; the book move has no score), Black in game 2.
        self.assertEqual([(o.score, o.outcome) for o in theirs],
                         [(50.0, wdl_fit.LOSS), (10.0, wdl_fit.LOSS),
                          (-20.0, wdl_fit.DRAW), (-20.0, wdl_fit.DRAW)])

    def test_self_play_counts_both_sides(self):
        path = write(HAND_PGN)
        try:
            both = wdl_fit.read_games([path], is_ours=lambda n: n != "", min_ply=0)
        finally:
            os.unlink(path)
        # Game 1: Ethereal's two scored moves (a loss) and Minkowski's two (a win); game 2:
        # four scored moves, all draws.
        self.assertEqual([o.outcome for o in both],
                         [wdl_fit.LOSS, wdl_fit.WIN, wdl_fit.LOSS, wdl_fit.WIN] + [wdl_fit.DRAW] * 4)

    def test_the_holdout_split_is_by_opening_and_stable(self):
        keys = [f"opening:#{i}" for i in range(2000)]
        share = sum(wdl_fit.held_out(k, 0.2) for k in keys) / len(keys)
        self.assertAlmostEqual(share, 0.2, delta=0.03)
        self.assertEqual([wdl_fit.held_out(k, 0.2) for k in keys],
                         [wdl_fit.held_out(k, 0.2) for k in keys])

    def test_the_shipped_model_is_read_from_the_source(self):
        shipped = wdl_fit.shipped_model()
        self.assertEqual((len(shipped.a), len(shipped.b)), (4, 4))
        w, d, l = shipped.chances(0.0, 60)
        self.assertAlmostEqual(w, l)
        self.assertAlmostEqual(w + d + l, 1.0)


class Fitting(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        path = write(synthetic_games(4000, seed=7))
        try:
            data = wdl_fit.read_games([path])
        finally:
            os.unlink(path)
        cls.fitting = [o for o in data if not wdl_fit.held_out(o.opening, 0.25)]
        cls.holdout = [o for o in data if wdl_fit.held_out(o.opening, 0.25)]
        cls.fitted = wdl_fit.fit_from_flat(cls.fitting)

    def test_the_synthetic_games_are_read_whole(self):
        # One move of ours a game, each game its own opening; the opponent's never.
        self.assertEqual(len(self.fitting) + len(self.holdout), 4000)
        # Each opening weighs one (two games from the same bare position share it).
        openings = {o.opening for o in self.fitting}
        self.assertAlmostEqual(sum(o.weight for o in self.fitting), len(openings))
        self.assertGreater(len({o.material for o in self.fitting}), 60)

    def test_the_fit_finds_the_true_model(self):
        worst = 0.0
        for material in (25, 40, 55, 70):
            for score in (-300, -150, 0, 150, 300):
                truth = TRUTH.chances(score, material)
                fitted = self.fitted.chances(score, material)
                worst = max(worst, max(abs(t - f) for t, f in zip(truth, fitted)))
        self.assertLess(worst, 0.06, f"{self.fitted}")

    def test_it_predicts_held_out_games_as_well_as_the_truth(self):
        truth = wdl_fit.log_loss(TRUTH, self.holdout)
        fitted = wdl_fit.log_loss(self.fitted, self.holdout)
        freq = wdl_fit.frequency_log_loss(wdl_fit.outcome_frequencies(self.fitting), self.holdout)
        self.assertLess(fitted, truth + 0.01)
        self.assertLess(fitted, freq - 0.1)

    def test_calibration_table(self):
        data = self.fitting + self.holdout
        rows = wdl_fit.calibration(data, {"fitted": self.fitted, "truth": TRUTH})
        self.assertEqual(sum(r["positions"] for r in rows), len(data))
        self.assertEqual([r["band"] for r in rows], ["< -300", "-300..-150", "-150..-50",
                                                     "-50..50", "50..150", "150..300", "> 300"])
        for r in rows:
            n = r["positions"]
            self.assertGreater(n, 200, r["band"])
            self.assertAlmostEqual(sum(r["predicted"]["fitted"]), 1.0)
            for k in range(3):
                # The fit's mean prediction is the truth's; what the games show is within four
                # standard errors of it.
                truth = r["predicted"]["truth"][k]
                self.assertAlmostEqual(r["predicted"]["fitted"][k], truth, delta=0.03)
                bound = 4.0 * (max(truth * (1.0 - truth), 0.01) / n) ** 0.5
                self.assertAlmostEqual(r["seen"][k], truth, delta=bound, msg=r["band"])

    def test_the_script_end_to_end(self):
        path = write(synthetic_games(300, seed=11))
        try:
            run = subprocess.run([sys.executable, SCRIPT, path], capture_output=True, text=True,
                                 timeout=300)
        finally:
            os.unlink(path)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("300 moves of ours", run.stdout)
        self.assertIn("-50..50", run.stdout)
        self.assertIn("pub const FITTED: WdlModel = WdlModel {", run.stdout)


if __name__ == "__main__":
    unittest.main()
