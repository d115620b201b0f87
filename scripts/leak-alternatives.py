#!/usr/bin/env python3
"""What Stockfish classical plays where our quiet moves leak, and how our search reads it (issue 74).

scripts/value-leak.py found the difference to Stockfish classical in our quiet moves from level
positions. This takes each of them from a value-leak JSON (a quiet move of ours from a position
within a pawn of level that lost at least --min-drop of expected score) and asks, from a fresh
hash at the game's node budget:

- **Stockfish classical's move** there (`Use NNUE` false), and the oracle's value after it;
- **our engine's move** again (is the game's choice stable from a fresh hash?);
- where the two engines differ, **our search's score of both moves** (`searchmoves` each,
  the same budget): does our search rate the move the oracle prefers lower than our own?

The summary counts how often the classical move is the oracle's better one, the expected score
both choices lose, and our search's score difference between them; with --trace, each family of
our static evaluation after the classical move minus after ours, where the oracle prefers the
classical move. --json keeps every position.

    python3 scripts/value-leak.py --pgn yard.pgn --player minkowski --json leak.json ...
    python3 scripts/leak-alternatives.py --leak leak.json --pgn yard.pgn --player minkowski \
        --ours target/release/minkowski --classical stockfish --oracle stockfish \
        --nodes 150000 --oracle-nodes 100000 --concurrency 2 --trace --json alt.json

Only python-chess and the standard library.
"""

import argparse
import concurrent.futures
import importlib.util
import json
import os
import statistics
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("value_leak", os.path.join(HERE, "value-leak.py"))
leak = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(leak)
loss, chess = leak.loss, leak.chess

# Move kinds that are not positional choices: the leak's difference was in the others.
NOT_QUIET = ("capture", "check", "castling")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--leak", required=True, help="value-leak.py's --json of the games")
    p.add_argument("--pgn", nargs="+", required=True, help="the PGN files that JSON priced, in order")
    p.add_argument("--player", required=True, help="our engine's name in the PGN headers")
    p.add_argument("--ours", required=True, help="our engine's UCI command")
    p.add_argument("--classical", default="stockfish", help="Stockfish's command (played with Use NNUE false)")
    p.add_argument("--oracle", default="stockfish", help="the oracle's UCI command")
    p.add_argument("--nodes", type=int, default=150000, help="both engines' budget, the games' own")
    p.add_argument("--oracle-nodes", type=int, default=100000)
    p.add_argument("--min-drop", type=float, default=0.02, help="least expected score our move lost")
    p.add_argument("--trace", action="store_true", help="our static trace after both moves (`OURS eval FEN`)")
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--json", help="every position and the summary")
    args = p.parse_args(argv)
    if args.nodes < 1 or args.oracle_nodes < 1 or args.concurrency < 1 or not 0 <= args.min_drop < 1:
        p.error("--nodes, --oracle-nodes and --concurrency must be positive, --min-drop in [0, 1)")
    return args


def leaking_moves(priced, games, min_drop):
    """(game index, priced move, the position before it, the move) of each quiet move of ours
    from a level position that lost at least `min_drop`."""
    found = []
    for record in priced:
        if record["index"] >= len(games):
            raise ValueError(f"the JSON prices game {record['index'] + 1}, the PGNs hold {len(games)}")
        game, _ = games[record["index"]]
        wanted = {m["ply"]: m for m in record["moves"]
                  if m["side"] == "ours" and abs(m["before"]) <= leak.LEVEL
                  and m["drop"] >= min_drop and m["kind"] not in NOT_QUIET}
        board = game.board()
        for ply, move in enumerate(game.mainline_moves()):
            if ply in wanted:
                found.append((record["index"], wanted[ply], board.copy(), move))
            board.push(move)
    return found


class Worker:
    """One thread's engines: Stockfish classical, the oracle, ours."""

    def __init__(self, args):
        self.classical = loss.start_engine(args.classical, ["Use NNUE=false"])
        self.oracle = loss.start_engine(args.oracle, [])
        self.ours = loss.start_engine(args.ours, [])

    def quit(self):
        for engine in (self.classical, self.oracle, self.ours):
            try:
                engine.quit()
            except Exception:  # an engine that died is already gone
                pass


def best(engine, board, nodes, only=None):
    """The move and score (the mover's view) of a fresh search, restricted to `only` if given."""
    info = engine.analyse(board, chess.engine.Limit(nodes=nodes), game=object(),
                          root_moves=[only] if only else None)
    return info["pv"][0], loss.centipawns(info["score"].pov(board.turn))


