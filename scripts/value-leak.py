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
for our engine and its opponent, the expected score lost per game by phase and by the size of
the step; --json keeps every move's values, --markdown the tables.

    python3 scripts/value-leak.py --pgn yardstick.pgn --player minkowski \\
        --oracle stockfish --oracle-nodes 100000 --json leak.json --markdown leak.md
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


def expected(cp):
    return 1.0 / (1.0 + math.exp(-K * cp))


def step_of(drop):
    for i, bound in enumerate(STEPS):
        if drop < bound:
            return i
    return len(STEPS)


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


def price_game(oracle, game, ours, nodes, key):
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
                "before": before,
                "after": after,
                "drop": expected(before) - expected(after),
                "claimed": claimed,
                "depth": depth,
            })
        board.push(move)
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


def summarise(games):
    """Expected score lost per game, by side x phase and side x step size; the result beside it."""
    n = len(games)
    lost = {s: {p: 0.0 for p in loss.PHASES} for s in SIDES}
    moves = {s: {p: 0 for p in loss.PHASES} for s in SIDES}
    steps = {s: [[0, 0.0] for _ in STEP_NAMES] for s in SIDES}
    gained = {s: 0.0 for s in SIDES}
    # The mover's own score (its PGN comment) against the oracle's value after the move, where
    # the oracle calls the game undecided: > 0 means the engine thought itself better off.
    bias = {s: {p: [0, 0.0, 0.0] for p in loss.PHASES} for s in SIDES}
    score = [g["score"] for g in games if g.get("score") is not None]
    for g in games:
        for m in g["moves"]:
            s, drop = m["side"], m["drop"]
            moves[s][m["phase"]] += 1
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
    return "\n".join(rows) + "\n"


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pgn", nargs="+", help="PGN files of our games")
    p.add_argument("--player", help="our engine's name in the PGN headers (a case-insensitive part)")
    p.add_argument("--summarise", nargs="+", metavar="JSON", help="sum earlier --json files, play nothing")
    p.add_argument("--oracle", default="stockfish", help="the oracle's UCI command")
    p.add_argument("--oracle-option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--oracle-nodes", type=int, default=100000)
    p.add_argument("--games", type=int, help="price at most this many games")
    p.add_argument("--concurrency", type=int, default=1, help="games priced at once, an oracle each")
    p.add_argument("--json", help="every priced move and the summary, rewritten after each game")
    p.add_argument("--markdown", help="the summary's tables")
    args = p.parse_args(argv)
    if not args.summarise and not (args.pgn and args.player):
        p.error("give --pgn and --player, or --summarise")
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
        moves = price_game(local.oracle, game, ours, args.oracle_nodes, key=index)
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
