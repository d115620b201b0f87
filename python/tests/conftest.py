"""Positions for the tests: the repository's EPD suites and seeded random playouts."""
import os
import random
from pathlib import Path

import pytest

chess = pytest.importorskip("chess")

REPO = Path(__file__).resolve().parents[2]


def suite_fens(limit=None):
    """The FEN part of every line of epd/*.epd (sorted by file), with clocks added."""
    fens = []
    for path in sorted((REPO / "epd").glob("*.epd")):
        for line in path.read_text().splitlines():
            fields = line.split()
            if len(fields) >= 4 and "/" in fields[0]:
                fens.append(" ".join(fields[:4]) + " 0 1")
    return fens[:limit]


def playout_boards(games, plies, seed=1):
    """Boards along random games from the start position (every position, not just the last)."""
    rng = random.Random(seed)
    boards = []
    for _ in range(games):
        board = chess.Board()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            boards.append(board.copy(stack=False))
    return boards


@pytest.fixture(scope="session")
def fens():
    return suite_fens()


@pytest.fixture(scope="session")
def boards():
    return playout_boards(games=60, plies=80)


@pytest.fixture(scope="session")
def minkowski_bin():
    """The engine binary, the independent oracle: $MINKOWSKI_BIN or target/release/minkowski."""
    path = Path(os.environ.get("MINKOWSKI_BIN", REPO / "target" / "release" / "minkowski"))
    if not path.is_file():
        pytest.skip(f"no engine binary at {path} (set MINKOWSKI_BIN)")
    return path
