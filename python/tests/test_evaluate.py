"""Batches against one-by-one calls, boards against FENs, bad positions, threads, wrong types,
and agreement with the `minkowski eval` command line (the independent oracle)."""
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor

import chess
import chess.variant
import numpy as np
import pytest

import minkowski_chess as mk

KBNK = "8/8/8/4k3/8/8/8/KBN5 w - - 0 1"


def one_by_one(positions, evaluator=None):
    """The values by single calls, None where a position raises PositionError."""
    evaluate = (evaluator or mk.Evaluator()).evaluate
    out = []
    for p in positions:
        try:
            out.append(evaluate(p))
        except mk.PositionError:
            out.append(None)
    return out


def test_a_batch_of_10000_equals_one_by_one(fens, boards):
    # FENs of every suite (some of them not legal positions) and boards of random games.
    positions = (fens[:6000] + boards)[:10000]
    assert len(positions) == 10000
    single = one_by_one(positions)
    batch = mk.evaluate_many(positions, errors="mask")
    assert batch.shape == (10000,) and batch.dtype == np.int32
    assert [None if m else int(v) for v, m in zip(batch.data, batch.mask)] == single
    assert sum(v is not None for v in single) > 9900


def test_boards_are_read_as_their_fens(boards):
    # The attribute-by-attribute board reader against python-chess's own FEN of each board.
    assert (mk.evaluate_many(boards) == mk.evaluate_many([b.fen() for b in boards])).all()
    special = [chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
               chess.Board("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
               chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
               chess.Board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                           chess960=True)]
    # Rights without their rook or king: python-chess's FEN drops them, and so does the reader.
    stale = chess.Board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    stale.castling_rights |= chess.BB_H1 | chess.BB_A8
    special.append(stale)
    for board in special:
        assert mk.evaluate(board) == mk.evaluate(board.fen()), board.fen()


def test_any_object_with_a_fen_method():
    class Mine:
        def fen(self):
            return KBNK
    assert mk.evaluate(Mine()) == mk.evaluate(KBNK)


def test_a_broken_board_is_a_type_error():
    board = chess.Board()
    board.pawns = -1  # not a square set
    with pytest.raises(TypeError, match="cannot be read"):
        mk.evaluate(board)
    board = chess.Board()
    board.occupied_co = None
    with pytest.raises(TypeError):
        mk.evaluate_many([chess.Board(), board])


def test_threads_and_caches_do_not_change_values(fens):
    positions = fens[:4000]
    base = mk.Evaluator(cache_kib=0).evaluate_many(positions, threads=1, errors="mask")
    for threads in (1, 2, 3, 8):
        got = mk.Evaluator().evaluate_many(positions, threads=threads, errors="mask")
        assert (got.mask == base.mask).all() and (got.data == base.data).all(), threads


def test_bad_positions_are_named_and_the_rest_kept():
    good = ["r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", KBNK]
    positions = [good[0], "not a fen", good[1], "8/8/8/8/8/8/8/8 w - - 0 1",
                 chess.Board("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),  # a pawn on the first rank
                 good[0], chess.variant.AtomicBoard(), "k7/8/8/8/8/8/8/K7 w - - 0 1 extra junk"]
    with pytest.raises(mk.PositionError) as caught:
        mk.evaluate_many(positions)
    e = caught.value
    assert e.indices == [1, 3, 4, 6, 7]
    assert len(e.messages) == 5 and "not a fen" in e.messages[0]
    assert "atomic" in e.messages[3]
    assert "5 of 8 positions failed" in str(e)
    want = [mk.evaluate(good[0]), 0, mk.evaluate(good[1]), 0, 0, mk.evaluate(good[0]), 0, 0]
    assert e.values.tolist() == want
    masked = mk.evaluate_many(positions, errors="mask")
    assert masked.mask.tolist() == [i in e.indices for i in range(8)]
    assert masked.compressed().tolist() == [want[i] for i in (0, 2, 5)]
    # The same positions one at a time raise the same errors (a ValueError subclass).
    for i in e.indices:
        with pytest.raises(ValueError):
            mk.evaluate(positions[i])


def test_several_python_threads_share_one_evaluator(fens):
    evaluator = mk.Evaluator()
    positions = fens[:3000]
    expected = mk.Evaluator(cache_kib=0).evaluate_many(positions, threads=1, errors="mask")
    start = threading.Barrier(4)

    def work(k):
        start.wait()
        if k % 2:
            return evaluator.evaluate_many(positions, threads=2, errors="mask")
        return np.ma.masked_invalid(np.array(
            [np.nan if v is None else v for v in one_by_one(positions, evaluator)]))

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(work, range(4)))
    for got in results:
        assert (np.ma.getmaskarray(got) == expected.mask).all()
        assert (got.compressed().astype(np.int32) == expected.compressed()).all()


