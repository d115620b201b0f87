#!/usr/bin/env python3
"""Loss analysis: which of our moves lost an undecided game, and why (issue 74).

From PGNs of Minkowski's games (cutechess-cli or ../shared/tools/match.py, whose move comments
carry `{+0.35/17 0.21s}`), an oracle (Stockfish 15.1 at its default NNUE evaluation) values the
position before each of our moves and after it. A move that drops the value of an undecided
position (|value| <= --undecided centipawns, the mover's view) by --threshold or more is a
mistake, if a re-run of the oracle with a cleared hash agrees (its self-agreement is reported;
a move the oracle itself names best is never a mistake). Each mistake is then classified:

- **search**: our engine given --multiplier times the game's node budget plays a move that does
  not drop (the search missed the refutation at the game's budget: pruned, reduced, ordered late);
- **judgement**: it still plays the same move or another dropping one (the evaluation reads the
  position wrongly, or a pruning rule fires at every depth).

For each judgement mistake the evaluation families of our trace (`minkowski eval`) are compared
between the position our own line after the move leads to and the one the oracle's line leads
to: the families whose value falls most along the oracle's line are what we did not foresee.

The summary gives mistakes per 100 analysed moves by phase and kind, and the families' falls;
--json keeps every mistake (FEN, move, scores, depths, kinds, families), --markdown the table.

    python3 scripts/loss-analysis.py --engine-name mk --ours target/release/minkowski \\
        --oracle stockfish --oracle-nodes 500000 --pgn games.pgn --json loss.json --markdown loss.md

Only python-chess and the standard library; the engines are UCI commands.
"""

import argparse
import concurrent.futures
import json
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
    sys.exit("loss-analysis.py needs python-chess: pip install chess")

# Values are centipawns from the mover's view; a mate counts as this much (clipped below), so a
# move from an undecided position into a forced mate is a drop like any other.
MATE_CP = 3000
# A comment's score and depth: `+0.35/17`, `-M10/13`, `+M16/20`.
COMMENT = re.compile(r"^\s*([+-]?)(M?)(\d+(?:\.\d+)?)/(\d+)")
# `minkowski eval` trace rows: `Name | wmg weg | bmg beg | tmg teg`.
TRACE_ROW = re.compile(r"^([A-Za-z][A-Za-z /-]*?)\s*\|\s*(-?\d+)\s+(-?\d+)\s*\|\s*(-?\d+)\s+(-?\d+)\s*\|\s*(-?\d+)\s+(-?\d+)\s*$")
TRACE_PHASE = re.compile(r"^Phase:\s*(\d+)\s*/\s*(\d+)")
# Non-pawn material phase as our evaluation counts it (a knight or bishop 1, a rook 2, a queen
# 4; 24 at the start).
PHASE_WEIGHT = {chess.KNIGHT: 1, chess.BISHOP: 1, chess.ROOK: 2, chess.QUEEN: 4}
PHASES = ("opening", "middlegame", "endgame")
KINDS = ("search", "judgement")


def material_phase(board):
    return sum(w * len(board.pieces(role, colour)) for role, w in PHASE_WEIGHT.items() for colour in chess.COLORS)


def phase_of(board):
    """Opening up to move 15; then endgame once the material phase is below 10 (of 24)."""
    if board.fullmove_number <= 15:
        return "opening"
    return "endgame" if material_phase(board) < 10 else "middlegame"


def parse_comment(text):
    """(centipawns or None, depth or None) from a move comment, the mover's view."""
    m = COMMENT.match(text or "")
    if not m:
        return None, None
    sign = -1 if m.group(1) == "-" else 1
    if m.group(2):
        return sign * MATE_CP, int(m.group(4))
    return sign * round(float(m.group(3)) * 100), int(m.group(4))


def centipawns(pov_score):
    value = pov_score.score(mate_score=100000)
    return max(-MATE_CP, min(MATE_CP, value))


def node_budget(game, fallback):
    tc = game.headers.get("TimeControl", "")
    m = re.match(r"nodes=(\d+)", tc)
    if m:
        return int(m.group(1))
    if fallback is None:
        raise ValueError(f"TimeControl {tc!r} is not nodes=N: give --budget-nodes")
    return fallback


