#!/usr/bin/env python3
"""Where the value leaks: every move of both sides, priced by an oracle in expected score (issue 74).

scripts/loss-analysis.py counts our mistakes of a pawn or more. At 150,000 nodes against
Stockfish classical they are rare (under two per hundred moves), yet we score under 20 %: most
of the result is lost in smaller steps. This prices every move of a game, ours and the
opponent's: an oracle (Stockfish 15.1 at its NNUE default) values the position before each move
and after it, and the mover's loss is the fall of its expected score,

    E(v) = 1 / (1 + exp(-K v)),   v the oracle's value in centipawns from the mover's view,

with Lichess's K = 0.00368208 (a pawn up is about 59 %). Along a game the two sides' signed
losses add up to the fall from the first position's E to the last one's, so the losses say
which side gave the result away, in which phase, and in steps of which size. The summary gives,
for our engine and its opponent, the expected score lost per game by phase, by the size of the
step and by the kind of move (from level positions only), and each engine's own score (its PGN
comment) against the oracle's. With --trace our static evaluation of every quiet, undecided
position after a move is set beside the oracle's value (and fitted to its families), with
--classical Stockfish's classical one too. --json keeps every move's values, --markdown the
tables.

    python3 scripts/value-leak.py --pgn yardstick.pgn --player minkowski \\
        --oracle stockfish --oracle-nodes 100000 --json leak.json --markdown leak.md \\
        [--trace target/release/minkowski --classical stockfish]
    python3 scripts/value-leak.py --summarise leak.json [more.json ...] --markdown leak.md

The oracle searches the game's positions in order with its hash kept inside a game (cleared at
each new game): the values along one game come from one growing tree, as an analysis board
would give them. Only moves whose PGN comment carries an engine's score (`{+0.35/17 ...}`)
are priced; book moves are not decisions.

Only python-chess and the standard library.
"""

import argparse
import concurrent.futures
import importlib.util
import json
import math
import os
import re
import shlex
import subprocess
import sys
import threading

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # pragma: no cover - a clear message instead of a traceback
    sys.exit("value-leak.py needs python-chess: pip install chess")

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("loss_analysis", os.path.join(HERE, "loss-analysis.py"))
loss = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(loss)

# Lichess's accuracy model: expected score of a centipawn value (a pawn ~ 0.59, three ~ 0.75).
K = 0.00368208
# Step sizes, in expected score, that the summary keeps apart (upper bounds; the last is open).
STEPS = (0.02, 0.05, 0.10, 0.20)
STEP_NAMES = ("< 0.02", "0.02-0.05", "0.05-0.10", "0.10-0.20", ">= 0.20")
SIDES = ("ours", "theirs")
# The engines' own scores are compared with the oracle's only where the oracle calls the game
# undecided (centipawns, the mover's view); a claimed score is clipped to the same bound.
UNDECIDED = 300
# The move-kind table counts only moves from positions the oracle calls about level (|value|
# up to this, centipawns): a side already worse plays king moves because it is attacked, and
# the table would read its earlier losses as losses of king moves.
LEVEL = 100
# `minkowski eval`'s last value line: the side to move's view.
TOTAL = re.compile(r"^Total:\s*(-?\d+) cp", re.M)
# Stockfish's `eval`: "Final evaluation       +0.12 (white side)", in pawns.
FINAL = re.compile(r"^Final evaluation\s+([+-]?\d+(?:\.\d+)?)", re.M)
# Ridge term of the family fit (centipawns², per position): keeps a family seen in a handful of
# positions from taking an arbitrary coefficient.
RIDGE = 1.0


def expected(cp):
    return 1.0 / (1.0 + math.exp(-K * cp))


def step_of(drop):
    for i, bound in enumerate(STEPS):
        if drop < bound:
            return i
    return len(STEPS)


def move_kind(board, move):
    """What sort of move it is, the summary's rows: castling, capture, check (quiet), pawn
    push, king move (not castling), or a quiet move of a knight, bishop, rook or queen."""
    if board.is_castling(move):
        return "castling"
    if board.is_capture(move):
        return "capture"
    if board.gives_check(move):
        return "check"
    role = board.piece_type_at(move.from_square)
    return {chess.PAWN: "pawn push", chess.KING: "king"}.get(role, chess.piece_name(role))


def terminal_value(board):
    """White's-view centipawns of a finished position, or None while the game goes on."""
    if board.is_checkmate():
        return -loss.MATE_CP if board.turn == chess.WHITE else loss.MATE_CP
    if board.is_stalemate() or board.is_insufficient_material():
        return 0
    return None


