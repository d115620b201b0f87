"""Minkowski's chess evaluation for python-chess boards (ctypes over libminkowski_capi).

Every function raises MinkowskiError (with .code, the library's MK_ERR_* number, and .name) on
bad input; nothing else escapes the library. Squares are python-chess squares (a1 = 0, h8 = 63),
square sets are ints (bit i = square i), colours are chess.WHITE / chess.BLACK.

The library is looked up in: $MINKOWSKI_CAPI_LIB, this package's directory (where
`pip install ./python` puts it), then the repository's target/release (a source checkout).
"""
import ctypes
import os
import sys
from collections import namedtuple
from pathlib import Path

import chess

__all__ = [
    "MinkowskiError", "Weights", "Trace", "version", "evaluate", "evaluate_fen", "trace",
    "trace_fen", "position", "king_distance", "manhattan_distance", "knight_distance",
    "knight_fill", "knight_fork_squares", "knight_fork_jumps", "mop_up", "kbnk_score", "kpk",
    "knights_catch_passer", "passer_unstoppable",
]


def _library_path():
    name = {"win32": "minkowski_capi.dll", "darwin": "libminkowski_capi.dylib"}.get(
        sys.platform, "libminkowski_capi.so")
    candidates = [os.environ.get("MINKOWSKI_CAPI_LIB"), Path(__file__).parent / name,
                  Path(__file__).resolve().parents[2] / "target" / "release" / name]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return str(candidate)
    raise OSError(f"{name} not found (looked in {[str(c) for c in candidates if c]}); "
                  "install with `pip install ./python` or set MINKOWSKI_CAPI_LIB")


class MkPosition(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint64) for name in
                ("white", "black", "kings", "queens", "rooks", "bishops", "knights", "pawns")] + [
        ("castling", ctypes.c_uint32), ("ep", ctypes.c_uint32), ("rule50", ctypes.c_uint32),
        ("white_to_move", ctypes.c_uint8)]


class MkTraceRow(ctypes.Structure):
    _fields_ = [(name, ctypes.c_int32) for name in ("white_mg", "white_eg", "black_mg", "black_eg")]


class MkTraceSummary(ctypes.Structure):
    _fields_ = [("rows", ctypes.c_uint32), ("phase", ctypes.c_int32),
                ("max_phase", ctypes.c_int32), ("total", ctypes.c_int32),
                ("white_to_move", ctypes.c_int32), ("endgame", ctypes.c_char * 16),
                ("endgame_strong_white", ctypes.c_int32), ("endgame_kind", ctypes.c_int32),
                ("endgame_mg", ctypes.c_int32), ("endgame_eg", ctypes.c_int32)]


class MkScore(ctypes.Structure):
    _fields_ = [("mg", ctypes.c_int32), ("eg", ctypes.c_int32)]


_lib = ctypes.CDLL(_library_path())
_P = ctypes.POINTER
_i32, _u32, _u64, _ptr, _str = ctypes.c_int32, ctypes.c_uint32, ctypes.c_uint64, ctypes.c_void_p, ctypes.c_char_p
for _name, _res, _args in [
    ("mk_version", _str, []), ("mk_abi_version", _u32, []), ("mk_status_name", _str, [_i32]),
    ("mk_weights_new", _ptr, []), ("mk_weights_load", _i32, [_str, _P(_ptr)]),
    ("mk_weights_from_toml", _i32, [_str, _P(_ptr)]), ("mk_weights_free", None, [_ptr]),
    ("mk_weights_get", _i32, [_ptr, _str, _P(_i32), _P(_i32)]),
    ("mk_weights_set", _i32, [_ptr, _str, _i32, _i32]),
    ("mk_position_from_fen", _i32, [_str, _P(MkPosition)]),
    ("mk_evaluate", _i32, [_ptr, _P(MkPosition), _P(_i32)]),
    ("mk_evaluate_fen", _i32, [_ptr, _str, _P(_i32)]),
    ("mk_trace_row_count", _u32, []), ("mk_trace_row_name", _str, [_u32]),
    ("mk_trace", _i32, [_ptr, _P(MkPosition), _P(MkTraceRow), _u32, _P(MkTraceSummary)]),
    ("mk_trace_fen", _i32, [_ptr, _str, _P(MkTraceRow), _u32, _P(MkTraceSummary)]),
    ("mk_king_distance", _i32, [_u32, _u32]), ("mk_manhattan_distance", _i32, [_u32, _u32]),
    ("mk_knight_distance", _i32, [_u32, _u32]), ("mk_knight_fill", _u64, [_u64]),
    ("mk_knight_fork_squares", _u64, [_u64]), ("mk_knight_fork_jumps", _u64, [_u64, _u64, _u64]),
    ("mk_mop_up", _i32, [_ptr, _u32, _u32, _P(MkScore)]),
    ("mk_kbnk_score", _i32, [_ptr, _u32, _u32, _u32, _u32, _i32, _P(MkScore)]),
    ("mk_kpk", _i32, [_u32, _u32, _u32, _i32, _i32]),
    ("mk_knights_catch_passer", _i32, [_u32, _i32, _i32, _u64]),
    ("mk_passer_unstoppable", _i32, [_u32, _i32, _i32, _u32, _u64]),
]:
    _function = getattr(_lib, _name)
    _function.restype, _function.argtypes = _res, _args