def parse_trace(text):
    """Family -> tapered value (White's view, centipawns) from `minkowski eval` output."""
    rows, phase, full = {}, None, 24
    for line in text.splitlines():
        m = TRACE_PHASE.match(line)
        if m:
            phase, full = int(m.group(1)), int(m.group(2))
            continue
        m = TRACE_ROW.match(line)
        if m:
            rows[m.group(1).strip()] = (int(m.group(6)), int(m.group(7)))
    if phase is None or not rows:
        raise ValueError("not an evaluation trace")
    return {name: (mg * phase + eg * (full - phase)) / full for name, (mg, eg) in rows.items()}


def start_engine(command, options):
    """A UCI engine from its command line, with its `NAME=VALUE` options set."""
    engine = chess.engine.SimpleEngine.popen_uci(shlex.split(command))
    if options:
        engine.configure(dict(o.split("=", 1) for o in options))
    return engine


class Analyst:
    """One worker: its own oracle and our engine (UCI), and our binary for traces."""

    def __init__(self, args):
        self.args = args
        self.oracle = start_engine(args.oracle, args.oracle_option)
        self.ours = start_engine(args.ours, args.ours_option)
        self.fresh = 0

    def close(self):
        for engine in (self.oracle, self.ours):
            try:
                engine.quit()
            except Exception:  # an engine that died is already gone
                pass

    def oracle_value(self, board, game_key):
        """(value for the side to move, best move, pv) at the oracle's budget."""
        if board.is_checkmate():
            return -MATE_CP, None, []
        if board.is_stalemate() or board.is_insufficient_material() or board.can_claim_fifty_moves():
            return 0, None, []
        info = self.oracle.analyse(board, chess.engine.Limit(nodes=self.args.oracle_nodes), game=game_key)
        pv = info.get("pv") or []
        return centipawns(info["score"].pov(board.turn)), (pv[0] if pv else None), pv

    def recheck(self, board):
        """The oracle again with a cleared hash (a new game), for self-agreement."""
        self.fresh += 1
        return self.oracle_value(board, ("recheck", id(self), self.fresh))

    def ours_search(self, board, nodes):
        self.fresh += 1
        info = self.ours.analyse(board, chess.engine.Limit(nodes=nodes), game=("ours", id(self), self.fresh))
        pv = info.get("pv") or []
        return (pv[0] if pv else None), centipawns(info["score"].pov(board.turn)), info.get("depth"), pv

    def trace(self, board):
        """Our evaluation's families, the side to move's view (None in check: no static value)."""
        if board.is_check():
            return None
        out = subprocess.run(shlex.split(self.args.ours) + ["eval", board.fen()], capture_output=True, text=True, timeout=60)
        if out.returncode != 0:
            return None
        families = parse_trace(out.stdout)
        sign = 1 if board.turn == chess.WHITE else -1
        return {k: sign * v for k, v in families.items()}

    def line_end(self, board, pv, plies):
        end = board.copy()
        for move in pv[:plies]:
            if move not in end.legal_moves:
                break
            end.push(move)
        # A trace needs a position not in check: step back until one is found.
        while end.is_check() and end.move_stack and len(end.move_stack) > len(board.move_stack):
            end.pop()
        return end

    def analyse_game(self, index, game):
        args = self.args
        ours_white = game.headers.get("White") == args.engine_name
        ours_black = game.headers.get("Black") == args.engine_name
        if not (ours_white or ours_black):
            return None
        budget = node_budget(game, args.budget_nodes)
        colour = chess.WHITE if ours_white else chess.BLACK
        record = {"game": index, "budget": budget, "white": game.headers.get("White"), "black": game.headers.get("Black"),
                  "result": game.headers.get("Result"), "opening": game.headers.get("Opening"),
                  "analysed": {p: 0 for p in PHASES}, "skipped_decided": 0, "noise": 0,
                  "unconfirmed": 0, "mistakes": [], "positions": []}
        board = game.board()
        decided_run = 0
        key = ("game", index)
        for node in game.mainline():
            move = node.move
            if board.turn != colour:
                board.push(move)
                continue
            before, best, _ = self.oracle_value(board, key)
            if abs(before) > args.undecided:
                record["skipped_decided"] += 1
                decided_run += 1
                if decided_run >= args.stop_after_decided:
                    break
                board.push(move)
                continue
            decided_run = 0
            phase = phase_of(board)
            record["positions"].append([board.fen(), phase, before, best.uci() if best else None])
            score, depth = parse_comment(node.comment)
            self.judge(record, board, move, before, best, key, budget, phase, score, depth)
            board.push(move)
        return record

    def judge(self, record, board, move, before, best, key, budget, phase, score, depth):
        """Count `move` of `board` in `record`: analysed, and a mistake if it drops the oracle's
        value by the threshold on both of the oracle's runs."""
        args = self.args
        record["analysed"][phase] += 1
        after_board = board.copy()
        after_board.push(move)
        reply, _, oracle_pv = self.oracle_value(after_board, key)
        after = -reply
        drop = before - after
        if drop < args.threshold:
            return
        if best == move:
            record["noise"] += 1
            return
        again_before, _, _ = self.recheck(board)
        again_reply, _, again_pv = self.recheck(after_board)
        drop_again = again_before + again_reply
        if drop_again < args.threshold:
            record["unconfirmed"] += 1
            return
        record["mistakes"].append(self.classify(board, move, score, depth, budget, phase, before, after, drop,
                                                drop_again, oracle_pv or again_pv))

    def replay_game(self, old):
        """The analysed positions of an earlier run's game, each answered by our engine now at
        the game's budget (a fresh table: no game history), judged as in the game."""
        record = {k: old.get(k) for k in ("game", "white", "black", "result", "opening")}
        record.update({"analysed": {p: 0 for p in PHASES}, "skipped_decided": 0, "noise": 0, "unconfirmed": 0,
                       "mistakes": [], "positions": old["positions"], "budget": old["budget"]})
        for fen, phase, before, best in old["positions"]:
            board = chess.Board(fen)
            move, score, depth, _ = self.ours_search(board, old["budget"])
            if move is None:
                continue
            best_move = chess.Move.from_uci(best) if best else None
            self.judge(record, board, move, before, best_move, ("replay", id(self), fen), old["budget"], phase,
                       score, depth)
        return record

    def classify(self, board, move, score, depth, budget, phase, before, after, drop, drop_again, oracle_pv):
        args = self.args
        entry = {"fen": board.fen(), "move": move.uci(), "san": board.san(move), "phase": phase,
                 "oracle_before": before, "oracle_after": after, "drop": drop, "drop_recheck": drop_again,
                 "our_score": score, "our_depth": depth, "budget": budget}
        trace = self.trace(board)
        entry["our_static"] = round(sum(trace.values())) if trace else None
        deeper, deeper_score, deeper_depth, _ = self.ours_search(board, budget * args.multiplier)
        entry.update({"deeper_move": deeper.uci() if deeper else None, "deeper_score": deeper_score,
                      "deeper_depth": deeper_depth})
        if deeper is None or deeper == move:
            entry["deeper_drop"] = drop
        else:
            after_deeper = board.copy()
            after_deeper.push(deeper)
            reply, _, _ = self.oracle_value(after_deeper, ("deeper", id(self), entry["fen"]))
            entry["deeper_drop"] = before + reply
        entry["kind"] = "search" if entry["deeper_drop"] < args.threshold else "judgement"
        if entry["kind"] == "judgement":
            after_board = board.copy()
            after_board.push(move)
            _, _, _, our_pv = self.ours_search(after_board, budget)
            ours_end = self.line_end(after_board, our_pv, args.line_plies)
            oracle_end = self.line_end(after_board, oracle_pv, args.line_plies)
            ours_trace, oracle_trace = self.trace(ours_end), self.trace(oracle_end)
            if ours_trace and oracle_trace:
                # Both traces are from the side to move at their line's end; turn them to the
                # mover of the mistake.
                s_ours = 1 if ours_end.turn == board.turn else -1
                s_oracle = 1 if oracle_end.turn == board.turn else -1
                entry["families"] = {name: round(s_oracle * oracle_trace[name] - s_ours * ours_trace.get(name, 0), 1)
                                     for name in oracle_trace if name != "Total"}
                entry["our_line_end"] = ours_end.fen()
                entry["oracle_line_end"] = oracle_end.fen()
        return entry


