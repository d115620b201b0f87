#!/usr/bin/env python3
"""Tests of scripts/static-evals.py with fake engines whose answers are known.

One fake program plays both engines. As "Stockfish" it answers `go depth` with a label taken
from the position (a number derived from the FEN), and `eval` with a classical evaluation that
is the label plus a known error and a "Final" evaluation equal to the label; as "Minkowski" it
answers `eval` with exactly half the label (a different scale, no error). So the comparison
must find Minkowski's error at its best scale (2.0) to be nearly zero, the classical one's
clearly larger, and every sign of Minkowski's in agreement; then bad input gets a clear error.

    python3 scripts/test-static-evals.py
"""

import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "static-evals.py")

FAKE = r'''
import sys, zlib
ROLE = sys.argv[1]

def label(fen):
    # White's view, -450 .. 450 cp, from the position's text.
    return zlib.crc32(fen.encode()) % 901 - 450

fen = None
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        fen = " ".join(words[2:8])
    elif words[0] == "go":
        v = label(fen)
        stm = v if fen.split()[1] == "w" else -v
        print(f"info depth 8 score cp {stm} nodes 100")
        print("bestmove e2e4", flush=True)
    elif words[0] == "eval":
        v = label(fen)
        if ROLE == "stockfish":
            error = 300 if zlib.crc32(fen.encode()) % 3 == 0 else 0
            print(f"Classical evaluation   {(v - error) / 100:+.2f} (white side)")
            print(f"Final evaluation       {v / 100:+.2f} (white side)", flush=True)
        else:
            side = "White" if fen.split()[1] == "w" else "Black"
            half = v // 2 if side == "White" else -(v // 2)
            print(f"info string Total: {half} cp ({side} to move's point of view)", flush=True)
    elif words[0] == "quit":
        break
'''

FENS = [
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "8/8/3k4/8/2b5/8/R3K3/8 w - - 0 1",
    "8/5pk1/6p1/8/8/6P1/5PK1/8 b - - 0 40",
    "4r1k1/pp3ppp/8/8/8/8/PP3PPP/4R1K1 w - - 0 25",
    "r3k2r/ppp2ppp/8/8/8/8/PPP2PPP/R3K2R w KQkq - 0 12",
]


