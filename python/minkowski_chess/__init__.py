"""Minkowski's chess evaluation for Python.

Evaluate FENs or python-chess boards one at a time or in batches straight into NumPy arrays
(the work runs in Rust on several threads with the GIL released), read and change every weight
of the evaluation by name, and use its distance-based endgame knowledge one term at a time.

>>> import minkowski_chess as mk
>>> mk.evaluate("8/8/8/3k4/8/8/8/KQ6 w - - 0 1") > 5000      # a known win, side to move's view
True
>>> values = mk.evaluate_many(["8/8/8/3k4/8/8/8/KQ6 w - - 0 1", "8/8/8/3k4/8/8/8/KQ6 b - - 0 1"])
>>> values.dtype, bool(values[0] == -values[1])
(dtype('int32'), True)

Values are centipawns from the side to move's point of view, the numbers `minkowski eval`
prints and the C library returns. Positions are FEN strings (Shredder-FEN and X-FEN accepted)
or boards: a ``chess.Board`` is read through its public attributes (python-chess is not
imported unless you give it one), any other object through its ``fen()`` method.
"""

from __future__ import annotations

import sys
from collections import namedtuple
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from operator import index as _as_int
from os import PathLike
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union

import numpy as np

from . import _native
from ._native import PositionError

if sys.version_info >= (3, 11):
    import tomllib as _toml
else:  # pragma: no cover - depends on the interpreter
    import tomli as _toml

__all__ = [
    "Evaluator",
    "PositionError",
    "Trace",
    "TraceArrays",
    "WeightInfo",
    "Weights",
    "evaluate",
    "evaluate_many",
    "trace",
    "trace_many",
    "kbnk_score",
    "king_distance",
    "knight_distance",
    "knight_fill",
    "knight_fork_jumps",
    "knight_fork_squares",
    "knights_catch_passer",
    "kpk",
    "manhattan_distance",
    "mop_up",
    "passer_unstoppable",
]

__version__: str = _native.__version__

#: A position: a FEN string, a ``chess.Board``, or any object with a ``fen()`` method.
Position = Any

Pair = Tuple[int, int]

_ERRORS = ("raise", "mask")


class Trace(NamedTuple):
    """One evaluation term by term.

    rows: ``(name, white_mg, white_eg, black_mg, black_eg)`` per term, in the order of
    ``Evaluator.trace_rows()``; phase: 0 (bare kings) .. max_phase (all pieces); total: the
    value (side to move's view); endgame: the specialised endgame evaluator's code or None.
    """

    rows: List[Tuple[str, int, int, int, int]]
    phase: int
    max_phase: int
    total: int
    white_to_move: bool
    endgame: Optional[str]


class TraceArrays(NamedTuple):
    """Traces of a batch as arrays.

    names: the row names; terms: int32, shape ``(n, len(names), 2, 2)`` indexed
    ``[position, row, colour (0 White, 1 Black), half (0 mg, 1 eg)]``; phase and total: int32,
    shape ``(n,)``; endgame: the endgame evaluator's code per position ("" for none).
    """

    names: Tuple[str, ...]
    terms: np.ndarray
    phase: np.ndarray
    total: np.ndarray
    endgame: List[str]


class WeightInfo(NamedTuple):
    """What the library declares about a weight: its range (both halves), doc and trace row."""

    name: str
    default: Pair
    low: int
    high: int
    doc: str
    term: str


def _count(value: Any, what: str, low: int, high: int = 2**63 - 1) -> int:
    """``value`` as an int from ``low`` to ``high``: TypeError or ValueError otherwise (never
    the OverflowError a too large number would give on the way into Rust)."""
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an int, not bool")
    try:
        number = _as_int(value)
    except TypeError:
        raise TypeError(f"{what} must be an int, not {type(value).__name__}") from None
    if not low <= number <= high:
        raise ValueError(f"{what} must be from {low} to {high}, not {number}")
    return number


def _threads(threads: Optional[int]) -> Optional[int]:
    return None if threads is None else _count(threads, "threads", 1)


def _check_errors(errors: str) -> None:
    if errors not in _ERRORS:
        raise ValueError(f"errors must be 'raise' or 'mask', not {errors!r}")