ABI_VERSION = 1
if _lib.mk_abi_version() != ABI_VERSION:
    raise ImportError(f"libminkowski_capi has ABI {_lib.mk_abi_version()}, this module {ABI_VERSION}")


class MinkowskiError(ValueError):
    """Bad input, as the library's status code: .code (negative int) and .name ("MK_ERR_FEN")."""

    def __init__(self, code):
        self.code = code
        self.name = _lib.mk_status_name(code).decode()
        super().__init__(f"{self.name} ({code})")


def _check(code):
    """A status or a non-negative result; negative codes raise."""
    if code < 0:
        raise MinkowskiError(code)
    return code


def _bytes(text):
    if not isinstance(text, str) or "\0" in text:
        raise MinkowskiError(-4 if text is not None else -1)
    return text.encode()


class Weights:
    """Evaluation weights: the built-in ones, or engine.toml's [eval] table (Weights.load)."""

    def __init__(self, _handle=None):
        self._handle = _handle if _handle is not None else _lib.mk_weights_new()

    @classmethod
    def load(cls, path):
        """Weights from an engine.toml file (MK_ERR_WEIGHTS if unreadable or invalid)."""
        handle = ctypes.c_void_p()
        _check(_lib.mk_weights_load(os.fsencode(path), ctypes.byref(handle)))
        return cls(handle.value)

    @classmethod
    def from_toml(cls, text):
        """Weights from engine.toml text."""
        handle = ctypes.c_void_p()
        _check(_lib.mk_weights_from_toml(_bytes(text), ctypes.byref(handle)))
        return cls(handle.value)

    def __getitem__(self, name):
        mg, eg = ctypes.c_int32(), ctypes.c_int32()
        _check(_lib.mk_weights_get(self._handle, _bytes(name), ctypes.byref(mg), ctypes.byref(eg)))
        return mg.value, eg.value

    def __setitem__(self, name, value):
        mg, eg = value
        _check(_lib.mk_weights_set(self._handle, _bytes(name), mg, eg))

    def __del__(self):
        if getattr(self, "_handle", None):
            _lib.mk_weights_free(self._handle)
            self._handle = None


def _handle(weights):
    return None if weights is None else weights._handle


Trace = namedtuple("Trace", "rows phase max_phase total white_to_move endgame")
Trace.__doc__ = ("rows: [(name, white_mg, white_eg, black_mg, black_eg)] as the library lists "
                 "them; endgame: the endgame evaluator's code or None.")


def version():
    """The library's version string."""
    return _lib.mk_version().decode()


def position(board):
    """A python-chess board as the library's MkPosition (eight bitboards and state)."""
    castling = sum(flag for flag, color, short in [(1, chess.WHITE, True), (2, chess.WHITE, False),
                                                   (4, chess.BLACK, True), (8, chess.BLACK, False)]
                   if (board.has_kingside_castling_rights(color) if short
                       else board.has_queenside_castling_rights(color)))
    return MkPosition(white=board.occupied_co[chess.WHITE], black=board.occupied_co[chess.BLACK],
                      kings=board.kings, queens=board.queens, rooks=board.rooks,
                      bishops=board.bishops, knights=board.knights, pawns=board.pawns,
                      castling=castling,
                      ep=board.ep_square if board.has_legal_en_passant() else 0,
                      rule50=board.halfmove_clock, white_to_move=int(board.turn))


