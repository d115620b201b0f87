#!/usr/bin/env python3
"""The fixed-node yardstick: Minkowski against Stockfish 15.1's classical evaluation, both sides at
the same number of nodes a move (issue 74).

Stockfish obeys `go nodes`, so the result does not depend on the machine's load: it can run
beside builds, two games at a time. The games are played by cutechess-cli (a standard runner:
https://github.com/cutechess/cutechess), each opening with both colours; the summary gives
W/D/L, the score, Elo with its 95 % interval from the games and from the game pairs
(pentanomial: the honest one with paired openings), both sides' mean depth from the move
comments, and the forfeits.

    python3 scripts/yardstick.py --engine target/release/minkowski --games 200 --nodes 150000 \\
        --openings noob_3moves.epd --seed 1 --pgn yardstick.pgn
    python3 scripts/yardstick.py --summarise yardstick.pgn [more.pgn ...] [--name mk]

The opening book: `noob_3moves.epd` from https://github.com/official-stockfish/books (any EPD
file of start positions works). Stockfish: `stockfish` 15.1 on the PATH (Debian's package) or
--stockfish. A --summarise of PGNs from ../shared/tools/match.py works the same.
"""

import argparse
import math
import os
import re
import shutil
import subprocess
import sys

RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
DEPTH = re.compile(r"\{\s*[+-]?M?\d+(?:\.\d+)?/(\d+)")
FORFEITS = ("time forfeit", "illegal move", "abandoned", "stalled connection", "loses on time", "crash",
            "disconnects", "stalls")