def _failures(values: np.ndarray, indices: List[int], messages: List[str],
              errors: str) -> np.ndarray:
    """The values, or PositionError naming every bad position; with errors="mask" always a
    masked array (so that the type does not depend on the data)."""
    if errors == "mask":
        mask = np.zeros(values.shape[0], dtype=bool)
        mask[indices] = True
        return np.ma.MaskedArray(values, mask=np.broadcast_to(
            mask.reshape((-1,) + (1,) * (values.ndim - 1)), values.shape).copy())
    if not indices:
        return values
    shown = "; ".join(f"[{i}] {m}" for i, m in zip(indices[:3], messages[:3]))
    more = f" (and {len(indices) - 3} more)" if len(indices) > 3 else ""
    error = PositionError(f"{len(indices)} of {values.shape[0]} positions failed: {shown}{more}")
    error.indices = list(indices)
    error.messages = list(messages)
    error.values = values
    raise error


class Weights(MutableMapping[str, Pair]):
    """Every weight of the evaluation by name: ``name -> (mg, eg)`` centipawns.

    The keys are always all the evaluation's weights (the names of engine.toml's ``[eval]``
    table), in the library's order. Setting checks the value: an unknown name is a KeyError, a
    value that is not two integers a TypeError, a half outside the weight's declared range a
    ValueError. Deleting a weight *resets it to its built-in value* (the evaluation always has
    every weight, so the name stays a key); ``clear()`` resets them all and ``popitem()`` is
    not supported.

    >>> w = Weights()
    >>> "tempo" in w, "dragon" in w
    (True, False)
    >>> w["tempo"] = (30, 10)
    >>> w["tempo"]
    (30, 10)
    >>> w.changed()
    {'tempo': (30, 10)}
    >>> del w["tempo"]                  # back to the built-in value
    >>> w.changed()
    {}
    >>> w["tempo"] = (500, 0)
    Traceback (most recent call last):
    ...
    ValueError: tempo: [500, 0] is out of range: mg and eg must be from -100 to 100
    """

    __slots__ = ("_table",)

    def __init__(self, values: Union[Mapping[str, Pair], Iterable[Tuple[str, Pair]], None] = None,
                 /, **named: Pair) -> None:
        self._table = _native.WeightTable()
        if values is not None:
            self.update(values)
        self.update(named)

    # The mapping protocol.
    def __getitem__(self, name: str) -> Pair:
        if not isinstance(name, str):
            raise KeyError(name)
        return self._table.get(name)

    def __setitem__(self, name: str, value: Pair) -> None:
        if not isinstance(name, str):
            raise KeyError(name)
        try:
            if isinstance(value, (str, bytes)) or len(value) != 2 or any(
                    isinstance(half, bool) for half in value):
                raise TypeError
            mg, eg = (_as_int(half) for half in value)
        except TypeError:
            raise TypeError(f"{name}: a weight is a pair (mg, eg) of ints, not {value!r}") from None
        if not all(-2**31 <= half < 2**31 for half in (mg, eg)):
            info = Weights.describe(name)  # KeyError first for an unknown name
            raise ValueError(f"{name}: [{mg}, {eg}] is out of range: mg and eg must be from "
                             f"{info.low} to {info.high}")
        self._table.set(name, mg, eg)

    def __delitem__(self, name: str) -> None:
        if not isinstance(name, str):
            raise KeyError(name)
        self._table.set(name, *_native.WeightTable.default(name))

    def __iter__(self) -> Iterator[str]:
        return iter(_NAMES)

    def __len__(self) -> int:
        return len(_NAMES)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in _NAME_SET

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Weights):
            return self._table == other._table
        return super().__eq__(other)

    def __repr__(self) -> str:
        changed = self.changed()
        return f"<Weights: {len(self)} weights, {len(changed)} changed from the built-in values>"

    def clear(self) -> None:
        """Every weight back to its built-in value."""
        self._table = _native.WeightTable()

    def popitem(self) -> Tuple[str, Pair]:
        """Not supported: every weight always exists (``del w[name]`` resets one)."""
        raise KeyError("Weights cannot drop keys; del w[name] resets a weight")

    def copy(self) -> Weights:
        """An independent copy."""
        new = Weights()
        new._table = self._table.copy()
        return new

    # Beyond the mapping.
    def changed(self) -> Dict[str, Pair]:
        """The weights that differ from the built-in values, ``{name: (mg, eg)}``."""
        flat, default = self._table.values(), _DEFAULT_VALUES
        return {name: (flat[2 * i], flat[2 * i + 1]) for i, name in enumerate(_NAMES)
                if flat[2 * i] != default[2 * i] or flat[2 * i + 1] != default[2 * i + 1]}

    @staticmethod
    def describe(name: str) -> WeightInfo:
        """The declaration of weight ``name`` (KeyError if there is none).

        >>> Weights.describe("tempo").low, Weights.describe("tempo").term
        (-100, 'Tempo')
        """
        low, high, doc, term = _native.WeightTable.describe(name)
        return WeightInfo(name, _native.WeightTable.default(name), low, high, doc, term)

    # engine.toml.
    @classmethod
    def load(cls, path: Union[str, "PathLike[str]"]) -> Weights:
        """The built-in weights with engine.toml's ``[eval]`` table at ``path`` applied."""
        with open(path, "rb") as f:
            data = f.read()
        return cls.from_toml(data.decode("utf-8"), source=str(path))

    @classmethod
    def from_toml(cls, text: str, source: str = "<text>") -> Weights:
        """As ``load``, from the text of an engine.toml file.

        As the engine does, a file with any problem is not applied at all: a ValueError lists
        every problem (unknown table, unknown weight, value not ``[mg, eg]``, out of range).
        The ``[uci]`` table is the engine's and is not read here.

        >>> Weights.from_toml('[eval]\\n"material.knight" = [300, 310]\\n')["material.knight"]
        (300, 310)
        >>> Weights.from_toml('[eval]\\nknight = [1, 2]\\n')
        Traceback (most recent call last):
        ...
        ValueError: <text>: [eval] knight: unknown evaluation weight
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, not {type(text).__name__}")
        try:
            document = _toml.loads(text)
        except _toml.TOMLDecodeError as e:
            raise ValueError(f"{source}: {e}") from None
        problems = [f"{source}: unknown table [{t}] (known: [uci], [eval])"
                    for t in document if t not in ("uci", "eval")]
        table = document.get("eval", {})
        if not isinstance(table, dict):
            problems.append(f"{source}: eval must be a table")
            table = {}
        weights = cls()
        for name, value in table.items():
            if name not in _NAME_SET:
                problems.append(f"{source}: [eval] {name}: unknown evaluation weight")
                continue
            if not (isinstance(value, list) and len(value) == 2
                    and all(type(v) is int for v in value)):
                problems.append(f"{source}: [eval] {name}: must be [mg, eg]: two whole numbers")
                continue
            try:
                weights[name] = (value[0], value[1])
            except ValueError as e:
                problems.append(f"{source}: [eval] {e}")
        if problems:
            raise ValueError("\n".join(problems))
        return weights

    def to_toml(self, only_changed: bool = False, header: str = "") -> str:
        """An engine.toml ``[eval]`` table (every weight, or only the changed ones), that
        ``minkowski --config`` and ``Weights.load`` read back as it is; ``header`` becomes
        comment lines.

        >>> w = Weights(tempo=(40, 12))
        >>> print(w.to_toml(only_changed=True, header="my fit"))
        # my fit
        [eval]
        # tempo: Bonus for the side to move (it gets to act first).
        tempo = [40, 12]
        <BLANKLINE>
        """
        lines = [f"# {line}" for line in header.splitlines()] + ["[eval]"]
        chosen = self.changed() if only_changed else None
        flat = self._table.values()
        last_field = None
        for i, name in enumerate(_NAMES):
            if chosen is not None and name not in chosen:
                continue
            field = name.split(".", 1)[0]
            if field != last_field:
                lines.append(f"# {field}: {Weights.describe(name).doc}")
                last_field = field
            key = f'"{name}"' if "." in name else name
            lines.append(f"{key} = [{flat[2 * i]}, {flat[2 * i + 1]}]")
        return "\n".join(lines) + "\n"

    def save(self, path: Union[str, "PathLike[str]"], only_changed: bool = False,
             header: str = "") -> None:
        """Writes ``to_toml(only_changed, header)`` to ``path`` (a whole engine.toml file)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_toml(only_changed, header))


