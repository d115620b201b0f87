#!/usr/bin/env python3
"""Fit the win/draw/loss model (src/wdl/mod.rs) to real games: the outcomes of cutechess-cli or
match.py PGNs whose move comments carry our engine's score (``{+0.35/17 0.21s}``).

    python3 scripts/wdl-fit.py GAMES.pgn [...] [--player NAME] [--min-ply 16] [--holdout 0.2]

Every move of ours (the players named by ``--player``, both sides in self-play; default: any
name starting with "Minkowski", or "mk") from ply 16 on (python-chess's ply: from the FEN's move number) with a
centipawn score is one observation: the score (the mover's view, as the engine printed it), the
material on the board before the move (pawn 1, knight and bishop 3, rook 5, queen 9, both sides:
``minkowski::wdl::material``) and the game's result from the mover's side. Mate scores and scores
beyond ``--max-score`` are left out. Each opening (the PGN's ``Opening`` tag, else its ``FEN``,
else its first eight moves) weighs one in all, shared by its observations, so that no opening
(nor a long game) dominates.

The model keeps the engine's form: ``P(win) = 1 / (1 + exp((a(m) - s) / b(m)))``, the loss
chance the win chance of ``-s``, the draw chance the rest, ``a`` and ``b`` cubics in
``clamp(m, 17, 78) / 58`` with ``a >= 0`` and ``b >= 1``. It is fitted by maximum likelihood
(Fisher scoring with a Levenberg damping, from the best model blind to the material) on the
openings that a hash keeps for fitting; the rest (``--holdout``, by opening) are scored:
log loss of the outcome frequencies alone, of the shipped model (``WdlModel::FITTED``, read from
src/wdl/mod.rs) and of the fit, and a calibration table by score band (predicted against seen
win, draw and loss). The last lines are the fit as ``WdlModel::FITTED``'s Rust text.

Only the standard library and python-chess. Its test: scripts/test-wdl-fit.py.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import zlib
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

import chess
import chess.pgn

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
WDL_SOURCE = os.path.join(ROOT, "src", "wdl", "mod.rs")

# src/wdl/mod.rs: MATERIAL_MIN, MATERIAL_MAX, MATERIAL_ANCHOR and MIN_SPREAD.
MATERIAL_MIN = 17
MATERIAL_MAX = 78
MATERIAL_ANCHOR = 58.0
MIN_SPREAD = 1.0

# The worth of each piece in the model's material count (minkowski::wdl::material).
WORTH = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}

WIN, DRAW, LOSS = 0, 1, 2
OUTCOME_NAMES = ("win", "draw", "loss")

# Score bands of the calibration table (centipawns, the mover's view): edges between bands.
BAND_EDGES = (-300, -150, -50, 50, 150, 300)

# A score in a move comment: "+0.35/17 0.21s", " -1.20/15 0.09s, ...", "+M16/20" (mates).
COMMENT_SCORE = re.compile(r"^\s*([+-]?)(M?)(\d+(?:\.\d+)?)/\d+")


@dataclass(frozen=True)
class Observation:
    """One move of ours: its score (cp, the mover's view), the material before it, the game's
    result from the mover's side, its weight and the opening it came from."""

    score: float
    material: int
    outcome: int
    weight: float
    opening: str


@dataclass
class Model:
    """``a`` and ``b`` as cubics in ``x = clamp(m) / 58``, highest power first (as in Rust)."""

    a: List[float]
    b: List[float]

    def params(self, material: int) -> Tuple[float, float]:
        x = min(max(material, MATERIAL_MIN), MATERIAL_MAX) / MATERIAL_ANCHOR
        return max(cubic(self.a, x), 0.0), max(cubic(self.b, x), MIN_SPREAD)

    def chances(self, score: float, material: int) -> Tuple[float, float, float]:
        """(win, draw, loss) for ``score`` with ``material`` on the board."""
        a, b = self.params(material)
        win = logistic((score - a) / b)
        loss = logistic((-score - a) / b)
        return win, max(1.0 - win - loss, 0.0), loss

    def rust(self) -> str:
        fmt = lambda c: ", ".join(f"{v:.4f}" for v in c)  # noqa: E731
        return ("    pub const FITTED: WdlModel = WdlModel {\n"
                f"        a: [{fmt(self.a)}],\n        b: [{fmt(self.b)}],\n    }};")


def cubic(c: Sequence[float], x: float) -> float:
    return ((c[0] * x + c[1]) * x + c[2]) * x + c[3]


def logistic(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def shipped_model(path: str = WDL_SOURCE) -> Model:
    """``WdlModel::FITTED`` as src/wdl/mod.rs declares it."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"pub const FITTED: WdlModel = WdlModel \{\s*a: \[([^\]]*)\],\s*b: \[([^\]]*)\]",
                  text)
    if not m:
        raise SystemExit(f"{path}: no `pub const FITTED: WdlModel` found")
    return Model([float(v) for v in m.group(1).split(",")], [float(v) for v in m.group(2).split(",")])


def material(board: chess.Board) -> int:
    return sum(worth * len(board.pieces(piece, color))
               for piece, worth in WORTH.items() for color in chess.COLORS)


def comment_score(comment: str) -> Optional[float]:
    """The centipawn score of a move comment; None for a mate, a book move or no score."""
    m = COMMENT_SCORE.match(comment)
    if not m or m.group(2):
        return None
    value = float(m.group(3)) * 100.0
    return -value if m.group(1) == "-" else value


def default_is_ours(name: str) -> bool:
    return name.lower().startswith("minkowski") or name == "mk"


def opening_key(game: chess.pgn.Game) -> str:
    if game.headers.get("Opening"):
        return "opening:" + game.headers["Opening"]
    if game.headers.get("FEN"):
        return "fen:" + game.headers["FEN"]
    return "moves:" + " ".join(m.uci() for m in list(game.mainline_moves())[:8])


def game_observations(game: chess.pgn.Game, is_ours, min_ply: int, max_score: float
                      ) -> List[Tuple[float, int, int]]:
    """(score, material, outcome) for every scored move of ours from ``min_ply`` on."""
    result = game.headers.get("Result", "*")
    if result not in ("1-0", "0-1", "1/2-1/2"):
        return []
    # Both sides in self-play (two builds of ours): each move's score against its own result.
    ours = {color for color, tag in ((chess.WHITE, "White"), (chess.BLACK, "Black"))
            if is_ours(game.headers.get(tag, ""))}
    if not ours:
        return []
    out = []
    board = game.board()
    for node in game.mainline():
        mover = board.turn
        if mover in ours and board.ply() >= min_ply:
            score = comment_score(node.comment)
            if score is not None and abs(score) <= max_score:
                if result == "1/2-1/2":
                    outcome = DRAW
                else:
                    white_won = result == "1-0"
                    outcome = WIN if white_won == (mover == chess.WHITE) else LOSS
                out.append((score, material(board), outcome))
        board.push(node.move)
    return out


def read_games(paths: Iterable[str], is_ours=default_is_ours, min_ply: int = 16,
               max_score: float = 2000.0) -> List[Observation]:
    """Every observation of the PGNs at ``paths``, each opening weighing one in all."""
    by_opening: Dict[str, List[Tuple[float, int, int]]] = {}
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                rows = game_observations(game, is_ours, min_ply, max_score)
                if rows:
                    by_opening.setdefault(opening_key(game), []).extend(rows)
    return [Observation(s, m, o, 1.0 / len(rows), key)
            for key, rows in by_opening.items() for s, m, o in rows]


def held_out(opening: str, fraction: float) -> bool:
    """Whether an opening belongs to the held-out share (a hash: the same split every run)."""
    return (zlib.crc32(opening.encode("utf-8")) % 10000) < fraction * 10000


# --- maximum likelihood ---------------------------------------------------------------------

def log_loss(model: Model, data: Sequence[Observation]) -> float:
    """Weighted mean of -log P(outcome), nats a position."""
    total = weight = 0.0
    for o in data:
        p = model.chances(o.score, o.material)[o.outcome]
        total -= o.weight * math.log(max(p, 1e-12))
        weight += o.weight
    return total / weight if weight else float("nan")


def frequency_log_loss(freq: Sequence[float], data: Sequence[Observation]) -> float:
    total = weight = 0.0
    for o in data:
        total -= o.weight * math.log(max(freq[o.outcome], 1e-12))
        weight += o.weight
    return total / weight if weight else float("nan")


def outcome_frequencies(data: Sequence[Observation]) -> List[float]:
    counts = [0.0, 0.0, 0.0]
    for o in data:
        counts[o.outcome] += o.weight
    total = sum(counts) or 1.0
    return [c / total for c in counts]


def _gradient_and_fisher(model: Model, data: Sequence[Observation], free: Sequence[int]):
    """Gradient of the weighted log-likelihood and its Fisher information, over the free
    coefficients (0..3: a's, highest power first; 4..7: b's)."""
    n = len(free)
    grad = [0.0] * n
    fisher = [[0.0] * n for _ in range(n)]
    for o in data:
        x = min(max(o.material, MATERIAL_MIN), MATERIAL_MAX) / MATERIAL_ANCHOR
        powers = (x ** 3, x ** 2, x, 1.0)
        a_raw, b_raw = cubic(model.a, x), cubic(model.b, x)
        a, b = max(a_raw, 0.0), max(b_raw, MIN_SPREAD)
        u, v = (o.score - a) / b, (-o.score - a) / b
        pw, pl = logistic(u), logistic(v)
        pd = max(1.0 - pw - pl, 1e-12)
        sw, sl = pw * (1.0 - pw), pl * (1.0 - pl)
        # d(p)/d(a), d(p)/d(b) for win, loss and draw; zero where a clamp holds.
        da = a_raw > 0.0
        db = b_raw > MIN_SPREAD
        dw = (-sw / b if da else 0.0, -sw * u / b if db else 0.0)
        dl = (-sl / b if da else 0.0, -sl * v / b if db else 0.0)
        dd = (-dw[0] - dl[0], -dw[1] - dl[1])
        probs = ((max(pw, 1e-12), dw), (pd, dd), (max(pl, 1e-12), dl))
        # Per observation: the score of (a, b) and its expected information (2x2).
        p_seen, d_seen = probs[o.outcome]
        score_ab = (d_seen[0] / p_seen, d_seen[1] / p_seen)
        info = [[0.0, 0.0], [0.0, 0.0]]
        for p, d in probs:
            for i in range(2):
                for j in range(2):
                    info[i][j] += d[i] * d[j] / p
        # Chain to the coefficients: d(a)/d(A_k) = powers[k], the same for b.
        jac = [(0, powers[k]) if k < 4 else (1, powers[k - 4]) for k in free]
        for i, (pi, xi) in enumerate(jac):
            grad[i] += o.weight * score_ab[pi] * xi
            for j, (pj, xj) in enumerate(jac):
                fisher[i][j] += o.weight * info[pi][pj] * xi * xj
    return grad, fisher


def _solve(matrix: List[List[float]], rhs: List[float]) -> List[float]:
    """Gaussian elimination with partial pivoting (a small, damped, positive system)."""
    n = len(rhs)
    m = [row[:] + [rhs[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-300:
            raise ArithmeticError("singular system")
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    out = [0.0] * n
    for r in range(n - 1, -1, -1):
        out[r] = (m[r][n] - sum(m[r][c] * out[c] for c in range(r + 1, n))) / m[r][r]
    return out


def _with(model: Model, free: Sequence[int], step: Sequence[float]) -> Model:
    coefs = model.a + model.b
    for k, d in zip(free, step):
        coefs[k] += d
    return Model(coefs[:4], coefs[4:])


def fit(data: Sequence[Observation], start: Model, free: Sequence[int] = range(8),
        iterations: int = 100) -> Model:
    """Maximum likelihood of ``data`` over the ``free`` coefficients, from ``start``: Fisher
    scoring, the damping raised until a step lowers the log loss."""
    model = Model(list(start.a), list(start.b))
    free = list(free)
    loss = log_loss(model, data)
    damping = 1e-6
    for _ in range(iterations):
        grad, fisher = _gradient_and_fisher(model, data, free)
        improved = False
        while damping < 1e12:
            system = [[fisher[i][j] + (damping * fisher[i][i] + 1e-9 if i == j else 0.0)
                       for j in range(len(free))] for i in range(len(free))]
            try:
                step = _solve(system, grad)
            except ArithmeticError:
                damping *= 10.0
                continue
            candidate = _with(model, free, step)
            candidate_loss = log_loss(candidate, data)
            if candidate_loss < loss:
                converged = loss - candidate_loss < 1e-10
                model, loss, improved = candidate, candidate_loss, True
                damping = max(damping / 10.0, 1e-9)
                break
            damping *= 10.0
        if not improved or converged:
            break
    return model


def fit_from_flat(data: Sequence[Observation]) -> Model:
    """The best model blind to the material (constant ``a`` and ``b``), then all eight
    coefficients from it."""
    flat = fit(data, Model([0.0, 0.0, 0.0, 100.0], [0.0, 0.0, 0.0, 100.0]), free=(3, 7))
    return fit(data, flat)


# --- reports --------------------------------------------------------------------------------

def band_of(score: float) -> int:
    """The band of a score; symmetric: -50 and +50 both belong to the level band -50..50."""
    return sum(score >= edge if edge < 0 else score > edge for edge in BAND_EDGES)


def band_name(i: int) -> str:
    lo = BAND_EDGES[i - 1] if i > 0 else None
    hi = BAND_EDGES[i] if i < len(BAND_EDGES) else None
    if lo is None:
        return f"< {hi}"
    if hi is None:
        return f"> {lo}"
    return f"{lo}..{hi}"


def calibration(data: Sequence[Observation], models: Dict[str, Model]):
    """Per score band: positions, weight, the seen shares and each model's mean prediction."""
    rows = []
    for i in range(len(BAND_EDGES) + 1):
        band = [o for o in data if band_of(o.score) == i]
        weight = sum(o.weight for o in band)
        seen = [sum(o.weight for o in band if o.outcome == k) / weight if weight else float("nan")
                for k in range(3)]
        predicted = {}
        for name, model in models.items():
            sums = [0.0, 0.0, 0.0]
            for o in band:
                for k, p in enumerate(model.chances(o.score, o.material)):
                    sums[k] += o.weight * p
            predicted[name] = [s / weight if weight else float("nan") for s in sums]
        rows.append({"band": band_name(i), "positions": len(band), "weight": weight,
                     "seen": seen, "predicted": predicted})
    return rows


def pct(shares: Sequence[float]) -> str:
    return " / ".join("  -" if math.isnan(s) else f"{100 * s:3.0f}" for s in shares)


def report(fitting: Sequence[Observation], holdout: Sequence[Observation], shipped: Model,
           fitted: Model, out=sys.stdout) -> None:
    freq = outcome_frequencies(fitting)
    scored = holdout if holdout else fitting
    which = "held-out" if holdout else "fitting (nothing held out)"
    print(f"log loss on the {which} positions, nats a position (weighted):", file=out)
    print(f"  outcome frequencies alone  {frequency_log_loss(freq, scored):.4f}"
          f"  (win/draw/loss {pct(freq)} %)", file=out)
    print(f"  shipped model              {log_loss(shipped, scored):.4f}", file=out)
    print(f"  fitted model               {log_loss(fitted, scored):.4f}", file=out)
    print(f"\ncalibration on the {which} positions, win / draw / loss %"
          " (score: cp, the mover's view):", file=out)
    print(f"  {'score':>10} {'moves':>6}  {'seen':>13}  {'shipped':>13}  {'fitted':>13}", file=out)
    for row in calibration(scored, {"shipped": shipped, "fitted": fitted}):
        print(f"  {row['band']:>10} {row['positions']:>6}  {pct(row['seen']):>13}  "
              f"{pct(row['predicted']['shipped']):>13}  {pct(row['predicted']['fitted']):>13}",
              file=out)
    print("\nthe fit (a, b in cp by material; src/wdl/mod.rs):", file=out)
    for m in (20, 30, 40, 50, 60, 70, 78):
        a, b = fitted.params(m)
        w, d, l = fitted.chances(0.0, m)
        print(f"  material {m:2}: a {a:7.1f}  b {b:6.1f}  level score: draw {100 * d:3.0f} %",
              file=out)
    print(fitted.rust(), file=out)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+", help="PGN files (cutechess-cli or match.py)")
    ap.add_argument("--player", action="append",
                    help="our engine's name in the PGN (repeatable; default: Minkowski*, mk)")
    ap.add_argument("--min-ply", type=int, default=16, help="first ply that counts (16)")
    ap.add_argument("--max-score", type=float, default=2000.0,
                    help="leave out scores beyond this many cp (2000)")
    ap.add_argument("--holdout", type=float, default=0.2,
                    help="share of the openings held out for scoring (0.2)")
    args = ap.parse_args(argv)
    names = set(args.player or ())
    is_ours = (lambda n: n in names) if names else default_is_ours
    data = read_games(args.pgn, is_ours, args.min_ply, args.max_score)
    if not data:
        print("no scored moves of ours found (see --player)", file=sys.stderr)
        return 1
    holdout = [o for o in data if held_out(o.opening, args.holdout)]
    fitting = [o for o in data if not held_out(o.opening, args.holdout)]
    if not fitting:
        print("every opening is held out: lower --holdout", file=sys.stderr)
        return 1
    openings = len({o.opening for o in data})
    print(f"{len(data)} moves of ours from ply {args.min_ply} on, {openings} openings; "
          f"{len(fitting)} fitted, {len(holdout)} held out", file=sys.stdout)
    fitted = fit_from_flat(fitting)
    report(fitting, holdout, shipped_model(), fitted)
    return 0


if __name__ == "__main__":
    sys.exit(main())