def test_traces_match_evaluations(fens):
    positions = fens[:500] + [KBNK]
    arrays = mk.trace_many(positions, errors="mask")
    values = mk.evaluate_many(positions, errors="mask")
    assert (arrays.total.mask == values.mask).all()
    assert (arrays.total.compressed() == values.compressed()).all()
    assert arrays.terms.shape == (len(positions), len(arrays.names), 2, 2)
    assert arrays.endgame[-1] == "KBNK"
    for i in (0, 7, len(positions) - 1):
        if values.mask[i]:
            continue
        t = mk.trace(positions[i])
        assert [tuple(r[1:]) for r in t.rows] == [
            tuple(arrays.terms[i, j].ravel().tolist()) for j in range(len(arrays.names))]
        assert (t.phase, t.total) == (arrays.phase[i], arrays.total[i])


@pytest.mark.parametrize("call, error", [
    (lambda: mk.evaluate(3), TypeError),
    (lambda: mk.evaluate(None), TypeError),
    (lambda: mk.evaluate(b"8/8/8/4k3/8/8/8/KBN5 w - - 0 1"), TypeError),
    (lambda: mk.evaluate_many(KBNK), TypeError),
    (lambda: mk.evaluate_many(5), TypeError),
    (lambda: mk.evaluate_many([KBNK, 5]), TypeError),
    (lambda: mk.evaluate_many([KBNK], threads=0), ValueError),
    (lambda: mk.evaluate_many([KBNK], threads=-1), ValueError),
    (lambda: mk.evaluate_many([KBNK], threads="2"), TypeError),
    (lambda: mk.evaluate_many([KBNK], errors="ignore"), ValueError),
    (lambda: mk.Evaluator(weights=5), TypeError),
    (lambda: mk.Evaluator(cache_kib=-1), ValueError),
    (lambda: mk.Evaluator(cache_kib="big"), TypeError),
    (lambda: mk.evaluate("\0"), ValueError),
    (lambda: mk.king_distance(64, 0), ValueError),
    (lambda: mk.king_distance(-1, 0), ValueError),
    (lambda: mk.king_distance("a1", 0), TypeError),
    (lambda: mk.knight_fill(-1), (ValueError, TypeError)),
    (lambda: mk.kpk(chess.E1, chess.C1, chess.E8), ValueError),
    (lambda: mk.mop_up(chess.E1, chess.E2), ValueError),
])
def test_wrong_arguments_raise_type_or_value_errors(call, error):
    with pytest.raises(error):
        call()


def test_an_empty_batch():
    assert mk.evaluate_many([]).shape == (0,)
    assert mk.trace_many([]).terms.shape == (0, len(mk.Evaluator.trace_rows()), 2, 2)


def cli_total(binary, fen, config=None):
    args = [str(binary)] + (["--config", str(config)] if config else []) + ["eval", *fen.split()]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return int(next(line.split()[1] for line in out.splitlines() if line.startswith("Total:")))


def test_agrees_with_minkowski_eval(minkowski_bin, fens, boards):
    positions = fens[::400] + [b.fen() for b in boards[::300]] + [KBNK]
    values = mk.evaluate_many(positions, errors="mask")
    compared = 0
    for fen, value, bad in zip(positions, values.data, values.mask):
        if not bad:
            assert int(value) == cli_total(minkowski_bin, fen), fen
            compared += 1
    assert compared >= 30


def test_agrees_with_minkowski_eval_under_changed_weights(minkowski_bin, tmp_path, fens):
    w = mk.Weights({"material.knight": (250, 280), "tempo": (0, 0), "psqt.knight.e4": (40, 3)})
    config = tmp_path / "engine.toml"
    w.save(config, only_changed=True)
    e = mk.Evaluator(mk.Weights.load(config))
    for fen in fens[1000:5000:400]:
        try:
            value = e.evaluate(fen)
        except mk.PositionError:
            continue
        assert value == cli_total(minkowski_bin, fen, config), fen
