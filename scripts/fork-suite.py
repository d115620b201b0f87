#!/usr/bin/env python3
"""Builds epd/forks.epd: positions of the public test suites in epd/ whose single best move is a
knight move after which the knight attacks two or more of the enemy king, queens and rooks.

    scripts/fork-suite.py [EPD_DIR] > epd/forks.epd
    scripts/fork-suite.py --mating [EPD_DIR] > epd/forks_mating.epd

Needs python-chess. Every position is checked by brute force (play the move, look at what the
knight on its new square attacks); tests/integration/fork_suite.rs re-checks the output
independently with shakmaty. Sources are the tactical and positional suites with SAN best moves; the
mate collections, the perft files and zugzwang.epd (AGPL, not shipped) are left out. With
`--mating` the mate-in-2/3/4 collections are scanned instead: there the forking knight move (a
check) is the only move that starts the shortest mate, so those positions test the fork and the
mate together and are kept apart. A position found in two suites is kept once, under the first
suite listed.
"""

import re
import sys
from pathlib import Path

import chess

SUITES = [
    "wac", "bk", "bt2630", "ccr", "kaufman", "lct2", "nolot", "nullmove", "sbd",
    "sts1", "sts2", "sts3", "sts4", "sts5", "sts6", "sts7", "eet", "pet",
]
MATING_SUITES = ["mate_in_2", "mate_in_3", "mate_in_4"]
VALUABLE = (chess.KING, chess.QUEEN, chess.ROOK)
NAMES = {chess.KING: "K", chess.QUEEN: "Q", chess.ROOK: "R"}


def parse(line):
    """(board, ops text) of one EPD line, or None. Accepts halfmove/fullmove counters between
    the four FEN fields and the operations (ccr, nullmove)."""
    tokens = line.split()
    if len(tokens) < 5:
        return None
    fen = " ".join(tokens[:4])
    rest = tokens[4:]
    counters = "0 1"
    if len(rest) >= 2 and rest[0].isdigit() and rest[1].isdigit():
        counters = f"{rest[0]} {rest[1]}"
        rest = rest[2:]
    try:
        board = chess.Board(f"{fen} {counters}")
    except ValueError:
        return None
    return board, " ".join(rest)


def op(ops, name):
    match = re.search(rf"(?:^|;)\s*{name}\s+([^;]*)", ops)
    return match.group(1).strip() if match else None


def forked(board, move):
    """The valuable enemy pieces the knight attacks after `move` (board before the move)."""
    after = board.copy()
    after.push(move)
    them = after.turn
    hit = [
        sq for sq in after.attacks(move.to_square)
        if (piece := after.piece_at(sq)) and piece.color == them and piece.piece_type in VALUABLE
    ]
    return after, hit


def main():
    args = sys.argv[1:]
    suites = SUITES
    if args[:1] == ["--mating"]:
        suites = MATING_SUITES
        args = args[1:]
    epd_dir = Path(args[0]) if args else Path(__file__).parent.parent / "epd"
    seen = set()
    for suite in suites:
        for number, line in enumerate((epd_dir / f"{suite}.epd").read_text().splitlines(), 1):
            parsed = parse(line)
            if parsed is None:
                continue
            board, ops = parsed
            bm = op(ops, "bm")
            if bm is not None and bm.startswith("bm "):
                bm = bm[3:]  # mate_in_2 line 263 doubles the opcode
            if bm is None or len(bm.split()) != 1:
                continue
            try:
                move = board.parse_san(bm)
            except ValueError:
                print(f"{suite}:{number}: bad bm {bm}", file=sys.stderr)
                continue
            if board.piece_type_at(move.from_square) != chess.KNIGHT:
                continue
            after, hit = forked(board, move)
            if len(hit) < 2 or after.is_checkmate():
                continue
            key = board.epd()
            if key in seen:
                continue
            seen.add(key)
            ident = op(ops, "id") or f'"line {number}"'
            ident = ident.strip('"')
            targets = " ".join(
                f"{NAMES[after.piece_type_at(sq)]}{chess.square_name(sq)}" for sq in sorted(hit)
            )
            san = board.san(move)
            kind = "capture" if board.is_capture(move) else "quiet"
            print(
                f'{key} bm {san}; id "{suite} {ident}"; '
                f'c0 "{suite}.epd line {number}; {kind}; knight forks {targets}";'
            )


if __name__ == "__main__":
    main()
