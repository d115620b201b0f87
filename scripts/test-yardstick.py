#!/usr/bin/env python3
"""Tests of scripts/yardstick.py: the summary of PGNs whose counts are known (W/D/L, pairs,
depths, forfeits, Elo against the logistic formula), a run through a fake cutechess-cli that
checks the command it is given and writes games, and bad input.

    python3 scripts/test-yardstick.py
"""

import math
import os
import stat
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "yardstick.py")


def game(white, black, result, fen, rnd, body, termination="adjudication"):
    return (f'[Event "t"]\n[Round "{rnd}"]\n[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n'
            f'[FEN "{fen}"]\n[Termination "{termination}"]\n\n{body} {result}\n\n')


FEN_A = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
FEN_B = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
# Black moves first in both openings: the first comment is Black's.
BODY = "1... e5 { +0.10/12 0.1s } 2. Nf3 { +0.20/16 0.1s } 2... Nc6 { -0.30/14 0.1s }"

GAMES = (game("mk", "sf", "1-0", FEN_A, 1, BODY)
         + game("sf", "mk", "1/2-1/2", FEN_A, 2, BODY)
         + game("mk", "sf", "0-1", FEN_B, 3, BODY, "time forfeit")
         + game("sf", "mk", "1-0", FEN_B, 4, BODY)
         + game("x", "y", "1-0", FEN_B, 5, BODY))

FAKE_CUTECHESS = r'''#!/usr/bin/env python3
import sys
args = sys.argv[1:]
out = args[args.index("-pgnout") + 1]
assert "nodes=777" in args and "tc=inf" in args, args
assert "option.Use NNUE=false" in args, args
assert args[args.index("-rounds") + 1] == "2", args
with open(out, "w") as f:
    f.write(open(sys.argv[0] + ".pgn").read())
print("Score of mk vs sf-classical: 1 - 1 - 2  [0.5] 4")
'''


class Yardstick(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.pgn = os.path.join(self.tmp.name, "g.pgn")
        with open(self.pgn, "w") as f:
            f.write(GAMES)

    def tearDown(self):
        self.tmp.cleanup()

    def run_script(self, *args):
        return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, timeout=60)

    def test_summary(self):
        r = self.run_script("--summarise", self.pgn, "--name", "mk")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout
        self.assertIn("4 games, W/D/L 1/1/2, score 37.5 %", out)
        self.assertIn("(2 pairs)", out)
        # Our comments: Black's (12, 14) when we are Black, White's (16) when White.
        ours = [16, 16, 12, 14, 12, 14]
        theirs = [12, 14, 16, 12, 14, 16]
        self.assertIn(f"depth {sum(ours) / len(ours):.1f} vs {sum(theirs) / len(theirs):.1f}", out)
        self.assertIn("forfeits mk 1, sf 0", out)
        elo = -400 * math.log10(1 / 0.375 - 1)
        self.assertIn(f"Elo {elo:+.1f}", out)

    def test_play_through_cutechess(self):
        fake = os.path.join(self.tmp.name, "cutechess-cli")
        with open(fake, "w") as f:
            f.write(FAKE_CUTECHESS)
        with open(fake + ".pgn", "w") as f:
            f.write(GAMES.replace('"sf"', '"sf-classical"'))
        os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
        openings = os.path.join(self.tmp.name, "o.epd")
        with open(openings, "w") as f:
            f.write(FEN_A + "\n")
        out = os.path.join(self.tmp.name, "out.pgn")
        r = self.run_script("--engine", sys.executable, "--name", "mk", "--games", "4", "--nodes", "777",
                            "--openings", openings, "--cutechess", fake, "--stockfish", sys.executable,
                            "--pgn", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("mk vs sf-classical: 4 games, W/D/L 1/1/2", r.stdout)

    def test_bad_input(self):
        for args, message in ((["--summarise", "/nonexistent.pgn"], "No such file"),
                              (["--summarise", self.pgn, "--name", "nobody"], "no finished games"),
                              (["--engine", "/nonexistent", "--cutechess", sys.executable, "--stockfish", sys.executable],
                               "not an executable"),
                              (["--engine", sys.executable, "--nodes", "0"], "at least 1"),
                              (["--engine", sys.executable, "--openings", "/nonexistent.epd",
                                "--cutechess", sys.executable, "--stockfish", sys.executable], "no such opening file"),
                              ([], "give --engine")):
            r = self.run_script(*args)
            self.assertNotEqual(r.returncode, 0, args)
            self.assertIn(message, r.stderr, args)
            self.assertNotIn("Traceback", r.stderr)


if __name__ == "__main__":
    unittest.main()
