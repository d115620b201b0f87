"""minkowski_chess against python-chess and the library's documented codes (python3 -m unittest
discover python/tests)."""
import unittest

import chess

import minkowski_chess as mk


class Evaluation(unittest.TestCase):
    def test_board_and_fen_give_the_same_numbers(self):
        for fen in ["r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                    "8/8/8/4k3/8/8/8/KBN5 w - - 0 1", "8/8/8/3pP3/8/4k3/8/4K3 w - d6 0 2"]:
            board = chess.Board(fen)
            self.assertEqual(mk.evaluate(board), mk.evaluate_fen(fen))
            self.assertEqual(mk.trace(board), mk.trace_fen(fen))
        self.assertEqual(mk.trace_fen("8/8/8/4k3/8/8/8/KBN5 w - - 0 1").endgame, "KBNK")

    def test_rows_are_read_from_the_library(self):
        rows = mk.trace(chess.Board()).rows
        self.assertGreater(len(rows), 0)
        material = dict((r[0], r[1:]) for r in rows)["Material"]
        self.assertEqual(material[:2], material[2:])  # the start position is symmetric

    def test_knowledge(self):
        self.assertEqual(mk.king_distance(chess.A1, chess.H8), 7)
        self.assertEqual(mk.manhattan_distance(chess.A1, chess.H8), 14)
        self.assertEqual(mk.knight_distance(chess.A1, chess.H8), 6)
        self.assertEqual(mk.knight_fill(chess.BB_A1), chess.BB_A1 | chess.BB_B3 | chess.BB_C2)
        self.assertEqual(mk.knight_fork_squares(chess.BB_E8 | chess.BB_A8), chess.BB_C7)
        self.assertTrue(mk.kpk(chess.E5, chess.E4, chess.E7, chess.WHITE, strong_to_move=False))
        self.assertFalse(mk.kpk(chess.E5, chess.E4, chess.E7, chess.WHITE, strong_to_move=True))
        self.assertTrue(mk.knights_catch_passer(chess.G6, chess.WHITE, True, chess.BB_E7))
        self.assertFalse(mk.knights_catch_passer(chess.G6, chess.WHITE, True, chess.BB_A1))
        self.assertGreater(mk.kbnk_score(chess.C3, chess.A1, chess.D4, chess.B4, True)[1], 10000)
        self.assertGreater(mk.mop_up(chess.F6, chess.H8)[1], mk.mop_up(chess.C3, chess.E5)[1])

    def test_weights(self):
        w = mk.Weights.from_toml('[eval]\n"material.knight" = [100, 100]\n')
        self.assertEqual(w["material.knight"], (100, 100))
        board = chess.Board("4k3/pp6/8/8/8/8/PP6/1N2K3 w - - 0 1")
        self.assertLess(mk.evaluate(board, w), mk.evaluate(board))


# Each bad input and the code the header documents for it.
BAD = [
    ("invalid FEN", lambda: mk.evaluate_fen("not a fen"), "MK_ERR_FEN"),
    ("FEN without kings", lambda: mk.evaluate_fen("8/8/8/8/8/8/8/8 w - - 0 1"), "MK_ERR_POSITION"),
    ("missing king (board)", lambda: mk.evaluate(chess.Board("4k3/8/8/8/8/8/8/8 w - - 0 1")), "MK_ERR_POSITION"),
    ("pawn on the back rank", lambda: mk.evaluate(chess.Board("4k3/8/8/8/8/8/8/P3K3 w - - 0 1")), "MK_ERR_POSITION"),
    ("overlapping bitboards", lambda: mk._check(mk._lib.mk_evaluate(None, mk.MkPosition(white=16, black=16, kings=16), mk.ctypes.byref(mk.ctypes.c_int32()))), "MK_ERR_BITBOARDS"),
    ("NULL position", lambda: mk._check(mk._lib.mk_evaluate(None, None, None)), "MK_ERR_NULL"),
    ("NULL FEN", lambda: mk.evaluate_fen(None), "MK_ERR_NULL"),
    ("weights file missing", lambda: mk.Weights.load("/no/such/engine.toml"), "MK_ERR_WEIGHTS"),
    ("weights: unknown weight", lambda: mk.Weights.from_toml("[eval]\nknight = [1, 2]\n"), "MK_ERR_WEIGHTS"),
    ("weights: not TOML", lambda: mk.Weights.from_toml("[eval"), "MK_ERR_WEIGHTS"),
    ("square 64", lambda: mk.king_distance(64, 0), "MK_ERR_SQUARE"),
    ("KPK pawn on first rank", lambda: mk.kpk(chess.E1, chess.C1, chess.E8), "MK_ERR_POSITION"),
]


class BadInput(unittest.TestCase):
    def test_each_bad_input_raises_its_documented_code(self):
        for what, call, name in BAD:
            with self.assertRaises(mk.MinkowskiError, msg=what) as caught:
                call()
            self.assertEqual(caught.exception.name, name, what)


if __name__ == "__main__":
    unittest.main()