def summarise(records, threshold):
    analysed = {p: 0 for p in PHASES}
    counts = {(p, k): 0 for p in PHASES for k in KINDS}
    pawns = {(p, k): 0 for p in PHASES for k in KINDS}
    families = {}
    noise = unconfirmed = confirmed = 0
    for record in records:
        noise += record["noise"]
        unconfirmed += record["unconfirmed"]
        for p in PHASES:
            analysed[p] += record["analysed"][p]
        for m in record["mistakes"]:
            confirmed += 1
            counts[(m["phase"], m["kind"])] += 1
            pawns[(m["phase"], m["kind"])] += m["drop"] / 100
            for name, delta in (m.get("families") or {}).items():
                families.setdefault(name, [0.0, 0])
                families[name][0] += delta
                families[name][1] += 1
    flagged = confirmed + unconfirmed
    return {"threshold": threshold, "games": len(records), "analysed": analysed,
            "mistakes": {f"{p}/{k}": counts[(p, k)] for p in PHASES for k in KINDS},
            "pawns_dropped": {f"{p}/{k}": round(pawns[(p, k)], 1) for p in PHASES for k in KINDS},
            "oracle_noise": noise, "oracle_unconfirmed": unconfirmed,
            "oracle_self_agreement": round(confirmed / flagged, 3) if flagged else None,
            "families": {name: {"total_cp": round(total), "mistakes": n}
                         for name, (total, n) in sorted(families.items(), key=lambda kv: kv[1][0])}}