def parse_pgn(path):
    """Each game's tags and movetext."""
    games = []
    with open(path, encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    for chunk in text.split("[Event ")[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        body = chunk.split("\n\n", 1)[1] if "\n\n" in chunk else ""
        games.append((tags, body))
    return games


def interval(scores):
    """Elo and the half-width of its 95 % interval from per-unit scores in [0, 1]."""
    n = len(scores)
    if n == 0:
        return None, None
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / n

    def elo(s):
        s = min(max(s, 1e-9), 1 - 1e-9)
        return -400 * math.log10(1 / s - 1)

    half = 1.96 * math.sqrt(var / n)
    lo, hi = elo(mean - half), elo(mean + half)
    return elo(mean), (hi - lo) / 2


def depths(body):
    """Depths of the comments of White's and Black's moves, in order."""
    white, black = [], []
    ply = 0
    for token in re.finditer(r"(\d+\.\.\.|\d+\.)|\{([^}]*)\}", body):
        if token.group(1):
            ply_white = not token.group(1).endswith("...")
            ply = 0 if ply_white else 1
            continue
        m = DEPTH.match("{" + token.group(2))
        if m:
            (white if ply % 2 == 0 else black).append(int(m.group(1)))
        ply += 1
    return white, black


def summarise(paths, name):
    games = [g for p in paths for g in parse_pgn(p)]
    ours = [(t, b) for t, b in games if name in (t.get("White"), t.get("Black")) and t.get("Result") in RESULTS]
    if not ours:
        raise ValueError(f"no finished games of {name!r}")
    w = d = l = 0
    scores, pairs, our_depth, their_depth, forfeits = [], {}, [], [], {"ours": 0, "theirs": 0}
    opponent = None
    for tags, body in ours:
        white = tags.get("White") == name
        opponent = tags.get("Black") if white else tags.get("White")
        score = RESULTS[tags["Result"]] if white else 1 - RESULTS[tags["Result"]]
        w, d, l = w + (score == 1), d + (score == 0.5), l + (score == 0)
        scores.append(score)
        # Each opening is played twice, colours swapped (cutechess-cli numbers both games of a
        # pair alike, match.py numbers them apart): the games of one opening, in order, pair up.
        pairs.setdefault((tags.get("Event", ""), tags.get("FEN", "")), []).append(score)
        dw, db = depths(body)
        our_depth += dw if white else db
        their_depth += db if white else dw
        reason = (tags.get("Termination", "") + " " + body[-200:]).lower()
        if any(f in reason for f in FORFEITS):
            forfeits["ours" if score == 0 else "theirs"] += 1
    elo, err = interval(scores)
    pair_scores = [(p[i] + p[i + 1]) / 2 for p in pairs.values() for i in range(0, len(p) - 1, 2)]
    pelo, perr = interval(pair_scores)
    n = len(scores)
    mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")  # noqa: E731
    return {"name": name, "opponent": opponent, "games": n, "wins": w, "draws": d, "losses": l,
            "score": (w + d / 2) / n, "elo": elo, "elo_error": err, "pairs": len(pair_scores),
            "pair_elo": pelo, "pair_elo_error": perr, "depth": mean(our_depth), "opponent_depth": mean(their_depth),
            "forfeits": forfeits}


def report(s):
    pair = (f"{s['pair_elo']:+.1f} ± {s['pair_elo_error']:.1f} ({s['pairs']} pairs)" if s["pairs"] else "no complete pairs")
    return (f"{s['name']} vs {s['opponent']}: {s['games']} games, W/D/L {s['wins']}/{s['draws']}/{s['losses']}, "
            f"score {100 * s['score']:.1f} %, Elo {s['elo']:+.1f} ± {s['elo_error']:.1f} (games), {pair}; "
            f"depth {s['depth']:.1f} vs {s['opponent_depth']:.1f}; forfeits {s['name']} {s['forfeits']['ours']}, "
            f"{s['opponent']} {s['forfeits']['theirs']}")


def play(args):
    cutechess = args.cutechess or shutil.which("cutechess-cli") or "/opt/cutechess/cutechess-cli"
    if not os.access(cutechess, os.X_OK):
        raise ValueError("cutechess-cli not found: install it (https://github.com/cutechess/cutechess) or give --cutechess")
    stockfish = args.stockfish or shutil.which("stockfish") or "/usr/games/stockfish"
    if not os.access(stockfish, os.X_OK):
        raise ValueError("stockfish not found: install Stockfish 15.1 or give --stockfish")
    if not os.access(args.engine, os.X_OK):
        raise ValueError(f"{args.engine}: not an executable")
    if not os.path.isfile(args.openings):
        raise ValueError(f"{args.openings}: no such opening file")
    engine = [f"cmd={os.path.abspath(args.engine)}", f"name={args.name}", "option.Hash=16", "option.Threads=1"]
    engine += [f"option.{o}" for o in args.option]
    command = [cutechess, "-engine", *engine,
               "-engine", f"cmd={stockfish}", "name=sf-classical", "option.Use NNUE=false", "option.Hash=16",
               "option.Threads=1",
               "-each", "proto=uci", "tc=inf", f"nodes={args.nodes}",
               "-openings", f"file={os.path.abspath(args.openings)}", "format=epd", "order=random",
               "-srand", str(args.seed), "-repeat", "-games", "2", "-rounds", str((args.games + 1) // 2),
               "-concurrency", str(args.concurrency), "-recover",
               "-draw", "movenumber=40", "movecount=8", "score=10",
               "-resign", "movecount=5", "score=1000", "twosided=true",
               "-pgnout", os.path.abspath(args.pgn)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as proc:
        for line in proc.stdout:
            if line.startswith(("Score of", "Finished game")) and not args.quiet:
                print(line.rstrip(), flush=True)
    if proc.returncode != 0:
        raise ValueError(f"cutechess-cli exited with status {proc.returncode}")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engine", help="our engine's binary")
    p.add_argument("--name", default="minkowski", help="our engine's name in the PGN")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a UCI option of ours")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--nodes", type=int, default=150000)
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--openings", default="noob_3moves.epd")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pgn", default="yardstick.pgn")
    p.add_argument("--cutechess")
    p.add_argument("--stockfish")
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--summarise", nargs="+", metavar="PGN", help="only summarise these PGNs")
    args = p.parse_args(argv)
    if not args.summarise and not args.engine:
        p.error("give --engine (to play) or --summarise PGN ...")
    for name in ("games", "nodes", "concurrency"):
        if getattr(args, name) < 1:
            p.error(f"--{name} must be at least 1")
    for option in args.option:
        if "=" not in option:
            p.error(f"option {option!r} is not NAME=VALUE")
    return args


def main(argv=None):
    args = parse_args(argv if argv is not None else sys.argv[1:])
    try:
        if not args.summarise:
            play(args)
        print(report(summarise(args.summarise or [args.pgn], args.name)))
    except (OSError, ValueError) as error:
        sys.exit(f"yardstick.py: {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