_NAMES: Tuple[str, ...] = tuple(_native.WeightTable.names())
_NAME_SET = frozenset(_NAMES)
_DEFAULT_VALUES = _native.WeightTable().values()


def _table(weights: Optional[Mapping[str, Pair]]) -> Optional[_native.WeightTable]:
    if weights is None:
        return None
    if isinstance(weights, Weights):
        return weights._table
    if isinstance(weights, Mapping):
        return Weights(weights)._table
    raise TypeError(f"weights must be a Weights (or a mapping of name to (mg, eg)), "
                    f"not {type(weights).__name__}")


class Evaluator:
    """The evaluation with one set of weights, and pawn-king caches that make it faster.

    The weights are copied when the evaluator is made: changing the ``Weights`` afterwards does
    not change it (make a new one). One evaluator may be shared by any number of threads: each
    call takes its own cache from an internal pool (locked only to hand a cache out or back),
    so calls run in parallel and give the same numbers as calls one at a time.

    >>> e = Evaluator(Weights({"material.knight": (300, 300)}))
    >>> fen = "4k3/pp6/8/8/8/8/PP6/1N2K3 w - - 0 1"
    >>> e.evaluate(fen) < evaluate(fen)      # a cheaper knight
    True
    >>> e.weights["material.knight"]
    (300, 300)
    """

    __slots__ = ("_native",)

    def __init__(self, weights: Optional[Mapping[str, Pair]] = None, *,
                 cache_kib: int = 512) -> None:
        self._native = _native.Evaluator(_table(weights), _count(cache_kib, "cache_kib", 0))

    @property
    def weights(self) -> Weights:
        """A copy of the weights in use."""
        w = Weights()
        w._table = self._native.weight_table()
        return w

    def evaluate(self, position: Position) -> int:
        """Centipawns, side to move's view; PositionError if ``position`` is not legal.

        >>> Evaluator().evaluate("8/8/8/4k3/8/8/8/4K3 w - - 0 1")  # bare kings: a dead draw
        0
        """
        return self._native.evaluate(position)

    def evaluate_many(self, positions: Iterable[Position], *, threads: Optional[int] = None,
                      errors: str = "raise") -> np.ndarray:
        """The values of many positions as an int32 array, in order.

        The positions are read from Python first (FENs are copied, boards read attribute by
        attribute), then parsed and evaluated in Rust on ``threads`` threads (default: every
        core the process may use) with the GIL released.

        A bad position does not lose the rest. ``errors="raise"`` (default): after the whole
        batch, PositionError whose ``.indices`` and ``.messages`` name every bad position and
        whose ``.values`` holds every result (0 at the bad ones). ``errors="mask"``: a
        ``numpy.ma.MaskedArray`` (always, even when nothing failed) with the bad positions
        masked.

        >>> good = "8/8/8/4k3/8/8/8/4K3 w - - 0 1"
        >>> try:
        ...     evaluate_many([good, "not a fen", good])
        ... except PositionError as e:
        ...     print(e.indices, e.values.tolist())
        [1] [0, 0, 0]
        >>> evaluate_many([good, "not a fen"], errors="mask").mask.tolist()
        [False, True]
        """
        _check_errors(errors)
        values, indices, messages = self._native.evaluate_many(positions, _threads(threads))
        return _failures(values, indices, messages, errors)

    def trace(self, position: Position) -> Trace:
        """Every term of the evaluation, White and Black, middlegame and endgame.

        >>> t = Evaluator().trace("8/8/8/4k3/8/8/8/KBN5 w - - 0 1")
        >>> t.endgame, t.phase, t.total == evaluate("8/8/8/4k3/8/8/8/KBN5 w - - 0 1")
        ('KBNK', 2, True)
        """
        return Trace(*self._native.trace(position))

    def trace_many(self, positions: Iterable[Position], *, threads: Optional[int] = None,
                   errors: str = "raise") -> TraceArrays:
        """Traces of many positions as arrays (see TraceArrays); errors as evaluate_many,
        with ``.values`` (or the masks) on the ``total`` array."""
        _check_errors(errors)
        terms, phase, total, endgame, indices, messages = self._native.trace_many(
            positions, _threads(threads))
        names = _TRACE_ROWS
        terms = terms.reshape((-1, len(names), 2, 2))
        if errors == "raise":
            _failures(total, indices, messages, errors)
        else:
            terms, phase, total = (_failures(a, indices, messages, errors)
                                   for a in (terms, phase, total))
        return TraceArrays(names, terms, phase, total, endgame)

    @staticmethod
    def trace_rows() -> Tuple[str, ...]:
        """The names of the trace's rows, in order."""
        return _TRACE_ROWS