def our_colour(game, name):
    """chess.WHITE or chess.BLACK for the side whose header names `name` (case-insensitive)."""
    white, black = game.headers.get("White", ""), game.headers.get("Black", "")
    hits = [c for c, h in ((chess.WHITE, white), (chess.BLACK, black)) if name.lower() in h.lower()]
    if len(hits) != 1:
        raise ValueError(f"--player {name!r} names neither or both of {white!r} and {black!r}")
    return hits[0]


def our_trace(command, board, ours):
    """Our static evaluation and its families, our side's view, of a position after a move;
    None where a static value means little (the side to move in check, or the move a capture)."""
    if board.is_check() or not board.move_stack:
        return None
    pop = board.pop()
    capture = board.is_capture(pop)
    board.push(pop)
    if capture:
        return None
    out = subprocess.run(shlex.split(command) + ["eval", board.fen()], capture_output=True, text=True, timeout=60)
    total = TOTAL.search(out.stdout)
    if out.returncode != 0 or not total:
        raise ValueError(f"{command} eval {board.fen()}: {out.stderr.strip() or 'no total'}")
    families = loss.parse_trace(out.stdout)
    sign = 1 if ours == chess.WHITE else -1
    to_move = 1 if board.turn == ours else -1  # the total is the side to move's view
    return {"static": to_move * int(total.group(1)), "families": {f: sign * v for f, v in families.items()}}


def classical_values(command, fens):
    """Stockfish's classical static evaluation (`Use NNUE` false, its `eval` command's "Final
    evaluation"), White's view in centipawns, of each FEN: one process, the commands sent at once."""
    commands = ["setoption name Use NNUE value false"] + [f"position fen {fen}\neval" for fen in fens] + ["quit"]
    out = subprocess.run(shlex.split(command), input="\n".join(commands) + "\n", capture_output=True,
                         text=True, timeout=60 + len(fens))
    values = [round(float(v) * 100) for v in FINAL.findall(out.stdout)]
    if len(values) != len(fens):
        raise ValueError(f"{command}: {len(values)} evaluations for {len(fens)} positions")
    return values


def add_classical(command, game, ours, moves):
    """Each traced move's position valued by Stockfish's classical evaluation, our side's view."""
    board, fens, traced = game.board(), [], []
    by_ply = {m["ply"]: m for m in moves if m.get("trace")}
    for i, move in enumerate(game.mainline_moves()):
        board.push(move)
        if i in by_ply:
            fens.append(board.fen())
            traced.append(by_ply[i])
    sign = 1 if ours == chess.WHITE else -1
    for m, v in zip(traced, classical_values(command, fens) if fens else []):
        m["trace"]["classical"] = sign * v


def price_game(oracle, game, ours, nodes, key, trace=None):
    """Every priced move of one game: its side, phase, values before and after (mover's view)."""
    board = game.board()
    values, decisions = [], []
    node = game
    while node.variations:
        child = node.variations[0]
        decisions.append(loss.parse_comment(child.comment))
        values.append(value_of(oracle, board, nodes, key))
        board.push(child.move)
        node = child
    values.append(value_of(oracle, board, nodes, key))
    board = game.board()
    moves = []
    for i, move in enumerate(game.mainline_moves()):
        claimed, depth = decisions[i]
        if depth is not None:
            sign = 1 if board.turn == chess.WHITE else -1
            before, after = sign * values[i], sign * values[i + 1]
            moves.append({
                "ply": i,
                "side": "ours" if board.turn == ours else "theirs",
                "phase": loss.phase_of(board),
                "kind": move_kind(board, move),
                "before": before,
                "after": after,
                "drop": expected(before) - expected(after),
                "claimed": claimed,
                "depth": depth,
            })
        board.push(move)
        if trace and depth is not None and abs(moves[-1]["after"]) <= UNDECIDED:
            moves[-1]["trace"] = our_trace(trace, board, ours)
    return moves


def value_of(oracle, board, nodes, key):
    fixed = terminal_value(board)
    if fixed is not None:
        return fixed
    info = oracle.analyse(board, chess.engine.Limit(nodes=nodes), game=key)
    return loss.centipawns(info["score"].white())


def score_of(result, ours):
    points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
    if points is None:
        return None
    return points if ours == chess.WHITE else 1.0 - points