class StaticEvals(unittest.TestCase):
    def setUp(self):
        spec = importlib.util.spec_from_file_location("static_evals", SCRIPT)
        self.module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.module)
        self.dir = tempfile.TemporaryDirectory()
        d = self.dir.name
        fake = os.path.join(d, "fake.py")
        with open(fake, "w") as f:
            f.write(FAKE)
        self.engines = {}
        for role in ("stockfish", "ours"):
            path = os.path.join(d, role)
            with open(path, "w") as f:
                f.write(f"#!/bin/sh\nexec {sys.executable} {fake} {role}\n")
            os.chmod(path, 0o755)
            self.engines[role] = path
        # Many distinct positions: the same FENs with other move counters.
        self.positions = os.path.join(d, "positions.txt")
        with open(self.positions, "w") as f:
            for fen in FENS:
                fields = fen.split()
                for n in range(1, 41):
                    f.write(" ".join(fields[:5] + [str(n)]) + " | 0 | 0.5\n")

    def tearDown(self):
        self.dir.cleanup()

    def run_script(self, *extra):
        return subprocess.run(
            [sys.executable, SCRIPT, "--ours", self.engines["ours"],
             "--stockfish", self.engines["stockfish"], *extra],
            capture_output=True, text=True, timeout=300)

    def test_the_exact_evaluation_wins_and_its_scale_is_found(self):
        labels = os.path.join(self.dir.name, "labels.json")
        out = self.run_script("--positions", self.positions, "--sample", "200", "--labels", labels)
        self.assertEqual(out.returncode, 0, out.stderr)
        rows = [line for line in out.stdout.splitlines() if line.startswith("| all |")]
        self.assertEqual(len(rows), 1, out.stdout)
        cells = [c.strip() for c in rows[0].strip("|").split("|")]
        n, classical, ours, nnue = int(cells[1]), float(cells[2]), float(cells[4]), float(cells[6])
        self.assertEqual(n, 200)
        # Ours is the label halved (rounded to even cp): its best scale, 2.0, fits to rounding.
        self.assertLess(ours, 0.5, out.stdout)
        self.assertLess(nnue, 0.5, out.stdout)
        self.assertGreater(classical, 20.0, out.stdout)
        self.assertEqual(float(cells[5]), 1.0, out.stdout)
        # The labels are kept, and a second run reads them back: the same table.
        self.assertTrue(os.path.exists(labels))
        again = self.run_script("--positions", self.positions, "--sample", "200", "--labels", labels)
        self.assertEqual(again.stdout, out.stdout)

    def test_worst_positions_and_error_mass_by_class(self):
        labels = os.path.join(self.dir.name, "labels.json")
        out = self.run_script("--positions", self.positions, "--sample", "200", "--labels", labels,
                              "--worst", "5", "--by-signature")
        self.assertEqual(out.returncode, 0, out.stderr)
        # Ours is exact at its scale, so its worst misses are rounding only; the classical
        # evaluation's 300 cp errors carry its error mass.
        worst = [line for line in out.stdout.splitlines()
                 if line.startswith("| ") and line.count("/") == 7]
        self.assertEqual(len(worst), 5, out.stdout)
        for row in worst:
            cells = [c.strip() for c in row.strip("|").split("|")]
            self.assertLess(float(cells[6]), 0.01, row)
            self.assertEqual(cells[2], self.module.signature(cells[0]))
        # The error mass by piece band adds up to the whole MSE in each column.
        table = out.stdout.split("Error mass by piece band")[1].split("Error mass by")[0]
        rows = [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()
                if line.startswith("| ") and "pieces |" in line]
        whole = [line for line in out.stdout.splitlines() if line.startswith("| all |")][0]
        whole = [c.strip() for c in whole.strip("|").split("|")]
        self.assertEqual(sum(int(r[1]) for r in rows), int(whole[1]))
        self.assertAlmostEqual(sum(float(r[4]) for r in rows), float(whole[2]), delta=0.3)
        self.assertIn("Error mass by material class", out.stdout)
        self.assertIn("Error mass by imbalance", out.stdout)
        # Without --positions the labels file's own positions are read: the same table.
        again = self.run_script("--labels", labels)
        self.assertEqual(out.stdout.split("\n\n")[1].strip(), again.stdout.split("\n\n")[1].strip())

    def test_signatures_and_classes(self):
        m = self.module
        # Stronger side first, whichever colour it is.
        self.assertEqual(m.signature("8/8/3k4/8/2b5/8/R3K3/8 w - - 0 1"), "KRvKB")
        self.assertEqual(m.signature("8/8/3k4/8/2r5/8/B3K3/8 w - - 0 1"), "KRvKB")
        self.assertEqual(m.signature("4r1k1/pp3ppp/8/8/8/8/PP3PP1/4R1K1 w - - 0 25"), "KRPPPPPvKRPPPP")
        # Opposite-coloured bishops (f7 light, d2 dark) are marked; e7 and d2 are both dark.
        self.assertEqual(m.material_class("4k3/5b2/8/2P5/8/8/3B4/4K3 w - - 0 1"), "KB+PvKB ocb")
        self.assertEqual(m.material_class("4k3/4b3/8/2P5/8/8/3B4/4K3 w - - 0 1"), "KB+PvKB")
        self.assertEqual(m.imbalance("r3k3/pp6/8/8/8/8/PPP5/1NB1K3 w - - 0 1"), "BNvR P+1")
        self.assertEqual(m.imbalance("1nb1k3/ppp5/8/8/8/8/PP6/R3K3 b - - 0 1"), "BNvR P+1")
        self.assertEqual(m.imbalance("4k3/pp6/8/8/8/8/PPP5/4K3 w - - 0 1"), "= P+1")

    def test_bad_input_is_a_clear_error(self):
        bad = os.path.join(self.dir.name, "bad.txt")
        with open(bad, "w") as f:
            f.write("this is not a position | 0 | 1.0\n")
        out = self.run_script("--positions", bad)
        self.assertEqual(out.returncode, 2)
        self.assertIn("not a FEN", out.stderr)
        missing = self.run_script("--positions", os.path.join(self.dir.name, "nowhere.txt"))
        self.assertEqual(missing.returncode, 2)
        self.assertIn("cannot read", missing.stderr)
        nothing = self.run_script("--worst", "3")
        self.assertEqual(nothing.returncode, 2)
        self.assertIn("--labels", nothing.stderr)
        broken = self.run_script("--positions", self.positions, "--sample", "0")
        self.assertEqual(broken.returncode, 2)
        self.assertNotIn("Traceback", broken.stderr)


if __name__ == "__main__":
    unittest.main()
