"""Weights as a MutableMapping, engine.toml in and out, and the knowledge functions."""
from collections.abc import MutableMapping
from pathlib import Path

import chess
import pytest

import minkowski_chess as mk

REPO = Path(__file__).resolve().parents[2]


def test_it_is_a_mutable_mapping_of_every_weight():
    w = mk.Weights()
    assert isinstance(w, MutableMapping)
    names = list(w)
    assert len(w) == len(names) == len(set(names)) > 700
    assert names[0] == "material.pawn" and "psqt.knight.e4" in names
    assert "tempo" in w and "dragon" not in w and 3 not in w and None not in w
    assert w.get("dragon") is None and w.get("dragon", (1, 2)) == (1, 2)
    assert w.get("tempo") == w["tempo"] and isinstance(w["tempo"], tuple)
    assert dict(w.items())["tempo"] == w["tempo"]
    assert list(w.keys()) == names and len(list(w.values())) == len(names)
    with pytest.raises(KeyError):
        w["dragon"]
    with pytest.raises(KeyError):
        w[3]


def test_setting_checks_names_types_and_ranges():
    w = mk.Weights()
    w["tempo"] = [12, 34]
    assert w["tempo"] == (12, 34)
    w["material.knight"] = (300, 300)
    assert w.changed() == {"tempo": (12, 34), "material.knight": (300, 300)}
    with pytest.raises(KeyError):
        w["dragon"] = (1, 1)
    with pytest.raises(KeyError):
        w["material.king"] = (0, 0)  # structure, not a weight
    for bad in [5, "12", (1,), (1, 2, 3), (1.5, 2), (True, 2), None]:
        with pytest.raises(TypeError):
            w["tempo"] = bad
    with pytest.raises(ValueError, match="from -100 to 100"):
        w["tempo"] = (101, 0)
    with pytest.raises(ValueError):
        w["tempo"] = (2**70, 0)
    assert w["tempo"] == (12, 34)  # a refused value leaves the weight as it was


def test_deleting_resets_to_the_built_in_value():
    w, default = mk.Weights(), mk.Weights()["tempo"]
    w["tempo"] = (1, 1)
    del w["tempo"]
    assert w["tempo"] == default and "tempo" in w
    w["tempo"] = (1, 1)
    assert w.pop("tempo") == (1, 1) and w["tempo"] == default
    with pytest.raises(KeyError):
        del w["dragon"]
    w.update({"tempo": (2, 2)}, bishop_pair=(3, 3))
    assert w.changed() == {"tempo": (2, 2), "bishop_pair": (3, 3)}
    w.clear()
    assert w.changed() == {} and len(w) > 700
    with pytest.raises(KeyError):
        w.popitem()
    assert w.setdefault("tempo", (9, 9)) == default


def test_copies_equality_and_evaluators_are_independent():
    w = mk.Weights(tempo=(5, 5))
    c = w.copy()
    assert c == w and c == dict(w) and c is not w
    c["tempo"] = (6, 6)
    assert c != w and w["tempo"] == (5, 5)
    e = mk.Evaluator(w)
    w["tempo"] = (100, 100)
    assert e.weights["tempo"] == (5, 5)  # the evaluator copied the weights


def test_weights_change_the_evaluation():
    board = chess.Board("4k3/pp6/8/8/8/8/PP6/1N2K3 w - - 0 1")
    w = mk.Weights({"material.knight": (100, 100)})
    assert mk.evaluate(board, w) < mk.evaluate(board)
    assert mk.evaluate(board, dict(w.changed())) == mk.evaluate(board, w)


def test_engine_toml_round_trip(tmp_path):
    assert mk.Weights.load(REPO / "engine.toml") == mk.Weights()  # every line commented out
    w = mk.Weights({"psqt.knight.e4": (31, -7), "tempo": (40, 12)})
    for only_changed in (False, True):
        path = tmp_path / f"w{only_changed}.toml"
        w.save(path, only_changed=only_changed, header="fitted\nby hand")
        text = path.read_text()
        assert text.startswith("# fitted\n# by hand\n[eval]\n")
        assert '\n"psqt.knight.e4" = [31, -7]\n' in text and "\ntempo = [40, 12]\n" in text
        assert mk.Weights.load(path) == w


def test_a_bad_file_names_every_problem():
    text = ('[eval]\ntempo = [101, 0]\nknight = [1, 2]\n"material.rook" = [500]\n'
            'bishop_pair = [1.5, 2]\n[search]\nx = 1\n')
    with pytest.raises(ValueError) as caught:
        mk.Weights.from_toml(text, source="e.toml")
    lines = str(caught.value).splitlines()
    assert len(lines) == 5
    assert any("tempo: [101, 0] is out of range" in line for line in lines)
    assert any("knight: unknown evaluation weight" in line for line in lines)
    assert any("unknown table [search]" in line for line in lines)
    with pytest.raises(ValueError, match="e.toml"):
        mk.Weights.from_toml("[eval", source="e.toml")
    with pytest.raises(FileNotFoundError):
        mk.Weights.load("/no/such/engine.toml")
    with pytest.raises(TypeError):
        mk.Weights.from_toml(b"[eval]")


def test_describe():
    info = mk.Weights.describe("material.knight")
    assert info.default == mk.Weights()["material.knight"] and info.low < 0 < info.high
    assert info.term == "Material" and info.doc
    with pytest.raises(KeyError):
        mk.Weights.describe("dragon")


def test_knowledge():
    assert mk.king_distance(chess.A1, chess.H8) == 7
    assert mk.manhattan_distance(chess.A1, chess.H8) == 14
    assert mk.knight_distance(chess.A1, chess.H8) == 6
    assert mk.knight_fill(chess.BB_A1) == chess.BB_A1 | chess.BB_B3 | chess.BB_C2
    assert mk.knight_fork_squares(chess.BB_E8 | chess.BB_A8) == chess.BB_C7
    assert mk.kpk(chess.E5, chess.E4, chess.E7, chess.WHITE, strong_to_move=False)
    assert not mk.kpk(chess.E5, chess.E4, chess.E7, chess.WHITE, strong_to_move=True)
    assert mk.knights_catch_passer(chess.G6, chess.WHITE, True, chess.BB_E7)
    assert not mk.knights_catch_passer(chess.G6, chess.WHITE, True, chess.BB_A1)
    assert mk.kbnk_score(chess.C3, chess.A1, chess.D4, chess.B4, True)[1] > 10000
    assert mk.mop_up(chess.F6, chess.H8)[1] > mk.mop_up(chess.C3, chess.E5)[1]
    cheap = mk.Weights({"kbnk_corner": (0, 0)})
    assert mk.kbnk_score(chess.C3, chess.A1, chess.D4, chess.B4, True, cheap) != \
        mk.kbnk_score(chess.C3, chess.A1, chess.D4, chess.B4, True)
