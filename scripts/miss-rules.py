#!/usr/bin/env python3
"""Which search rule cut the refutation: the search misses of a loss analysis, searched again at
the game's budget with one rule of the search weakened at a time (issue 74).

scripts/loss-analysis.py calls a mistake a *search miss* when ten times the game's nodes avoid
it. This asks which rule made the game's budget miss it: for every search miss of its --json, a
tuning build of our engine (`cargo build --release --features tune-search`: every search
constant is a UCI option) searches the position again at the game's budget, once with the
defaults and once with each rule weakened (the options of RULES below). Where the weakened
search plays a move that does not drop (the oracle judges it, as in the analysis), that rule
was in the way. A control run changes nothing but the hash size: its rate of avoided misses is
the chance level against which each rule's count is read.

    python3 scripts/miss-rules.py --analysis loss.json --ours TUNING_BUILD --oracle stockfish \\
        --oracle-nodes 500000 [--json rules.json]
"""

import argparse
import json
import shlex
import sys

try:
    import chess
    import chess.engine
except ImportError:  # pragma: no cover
    sys.exit("miss-rules.py needs python-chess: pip install chess")

MATE_CP = 3000
# Each rule weakened as far as its options' ranges allow (src/search/params.rs). "control"
# changes only the hash size, which changes nothing but the table's collisions.
RULES = {
    "control (Hash 17)": {"Hash": "17"},
    "reverse futility": {"rfp_depth": "1", "rfp_margin": "250"},
    "null move": {"nmp_min_depth": "6", "nmp_eval_max": "0", "nmp_base_reduction": "1", "nmp_depth_divisor": "10"},
    "ProbCut": {"probcut_min_depth": "10", "probcut_margin": "400"},
    "late move pruning": {"lmp_depth": "1", "lmp_base": "12"},
    "futility": {"futility_depth": "1", "futility_base": "300", "futility_margin": "300"},
    "history pruning": {"history_prune_depth": "0"},
    "SEE pruning": {"see_prune_depth": "1", "see_capture_margin": "100", "see_quiet_margin": "200"},
    "late move reductions": {"lmr_min_depth": "6", "lmr_base_x100": "0", "lmr_divisor_x100": "400",
                             "lmr_cut_node": "0"},
    "quiescence delta and SEE": {"delta_margin": "600", "qsearch_see_margin": "400"},
    "IIR": {"iir_min_depth": "10"},
}


def centipawns(pov_score):
    return max(-MATE_CP, min(MATE_CP, pov_score.score(mate_score=100000)))


def search_misses(path):
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    return [m for g in data["games"] for m in g["mistakes"] if m.get("kind") == "search"]


class Judge:
    """The oracle's value of a move from a position, the mover's view, cached."""

    def __init__(self, command, nodes):
        self.engine = chess.engine.SimpleEngine.popen_uci(shlex.split(command))
        self.nodes = nodes
        self.cache = {}
        self.games = 0

    def after(self, fen, move):
        key = (fen, move.uci())
        if key not in self.cache:
            board = chess.Board(fen)
            board.push(move)
            if board.is_checkmate():
                self.cache[key] = MATE_CP
            elif board.is_stalemate() or board.is_insufficient_material():
                self.cache[key] = 0
            else:
                self.games += 1
                info = self.engine.analyse(board, chess.engine.Limit(nodes=self.nodes), game=("judge", self.games))
                self.cache[key] = -centipawns(info["score"].pov(board.turn))
        return self.cache[key]

    def close(self):
        self.engine.quit()


def run(args):
    misses = search_misses(args.analysis)
    if not misses:
        raise ValueError(f"{args.analysis}: no search misses")
    judge = Judge(args.oracle, args.oracle_nodes)
    results = {}
    try:
        for rule, options in [("defaults", {})] + list(RULES.items()):
            engine = chess.engine.SimpleEngine.popen_uci(shlex.split(args.ours))
            try:
                known = set(engine.options)
                missing = [o for o in options if o not in known]
                if missing:
                    raise ValueError(f"{args.ours} has no option {missing[0]}: use a tuning build "
                                     "(cargo build --release --features tune-search)")
                engine.configure({"Hash": "16", **options})
                avoided, moves = 0, []
                for i, m in enumerate(misses):
                    board = chess.Board(m["fen"])
                    played = engine.play(board, chess.engine.Limit(nodes=m["budget"]), game=(rule, i)).move
                    drop = m["oracle_before"] - judge.after(m["fen"], played) if played else None
                    ok = played is not None and played.uci() != m["move"] and drop < args.threshold
                    avoided += ok
                    moves.append({"fen": m["fen"], "move": played.uci() if played else None, "drop": drop,
                                  "avoided": ok})
            finally:
                engine.quit()
            results[rule] = {"avoided": avoided, "misses": len(misses), "moves": moves}
            print(f"{rule}: avoids {avoided} of {len(misses)}", file=sys.stderr, flush=True)
    finally:
        judge.close()
    return results


def table(results):
    lines = ["| search weakened | misses avoided at the game's budget |", "|---|---:|"]
    for rule, r in results.items():
        lines.append(f"| {rule} | {r['avoided']} of {r['misses']} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--analysis", required=True, help="a --json of scripts/loss-analysis.py")
    p.add_argument("--ours", required=True, help="a tuning build of our engine (UCI command)")
    p.add_argument("--oracle", default="stockfish")
    p.add_argument("--oracle-nodes", type=int, default=500000)
    p.add_argument("--threshold", type=int, default=100)
    p.add_argument("--json")
    args = p.parse_args(argv if argv is not None else sys.argv[1:])
    if args.oracle_nodes < 1 or args.threshold < 1:
        p.error("--oracle-nodes and --threshold must be at least 1")
    try:
        results = run(args)
    except (OSError, ValueError, KeyError, TypeError, chess.engine.EngineError,
            chess.engine.EngineTerminatedError) as error:
        sys.exit(f"miss-rules.py: {error}")
    print(table(results), end="")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
