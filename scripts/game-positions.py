#!/usr/bin/env python3
"""Training positions from real games: the quiet positions of PGN games, in datagen's format.

The self-play data (`minkowski datagen`) hold the positions our own fast games reach; the games
we lose against Stockfish classical reach others (one side better, imbalanced material, long
endgames). This script takes positions from played games instead (issue 74): every position of
each game from --min-ply on that datagen's rule calls quiet (`datagen::sample::is_quiet_before`:
the side to move is not in check and the move played from it neither captures nor promotes;
the mover's score in the move's comment is not a mate), distinct over all the inputs (board,
side, castling and en passant), at most --per-game of them a game chosen uniformly (positions
of one game share a result and resemble each other: many games with a few positions each give
more independent labels). Positions in the --exclude files (held-out measurement sets: PGNs,
whose every position is excluded, or FEN / datagen lines) are never written.

    python3 scripts/game-positions.py --per-game 16 --seed 3800 --out games.txt \\
        --exclude held-out.pgn games/*.pgn
    python3 scripts/label.py --engine /usr/games/stockfish --static --out-dir labelled games.txt

The output is `minkowski datagen`'s: `<FEN> | <score> | <result>` lines, the score the mover's
own (the move's comment `{+0.31/12 ...}`, White's view, centipawns; 0 without one) until
scripts/label.py replaces it, the result the game's (White's view), and after each game a
trailer `# game seed=S index=I positions=K plies=P end=... result=R source=FILE round=N` that
`minkowski tune` reads to hold whole games out for validation. Games without a result (`*`) are
skipped. A summary goes to stderr. Needs python-chess.
"""

import argparse
import os
import random
import re
import sys

import chess
import chess.pgn

RESULTS = {"1-0": "1.0", "0-1": "0.0", "1/2-1/2": "0.5"}
# The mover's score at the start of a cutechess-cli move comment: `+0.31/12`, `-M5/20`, `+M3`.
SCORE = re.compile(r"^\s*([+-]?)(M?)(\d+(?:\.\d+)?)")


class Failure(Exception):
    """Bad input: a file that cannot be read."""


def key(board):
    """What makes two positions the same training position: the FEN without its counters."""
    return " ".join(board.fen().split()[:4])


def mover_score(comment):
    """(is_mate, centipawns from the mover's view) of a move comment; (False, None) without a
    score."""
    m = SCORE.match(comment or "")
    if not m:
        return False, None
    if m.group(2):
        return True, None
    pawns = float(m.group(3))
    return False, round(pawns * 100) * (-1 if m.group(1) == "-" else 1)


def excluded_keys(paths):
    """The position keys of the held-out files: every position of a PGN's games, the FEN of
    each line of any other file."""
    keys = set()
    for path in paths:
        try:
            if path.endswith(".pgn"):
                with open(path, encoding="utf-8", errors="replace") as handle:
                    while (game := chess.pgn.read_game(handle)) is not None:
                        board = game.board()
                        keys.add(key(board))
                        for move in game.mainline_moves():
                            board.push(move)
                            keys.add(key(board))
            else:
                with open(path, encoding="utf-8") as handle:
                    for line in handle:
                        fen = line.split("|")[0].strip()
                        if fen and not fen.startswith("#"):
                            keys.add(" ".join(fen.split()[:4]))
        except OSError as e:
            raise Failure(f"cannot read {path}: {e}") from e
    return keys


def candidates(game, min_ply, seen):
    """The quiet positions of `game` from ply `min_ply` on that no earlier game gave:
    (board, score White's view) in the order played."""
    found = []
    own = set()  # a position repeated within the game counts once
    board = game.board()
    for node in game.mainline():
        move = node.move
        mate, score = mover_score(node.comment)
        if (
            board.ply() >= min_ply
            and not board.is_check()
            and not board.is_capture(move)
            and move.promotion is None
            and not mate
        ):
            k = key(board)
            if k not in seen and k not in own:
                own.add(k)
                white = 0 if score is None else (score if board.turn == chess.WHITE else -score)
                found.append((board.fen(), white, k))
        board.push(move)
    return found, board.ply()


def extract(paths, exclude, per_game, min_ply, seed, out):
    """Write the chosen positions of every game of `paths` to `out`; returns the counts."""
    rng = random.Random(seed)
    seen = set(exclude)
    counts = {"games": 0, "skipped": 0, "candidates": 0, "positions": 0}
    for path in paths:
        source = os.path.basename(path)
        try:
            handle = open(path, encoding="utf-8", errors="replace")
        except OSError as e:
            raise Failure(f"cannot read {path}: {e}") from e
        with handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                result = RESULTS.get(game.headers.get("Result", "*"))
                if result is None or game.errors:
                    counts["skipped"] += 1
                    continue
                found, plies = candidates(game, min_ply, seen)
                counts["candidates"] += len(found)
                if per_game and len(found) > per_game:
                    chosen = sorted(rng.sample(range(len(found)), per_game))
                    found = [found[i] for i in chosen]
                for fen, score, k in found:
                    seen.add(k)
                    out.write(f"{fen} | {score} | {result}\n")
                end = re.sub(r"\s+", "-", game.headers.get("Termination", "normal").strip()) or "normal"
                out.write(
                    f"# game seed={seed} index={counts['games']} positions={len(found)} "
                    f"plies={plies} end={end} result={result} source={source} "
                    f"round={game.headers.get('Round', '?')}\n"
                )
                counts["games"] += 1
                counts["positions"] += len(found)
    return counts


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgns", nargs="+", help="PGN files of played games")
    ap.add_argument("--out", required=True, help="the datagen-format file written")
    ap.add_argument("--exclude", action="append", default=[],
                    help="held-out positions: a PGN (all its positions) or FEN / datagen lines; repeatable")
    ap.add_argument("--per-game", type=int, default=16, help="positions a game at most (0: all; default 16)")
    ap.add_argument("--min-ply", type=int, default=12,
                    help="first ply kept, counted from the standard start by the FEN's move number (default 12)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the per-game choice, and the trailers' seed=")
    args = ap.parse_args(argv)
    if args.per_game < 0 or args.min_ply < 0:
        print("game-positions: --per-game and --min-ply must be at least 0", file=sys.stderr)
        return 2
    try:
        exclude = excluded_keys(args.exclude)
        with open(args.out, "w", encoding="utf-8") as out:
            counts = extract(args.pgns, exclude, args.per_game, args.min_ply, args.seed, out)
    except (Failure, OSError) as e:
        print(f"game-positions: {e}", file=sys.stderr)
        return 2
    print(f"game-positions: {counts['positions']} positions of {counts['games']} games "
          f"({counts['candidates']} distinct quiet candidates; {counts['skipped']} games skipped: "
          f"no result or unreadable; {len(exclude)} excluded positions) -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