_TRACE_ROWS: Tuple[str, ...] = tuple(_native.Evaluator.trace_rows())
# The module functions' evaluator: shared by every thread (it is thread-safe).
_DEFAULT = Evaluator()


def _evaluator(weights: Optional[Mapping[str, Pair]]) -> Evaluator:
    # A one-off evaluator gets no cache: filling one would cost more than it saves.
    return _DEFAULT if weights is None else Evaluator(weights, cache_kib=0)


def evaluate(position: Position, weights: Optional[Mapping[str, Pair]] = None) -> int:
    """Centipawns, side to move's view, with the built-in weights or ``weights``.

    For many calls with the same weights, make an ``Evaluator`` once.

    >>> evaluate("8/8/8/4k3/8/8/8/4K3 w - - 0 1")
    0
    """
    return _evaluator(weights).evaluate(position)


def evaluate_many(positions: Iterable[Position], weights: Optional[Mapping[str, Pair]] = None,
                  *, threads: Optional[int] = None, errors: str = "raise") -> np.ndarray:
    """``Evaluator(weights).evaluate_many(positions, threads=, errors=)``."""
    return _evaluator(weights).evaluate_many(positions, threads=threads, errors=errors)


def trace(position: Position, weights: Optional[Mapping[str, Pair]] = None) -> Trace:
    """``Evaluator(weights).trace(position)``."""
    return _evaluator(weights).trace(position)