def evaluate(board, weights=None):
    """Centipawns from the side to move's point of view."""
    cp = ctypes.c_int32()
    _check(_lib.mk_evaluate(_handle(weights), ctypes.byref(position(board)), ctypes.byref(cp)))
    return cp.value


def evaluate_fen(fen, weights=None):
    """As evaluate, from a FEN string."""
    cp = ctypes.c_int32()
    _check(_lib.mk_evaluate_fen(_handle(weights), _bytes(fen), ctypes.byref(cp)))
    return cp.value


def _trace(call, weights):
    count = _lib.mk_trace_row_count()
    rows, summary = (MkTraceRow * max(count, 1))(), MkTraceSummary()
    _check(call(_handle(weights), rows, count, ctypes.byref(summary)))
    return Trace(rows=[(_lib.mk_trace_row_name(i).decode(), r.white_mg, r.white_eg, r.black_mg,
                        r.black_eg) for i, r in enumerate(rows[:count])],
                 phase=summary.phase, max_phase=summary.max_phase, total=summary.total,
                 white_to_move=bool(summary.white_to_move),
                 endgame=summary.endgame.decode() or None)


def trace(board, weights=None):
    """Every evaluation term, White and Black, mg and eg (rows named by the library)."""
    pos = position(board)
    return _trace(lambda w, rows, n, s: _lib.mk_trace(w, ctypes.byref(pos), rows, n, s), weights)


def trace_fen(fen, weights=None):
    """As trace, from a FEN string."""
    text = _bytes(fen)
    return _trace(lambda w, rows, n, s: _lib.mk_trace_fen(w, text, rows, n, s), weights)


def king_distance(a, b):
    """King moves between two squares on an empty board."""
    return _check(_lib.mk_king_distance(a, b))


def manhattan_distance(a, b):
    """Files apart plus ranks apart."""
    return _check(_lib.mk_manhattan_distance(a, b))


def knight_distance(a, b):
    """Knight moves between two squares on an empty board."""
    return _check(_lib.mk_knight_distance(a, b))


def knight_fill(knights):
    """The knights' squares plus every square one knight move away (an int bitboard)."""
    return _lib.mk_knight_fill(knights)


def knight_fork_squares(targets):
    """Squares from which a knight attacks two or more of targets."""
    return _lib.mk_knight_fork_squares(targets)


def knight_fork_jumps(knights, targets, avoid=0):
    """Fork squares of targets one knight move from knights, outside avoid."""
    return _lib.mk_knight_fork_jumps(knights, targets, avoid)


def mop_up(strong_king, lone_king, weights=None):
    """The mop-up bonus (mg, eg) for the strong side."""
    score = MkScore()
    _check(_lib.mk_mop_up(_handle(weights), strong_king, lone_king, ctypes.byref(score)))
    return score.mg, score.eg


def kbnk_score(strong_king, lone_king, bishop, knight, lone_king_to_move, weights=None):
    """King, bishop and knight against king as Minkowski scores it (mg, eg), strong side's view."""
    score = MkScore()
    _check(_lib.mk_kbnk_score(_handle(weights), strong_king, lone_king, bishop, knight,
                              int(lone_king_to_move), ctypes.byref(score)))
    return score.mg, score.eg


def kpk(strong_king, pawn, lone_king, strong=chess.WHITE, strong_to_move=True):
    """The exact KPK verdict: True if the side with the pawn wins."""
    return bool(_check(_lib.mk_kpk(strong_king, pawn, lone_king, int(strong), int(strong_to_move))))


def knights_catch_passer(pawn, pawn_color, pawn_to_move, knights):
    """True if knights (an int bitboard) catch the passed pawn."""
    return bool(_check(_lib.mk_knights_catch_passer(pawn, int(pawn_color), int(pawn_to_move),
                                                    knights)))


def passer_unstoppable(pawn, pawn_color, pawn_to_move, king=None, knights=0):
    """True if neither the defending king (None: no king) nor the knights stop the pawn."""
    return bool(_check(_lib.mk_passer_unstoppable(pawn, int(pawn_color), int(pawn_to_move),
                                                  64 if king is None else king, knights)))