def per_hundred(count, moves):
    return f"{100 * count / moves:.2f}" if moves else "-"


def markdown(summary):
    a = summary["analysed"]
    lines = ["| phase | our moves analysed | search misses / 100 | judgement / 100 | all / 100 | pawns dropped |",
             "|---|---:|---:|---:|---:|---:|"]
    total_moves = sum(a.values())
    totals = {k: 0 for k in KINDS}
    total_pawns = 0.0
    for p in PHASES:
        s, j = summary["mistakes"][f"{p}/search"], summary["mistakes"][f"{p}/judgement"]
        totals["search"] += s
        totals["judgement"] += j
        dropped = summary["pawns_dropped"][f"{p}/search"] + summary["pawns_dropped"][f"{p}/judgement"]
        total_pawns += dropped
        lines.append(f"| {p} | {a[p]} | {per_hundred(s, a[p])} ({s}) | {per_hundred(j, a[p])} ({j}) | "
                     f"{per_hundred(s + j, a[p])} | {dropped:.1f} |")
    lines.append(f"| **all** | {total_moves} | {per_hundred(totals['search'], total_moves)} ({totals['search']}) | "
                 f"{per_hundred(totals['judgement'], total_moves)} ({totals['judgement']}) | "
                 f"{per_hundred(totals['search'] + totals['judgement'], total_moves)} | {total_pawns:.1f} |")
    lines.append("")
    lines.append(f"Oracle: {summary['oracle_noise']} drops where it named the played move best (noise), "
                 f"{summary['oracle_unconfirmed']} not confirmed on a re-run with a cleared hash; "
                 f"self-agreement {summary['oracle_self_agreement']}.")
    if summary["families"]:
        lines += ["", "Judgement mistakes: each family's value along the oracle's line minus along ours "
                  "(centipawns, the mover's view; most negative first):", "",
                  "| family | total | mistakes |", "|---|---:|---:|"]
        for name, f in list(summary["families"].items())[:10]:
            lines.append(f"| {name} | {f['total_cp']} | {f['mistakes']} |")
    return "\n".join(lines) + "\n"


def read_games(paths):
    games = []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as handle:
            while True:
                game = chess.pgn.read_game(handle)
                if game is None:
                    break
                games.append(game)
    return games