def trace_many(positions: Iterable[Position], weights: Optional[Mapping[str, Pair]] = None,
               *, threads: Optional[int] = None, errors: str = "raise") -> TraceArrays:
    """``Evaluator(weights).trace_many(positions, threads=, errors=)``."""
    return _evaluator(weights).trace_many(positions, threads=threads, errors=errors)


# The distance knowledge one term at a time. Squares are python-chess's (a1 = 0 .. h8 = 63),
# square sets are ints (bit i = square i, as chess.BB_*), colours are chess.WHITE/chess.BLACK.
def _sq(square: int) -> int:
    return _count(square, "square", 0, 63)


def _bb(squares: int) -> int:
    return _count(squares, "square set", 0, 2**64 - 1)


def king_distance(a: int, b: int) -> int:
    """King moves between two squares on an empty board.

    >>> import chess
    >>> king_distance(chess.A1, chess.H8), manhattan_distance(chess.A1, chess.H8)
    (7, 14)
    """
    return _native.king_distance(_sq(a), _sq(b))


def manhattan_distance(a: int, b: int) -> int:
    """Files apart plus ranks apart."""
    return _native.manhattan_distance(_sq(a), _sq(b))


def knight_distance(a: int, b: int) -> int:
    """Knight moves between two squares on an empty board."""
    return _native.knight_distance(_sq(a), _sq(b))


def knight_fill(knights: int) -> int:
    """The knights' squares plus every square one knight move away (a square set)."""
    return _native.knight_fill(_bb(knights))


def knight_fork_squares(targets: int) -> int:
    """Squares from which a knight attacks two or more of ``targets``.

    >>> import chess
    >>> knight_fork_squares(chess.BB_E8 | chess.BB_A8) == chess.BB_C7
    True
    """
    return _native.knight_fork_squares(_bb(targets))


def knight_fork_jumps(knights: int, targets: int, avoid: int = 0) -> int:
    """Fork squares of ``targets`` one knight move from ``knights``, outside ``avoid``."""
    return _native.knight_fork_jumps(_bb(knights), _bb(targets), _bb(avoid))


def mop_up(strong_king: int, lone_king: int,
           weights: Optional[Mapping[str, Pair]] = None) -> Pair:
    """The mop-up bonus (mg, eg) for the strong side: lone king to the edge, kings close."""
    return _native.mop_up(_sq(strong_king), _sq(lone_king), _table(weights))


def kbnk_score(strong_king: int, lone_king: int, bishop: int, knight: int,
               lone_king_to_move: bool, weights: Optional[Mapping[str, Pair]] = None) -> Pair:
    """King, bishop and knight against king as Minkowski scores it (mg, eg), strong side's
    view, the strong side White."""
    return _native.kbnk_score(_sq(strong_king), _sq(lone_king), _sq(bishop), _sq(knight),
                              bool(lone_king_to_move), _table(weights))


def kpk(strong_king: int, pawn: int, lone_king: int, strong: bool = True,
        strong_to_move: bool = True) -> bool:
    """The exact KPK verdict: True if the side with the pawn wins.

    >>> import chess
    >>> kpk(chess.E5, chess.E4, chess.E7, chess.WHITE, strong_to_move=False)
    True
    """
    return _native.kpk(_sq(strong_king), _sq(pawn), _sq(lone_king), bool(strong),
                       bool(strong_to_move))


def knights_catch_passer(pawn: int, pawn_color: bool, pawn_to_move: bool, knights: int) -> bool:
    """True if knights (a square set) catch the passed pawn."""
    return _native.knights_catch_passer(_sq(pawn), bool(pawn_color), bool(pawn_to_move),
                                        _bb(knights))


def passer_unstoppable(pawn: int, pawn_color: bool, pawn_to_move: bool,
                       king: Optional[int] = None, knights: int = 0) -> bool:
    """True if neither the defending king (None: no king) nor the knights stop the pawn."""
    return _native.passer_unstoppable(_sq(pawn), bool(pawn_color), bool(pawn_to_move),
                                      None if king is None else _sq(king), _bb(knights))