def solve(matrix, vector):
    """x with matrix x = vector (Gaussian elimination with partial pivoting; small systems)."""
    n = len(vector)
    a = [row[:] + [v] for row, v in zip(matrix, vector)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if abs(a[col][col]) < 1e-12:
            raise ValueError("the family fit is singular")
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def family_fit(games):
    """Our static error against the oracle (static - oracle after our move, our view) fitted as
    c0 + sum of c_f * family_f over the traced positions: c_f > 0 means the family reads these
    positions too favourably (its part of the error is c_f times its value)."""
    rows = [(m["trace"], m["after"] if m["side"] == "ours" else -m["after"])
            for g in games for m in g["moves"] if m.get("trace")]
    if len(rows) < 10:
        return None
    names = sorted({f for t, _ in rows for f, v in t["families"].items() if v})
    names = [f for f in names if len({round(t["families"].get(f, 0)) for t, _ in rows}) > 1]
    n, k = len(rows), len(names) + 1
    xs = [[1.0] + [t["families"].get(f, 0.0) for f in names] for t, _ in rows]
    errors = [t["static"] - after for t, after in rows]
    xtx = [[sum(x[i] * x[j] for x in xs) + (RIDGE * n if i == j and i else 0.0) for j in range(k)] for i in range(k)]
    xte = [sum(x[i] * e for x, e in zip(xs, errors)) for i in range(k)]
    c = solve(xtx, xte)
    means = [sum(x[i] for x in xs) / n for i in range(k)]
    return {"positions": n, "mean_error": sum(errors) / n, "intercept": c[0],
            "families": [{"family": f, "mean": means[i + 1], "coefficient": c[i + 1],
                          "part": c[i + 1] * means[i + 1]} for i, f in enumerate(names)]}


def in_our_favour(games):
    """Our static value minus the oracle's, both from our side's view, after each side's moves:
    how far our evaluation reads the games' positions in our favour. Positions our search chose
    and positions the opponent chose, side by side: a search that steers toward what its
    evaluation overrates shows it in both, since the game drifts where we led it."""
    out = {}
    for side in SIDES:
        traced = [m for g in games for m in g["moves"] if m.get("trace") and m["side"] == side]
        oracle = [m["after"] if side == "ours" else -m["after"] for m in traced]
        errors = [m["trace"]["static"] - o for m, o in zip(traced, oracle)]
        n = len(errors)
        out[side] = {"positions": n, "mean": sum(errors) / n if n else None,
                     "oracle": sum(oracle) / n if n else None}
        classical = [m["trace"]["classical"] - o for m, o in zip(traced, oracle) if "classical" in m["trace"]]
        if classical and len(classical) == n:
            out[side]["classical_mean"] = sum(classical) / n
    return out


def summarise(games):
    """Expected score lost per game, by side x phase and side x step size; the result beside it."""
    n = len(games)
    lost = {s: {p: 0.0 for p in loss.PHASES} for s in SIDES}
    moves = {s: {p: 0 for p in loss.PHASES} for s in SIDES}
    steps = {s: [[0, 0.0] for _ in STEP_NAMES] for s in SIDES}
    gained = {s: 0.0 for s in SIDES}
    kinds = {}
    # The mover's own score (its PGN comment) against the oracle's value after the move, where
    # the oracle calls the game undecided: > 0 means the engine thought itself better off.
    bias = {s: {p: [0, 0.0, 0.0] for p in loss.PHASES} for s in SIDES}
    score = [g["score"] for g in games if g.get("score") is not None]
    for g in games:
        for m in g["moves"]:
            s, drop = m["side"], m["drop"]
            moves[s][m["phase"]] += 1
            if "kind" in m and abs(m["before"]) <= LEVEL:
                k = kinds.setdefault((m["kind"], m["phase"] == "middlegame"), {x: [0, 0.0] for x in SIDES})
                k[s][0] += 1
                k[s][1] += max(drop, 0.0)
            if m.get("claimed") is not None and abs(m["after"]) <= UNDECIDED:
                b = bias[s][m["phase"]]
                error = max(-UNDECIDED, min(UNDECIDED, m["claimed"])) - m["after"]
                b[0] += 1
                b[1] += error
                b[2] += abs(error)
            if drop > 0:
                lost[s][m["phase"]] += drop
                bucket = steps[s][step_of(drop)]
                bucket[0] += 1
                bucket[1] += drop
            else:
                gained[s] -= drop
    per = (lambda x: x / n) if n else (lambda x: 0.0)
    return {
        "games": n,
        "score": sum(score) / len(score) if score else None,
        "moves": moves,
        "lost_per_game": {s: {p: per(v) for p, v in lost[s].items()} for s in SIDES},
        "lost_per_game_total": {s: per(sum(lost[s].values())) for s in SIDES},
        "gained_per_game": {s: per(gained[s]) for s in SIDES},
        "kinds": [{"kind": kind, "middlegame": middle, "moves": {x: v[x][0] for x in SIDES},
                   "lost_per_game": {x: per(v[x][1]) for x in SIDES}}
                  for (kind, middle), v in sorted(kinds.items())],
        "family_fit": family_fit(games),
        "in_our_favour": in_our_favour(games),
        "bias": {s: {p: {"moves": c, "mean": t / c if c else 0.0, "mean_abs": a / c if c else 0.0}
                     for p, (c, t, a) in bias[s].items()} for s in SIDES},
        "steps": {s: [{"step": STEP_NAMES[i], "moves": c, "lost_per_game": per(v)}
                      for i, (c, v) in enumerate(steps[s])] for s in SIDES},
    }


def markdown(summary):
    rows = [f"{summary['games']} games; our score {summary['score']:.1%}" if summary["score"] is not None
            else f"{summary['games']} games", "",
            "| phase | our moves | theirs | we lose a game | they lose a game | difference |",
            "|---|--:|--:|--:|--:|--:|"]
    for p in loss.PHASES + ("all",):
        mo = sum(summary["moves"]["ours"].values()) if p == "all" else summary["moves"]["ours"][p]
        mt = sum(summary["moves"]["theirs"].values()) if p == "all" else summary["moves"]["theirs"][p]
        lo = summary["lost_per_game_total"]["ours"] if p == "all" else summary["lost_per_game"]["ours"][p]
        lt = summary["lost_per_game_total"]["theirs"] if p == "all" else summary["lost_per_game"]["theirs"][p]
        name = f"**{p}**" if p == "all" else p
        rows.append(f"| {name} | {mo} | {mt} | {lo:.3f} | {lt:.3f} | {lo - lt:+.3f} |")
    rows += ["", "| step (expected score) | our moves | their moves | we lose a game | they lose a game |",
             "|---|--:|--:|--:|--:|"]
    for ours, theirs in zip(summary["steps"]["ours"], summary["steps"]["theirs"]):
        rows.append(f"| {ours['step']} | {ours['moves']} | {theirs['moves']} | "
                    f"{ours['lost_per_game']:.3f} | {theirs['lost_per_game']:.3f} |")
    rows += ["", "| phase | our score − oracle (mean, mean abs, cp) | theirs |", "|---|--:|--:|"]
    for p in loss.PHASES:
        o, t = summary["bias"]["ours"][p], summary["bias"]["theirs"][p]
        rows.append(f"| {p} | {o['mean']:+.0f}, {o['mean_abs']:.0f} ({o['moves']}) | "
                    f"{t['mean']:+.0f}, {t['mean_abs']:.0f} ({t['moves']}) |")
    if summary.get("kinds"):
        rows += ["", "| move kind, from level positions (middlegame / other phases) | our moves | theirs | we lose a game | they lose a game | difference |",
                 "|---|--:|--:|--:|--:|--:|"]
        for k in sorted(summary["kinds"], key=lambda k: k["lost_per_game"]["theirs"] - k["lost_per_game"]["ours"]):
            lo, lt = k["lost_per_game"]["ours"], k["lost_per_game"]["theirs"]
            rows.append(f"| {k['kind']}, {'middlegame' if k['middlegame'] else 'other'} | {k['moves']['ours']} | "
                        f"{k['moves']['theirs']} | {lo:.3f} | {lt:.3f} | {lo - lt:+.3f} |")
    favour = summary.get("in_our_favour")
    if favour and favour["ours"]["positions"]:
        rows += ["", "| static value minus the oracle's, our view (quiet, undecided) | positions | oracle's mean | ours | Stockfish classical |",
                 "|---|--:|--:|--:|--:|"]
        for s in SIDES:
            f = favour[s]
            if f["positions"]:
                classical = f"{f['classical_mean']:+.1f}" if "classical_mean" in f else "—"
                rows.append(f"| after {'our' if s == 'ours' else 'their'} moves | {f['positions']} | "
                            f"{f['oracle']:+.1f} | {f['mean']:+.1f} | {classical} |")
    fit = summary.get("family_fit")
    if fit:
        rows += ["", f"Our static error against the oracle, our view, fitted to the families: {fit['positions']} positions, "
                 f"mean {fit['mean_error']:+.1f} cp, intercept {fit['intercept']:+.1f}", "",
                 "| family | mean value (our view) | coefficient | its part of the mean error |", "|---|--:|--:|--:|"]
        for f in sorted(fit["families"], key=lambda f: -abs(f["part"])):
            rows.append(f"| {f['family']} | {f['mean']:+.1f} | {f['coefficient']:+.2f} | {f['part']:+.1f} |")
    return "\n".join(rows) + "\n"


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pgn", nargs="+", help="PGN files of our games")
    p.add_argument("--player", help="our engine's name in the PGN headers (a case-insensitive part)")
    p.add_argument("--summarise", nargs="+", metavar="JSON", help="sum earlier --json files, play nothing")
    p.add_argument("--oracle", default="stockfish", help="the oracle's UCI command")
    p.add_argument("--oracle-option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--oracle-nodes", type=int, default=100000)
    p.add_argument("--trace", metavar="CMD", help="our engine's command: `CMD eval FEN` traces the "
                   "positions after our moves, and the summary fits our static error to its families")
    p.add_argument("--classical", metavar="CMD", help="with --trace: Stockfish's command, whose classical "
                   "static evaluation of the same positions is compared with ours")
    p.add_argument("--games", type=int, help="price at most this many games")
    p.add_argument("--concurrency", type=int, default=1, help="games priced at once, an oracle each")
    p.add_argument("--json", help="every priced move and the summary, rewritten after each game")
    p.add_argument("--markdown", help="the summary's tables")
    args = p.parse_args(argv)
    if not args.summarise and not (args.pgn and args.player):
        p.error("give --pgn and --player, or --summarise")
    if args.classical and not args.trace:
        p.error("--classical compares with our --trace: give both")
    if args.oracle_nodes < 1 or args.concurrency < 1 or (args.games is not None and args.games < 1):
        p.error("--oracle-nodes, --concurrency and --games must be positive")
    return args


def read_games(paths, player, limit):
    games = []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                if game.errors:
                    raise ValueError(f"{path}: game {len(games) + 1}: {game.errors[0]}")
                games.append((game, our_colour(game, player)))
                if limit and len(games) >= limit:
                    return games
    return games


def write(args, priced):
    summary = summarise(priced)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"oracle_nodes": args.oracle_nodes, "summary": summary, "games": priced}, f)
    return summary