def wanted(game, name, only):
    white, black, result = game.headers.get("White"), game.headers.get("Black"), game.headers.get("Result")
    if name not in (white, black):
        return False
    if only == "all":
        return True
    lost = (white == name and result == "0-1") or (black == name and result == "1-0")
    if only == "lost":
        return lost
    return lost or result == "1/2-1/2"  # not-won


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pgn", nargs="+", help="PGN files of our games")
    p.add_argument("--engine-name", help="our engine's name in the PGN headers")
    p.add_argument("--replay", metavar="JSON",
                   help="instead of games: the positions an earlier run (its --json) analysed, answered by "
                        "--ours now (the same positions before and after a change)")
    p.add_argument("--ours", required=True, help="our engine's command (also run as `CMD eval FEN` for traces)")
    p.add_argument("--ours-option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--oracle", default="stockfish", help="the oracle's UCI command")
    p.add_argument("--oracle-option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--oracle-nodes", type=int, default=500000)
    p.add_argument("--budget-nodes", type=int, help="our node budget when TimeControl is not nodes=N")
    p.add_argument("--multiplier", type=int, default=10, help="our budget times this decides search/judgement")
    p.add_argument("--threshold", type=int, default=100, help="a drop of this many centipawns is a mistake")
    p.add_argument("--undecided", type=int, default=300, help="|oracle value| up to this is undecided")
    p.add_argument("--stop-after-decided", type=int, default=3,
                   help="stop a game after this many of our moves in a row in decided positions")
    p.add_argument("--line-plies", type=int, default=8, help="plies of each line whose end is traced")
    p.add_argument("--only", choices=("all", "lost", "not-won"), default="not-won")
    p.add_argument("--games", type=int, help="analyse at most this many games")
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--json", help="every mistake and the summary, rewritten after each game")
    p.add_argument("--resume", action="store_true", help="keep the games --json already holds")
    p.add_argument("--markdown")
    args = p.parse_args(argv)
    if not args.replay and not (args.pgn and args.engine_name):
        p.error("give --pgn and --engine-name, or --replay JSON")
    for option in args.oracle_option + args.ours_option:
        if "=" not in option:
            p.error(f"option {option!r} is not NAME=VALUE")
    for name in ("oracle_nodes", "multiplier", "threshold", "concurrency"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    return args


def main(argv=None):
    args = parse_args(argv if argv is not None else sys.argv[1:])
    try:
        if args.replay:
            with open(args.replay, encoding="utf-8") as handle:
                games = [g for g in json.load(handle)["games"] if g.get("positions") is not None]
        else:
            games = [g for g in read_games(args.pgn) if wanted(g, args.engine_name, args.only)]
    except (OSError, ValueError, KeyError, TypeError) as error:
        sys.exit(f"loss-analysis.py: {error}")
    if args.games is not None:
        games = games[: args.games]
    if not games:
        source = args.replay or f"{args.only} games of {args.engine_name!r} in {', '.join(args.pgn)}"
        sys.exit(f"loss-analysis.py: nothing to analyse: {source}")
    for game in games if not args.replay else []:
        try:
            node_budget(game, args.budget_nodes)
        except ValueError as error:
            sys.exit(f"loss-analysis.py: {error}")
    local = threading.local()
    analysts, lock = [], threading.Lock()

    def work(item):
        if not hasattr(local, "analyst"):
            local.analyst = Analyst(args)
            with lock:
                analysts.append(local.analyst)
        if args.replay:
            record = local.analyst.replay_game(item[1])
        else:
            record = local.analyst.analyse_game(*item)
        if record is None:
            return None
        print(f"game {item[0] + 1}/{len(games)}: {len(record['mistakes'])} mistakes "
              f"in {sum(record['analysed'].values())} moves", file=sys.stderr, flush=True)
        return record

    # A run can be long (minutes a game): --json is rewritten after every game, and --resume
    # takes the games a previous run's --json already holds.
    done = {}
    if args.resume and args.json and os.path.exists(args.json):
        try:
            with open(args.json, encoding="utf-8") as handle:
                done = {r["game"]: r for r in json.load(handle)["games"]}
        except (OSError, ValueError, KeyError, TypeError) as error:
            sys.exit(f"loss-analysis.py: cannot resume from {args.json}: {error}")
    finished = dict(done)

    def save():
        if args.json:
            records = [finished[i] for i in sorted(finished)]
            with open(args.json + ".tmp", "w", encoding="utf-8") as out:
                json.dump({"summary": summarise(records, args.threshold), "games": records}, out, indent=1)
            os.replace(args.json + ".tmp", args.json)

    def work_and_save(item):
        record = work(item)
        with lock:
            if record is not None:
                finished[item[0]] = record
                save()
        return record

    todo = [(i, g) for i, g in enumerate(games) if i not in done]
    try:
        with concurrent.futures.ThreadPoolExecutor(args.concurrency) as pool:
            list(pool.map(work_and_save, todo))
        records = [finished[i] for i in sorted(finished)]
    except (chess.engine.EngineError, chess.engine.EngineTerminatedError, FileNotFoundError) as error:
        sys.exit(f"loss-analysis.py: an engine failed: {error}")
    finally:
        for analyst in analysts:
            analyst.close()
    summary = summarise(records, args.threshold)
    table = markdown(summary)
    print(table, end="")
    save()
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as out:
            out.write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