def examine(worker, args, item, ours_colour):
    index, priced, board, played = item
    classical, _ = best(worker.classical, board, args.nodes)
    replay, _ = best(worker.ours, board, args.nodes)
    row = {"game": index, "ply": priced["ply"], "fen": board.fen(), "kind": priced["kind"],
           "phase": priced["phase"], "played": played.uci(), "drop": priced["drop"],
           "before": priced["before"], "classical": classical.uci(), "replay": replay.uci()}
    if classical != played:
        after = board.copy()
        after.push(classical)
        sign = 1 if board.turn == chess.WHITE else -1
        row["classical_drop"] = leak.expected(priced["before"]) - leak.expected(
            sign * leak.value_of(worker.oracle, after, args.oracle_nodes, object()))
        row["our_score_played"] = best(worker.ours, board, args.nodes, played)[1]
        row["our_score_classical"] = best(worker.ours, board, args.nodes, classical)[1]
        if args.trace:
            traces = []
            for move in (played, classical):
                b = board.copy()
                b.push(move)
                traces.append(leak.our_trace(args.ours, b, ours_colour))
            row["trace_played"], row["trace_classical"] = traces
    return row


def summarise(rows):
    differ = [r for r in rows if "classical_drop" in r]
    better = [r for r in differ if r["classical_drop"] < r["drop"]]
    mean = lambda xs: statistics.fmean(xs) if xs else 0.0  # noqa: E731
    gap = [r["our_score_classical"] - r["our_score_played"] for r in better]
    families = {}
    for r in better:
        if r.get("trace_played") and r.get("trace_classical"):
            for name, value in r["trace_classical"]["families"].items():
                families.setdefault(name, []).append(value - r["trace_played"]["families"].get(name, 0))
    return {
        "positions": len(rows),
        "replay_same": sum(r["replay"] == r["played"] for r in rows),
        "classical_same": len(rows) - len(differ),
        "classical_differs": len(differ),
        "classical_better": len(better),
        "lost_ours": sum(r["drop"] for r in rows),
        "lost_with_classical": sum(r.get("classical_drop", r["drop"]) for r in rows),
        "our_gap_where_better": mean(gap),
        "our_gap_lower_share": sum(g < 0 for g in gap) / len(gap) if gap else 0.0,
        "family_gap_where_better": {k: mean(v) for k, v in sorted(families.items(), key=lambda kv: mean(kv[1]))},
    }


def markdown(s):
    lines = [
        f"{s['positions']} leaking quiet moves of ours from level positions",
        "",
        "| measure | value |",
        "|---|--:|",
        f"| our engine replays the game's move (fresh hash, same budget) | {s['replay_same']} |",
        f"| Stockfish classical plays the same move | {s['classical_same']} |",
        f"| Stockfish classical's move, where it differs, is the oracle's better one | "
        f"{s['classical_better']} of {s['classical_differs']} |",
        f"| expected score lost: our moves / Stockfish classical's in their place | "
        f"{s['lost_ours']:.2f} / {s['lost_with_classical']:.2f} |",
        f"| where the oracle prefers the classical move: our search's score of it minus ours (cp) | "
        f"{s['our_gap_where_better']:+.1f} |",
        f"| ... share of those our search scores lower | {100 * s['our_gap_lower_share']:.0f} % |",
    ]
    if s["family_gap_where_better"]:
        lines += ["", "| family (static, after the classical move minus after ours, cp) | mean |", "|---|--:|"]
        lines += [f"| {k} | {v:+.1f} |" for k, v in s["family_gap_where_better"].items()]
    return "\n".join(lines) + "\n"


def run(args):
    with open(args.leak, encoding="utf-8") as f:
        priced = json.load(f)["games"]
    games = leak.read_games(args.pgn, args.player, None)
    items = leaking_moves(priced, games, args.min_drop)
    rows, lock, local, workers = [], threading.Lock(), threading.local(), []

    def work(item):
        if not hasattr(local, "worker"):
            local.worker = Worker(args)
            with lock:
                workers.append(local.worker)
        row = examine(local.worker, args, item, games[item[0]][1])
        with lock:
            rows.append(row)

    try:
        with concurrent.futures.ThreadPoolExecutor(args.concurrency) as pool:
            for future in [pool.submit(work, item) for item in items]:
                future.result()
    finally:
        for worker in workers:
            worker.quit()
    rows.sort(key=lambda r: (r["game"], r["ply"]))
    summary = summarise(rows)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"nodes": args.nodes, "summary": summary, "positions": rows}, f)
    return summary


def main(argv=None):
    args = parse_args(argv)
    try:
        summary = run(args)
    except (OSError, ValueError, KeyError, chess.engine.EngineError) as e:
        sys.exit(f"leak-alternatives.py: {e}")
    print(markdown(summary), end="")


if __name__ == "__main__":
    main()