def main(argv=None):
    args = parse_args(argv)
    try:
        if args.summarise:
            priced = []
            for path in args.summarise:
                with open(path, encoding="utf-8") as f:
                    priced += json.load(f)["games"]
            summary = summarise(priced)
        else:
            summary = price_all(args)
    except (OSError, ValueError, KeyError, chess.engine.EngineError) as e:
        sys.exit(f"value-leak.py: {e}")
    text = markdown(summary)
    print(text, end="")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(text)


def price_all(args):
    games = read_games(args.pgn, args.player, args.games)
    priced, lock, local = [], threading.Lock(), threading.local()
    oracles = []

    def work(index):
        if not hasattr(local, "oracle"):
            local.oracle = loss.start_engine(args.oracle, args.oracle_option)
            with lock:
                oracles.append(local.oracle)
        game, ours = games[index]
        moves = price_game(local.oracle, game, ours, args.oracle_nodes, key=index, trace=args.trace)
        if args.classical:
            add_classical(args.classical, game, ours, moves)
        record = {"index": index, "white": game.headers.get("White"), "black": game.headers.get("Black"),
                  "result": game.headers.get("Result"), "ours": "white" if ours == chess.WHITE else "black",
                  "score": score_of(game.headers.get("Result"), ours), "moves": moves}
        with lock:
            priced.append(record)
            priced.sort(key=lambda r: r["index"])
            write(args, priced)
            print(f"game {len(priced)}/{len(games)}", file=sys.stderr, flush=True)

    try:
        with concurrent.futures.ThreadPoolExecutor(args.concurrency) as pool:
            for future in [pool.submit(work, i) for i in range(len(games))]:
                future.result()
    finally:
        for oracle in oracles:
            try:
                oracle.quit()
            except Exception:  # an oracle that died is already gone
                pass
    return write(args, priced)


if __name__ == "__main__":
    main()
