#!/usr/bin/env python3
"""Tests of scripts/eval-ablation.py with a fake tuner whose losses are known.

The fake `tune` writes a small weight table for `--epochs 0`; otherwise it reads its
`--config` and reports a validation loss that grows with the size of the weights zeroed in it
(each family's "worth" is the sum of its weights' magnitudes), and it fails if `--only` names
a weight that the config zeroed. So the ablation must rank the families by that sum, give the
control a rise of zero, and never refit a zeroed family. The families come from a fake
source tree; the real tree's families are checked on names whose family is known.

    python3 scripts/test-eval-ablation.py
"""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "eval-ablation.py")
spec = importlib.util.spec_from_file_location("eval_ablation", SCRIPT)
ablation = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ablation)

TABLE = '''[eval]
# material: per kind
"material.pawn" = [90, 100]
"material.knight" = [300, 310]
big_term = [40, 60]
"small_term.a" = [1, 2]
"small_term.b" = [3, 0]
known_win = [500, 500]
'''

SOURCE = '''
declare_weights! {
    family Base;
    MATERIAL[Roles] = [S(90, 100), S(300, 310)];
}
declare_weights! {
    /// A family.
    family Big;
    channel Linear, row Big, range -300..=300;
    BIG_TERM = S(40, 60);
}
declare_weights! {
    family Small;
    SMALL_TERM[Names(&["a", "b"])] = [S(1, 2), S(3, 0)];
}
declare_weights! {
    family Endgames;
    KNOWN_WIN = S(500, 500);
}
'''

FAKE = r'''
import re, sys
args = sys.argv[1:]
assert args[0] == "tune"
def opt(name):
    return args[args.index(name) + 1] if name in args else None
out = opt("--out")
if opt("--epochs") == "0":
    open(out, "w").write(TABLE)
    sys.exit(0)
config = open(opt("--config")).read()
only = set(opt("--only").split(","))
start = {m.group(1): [int(x) for x in m.group(2).split(",")] for m in
         (re.match(r'"?([a-z0-9_.]+)"?\s*=\s*\[([^\]]*)\]', l) for l in TABLE.splitlines()) if m}
now = {m.group(1): [int(x) for x in m.group(2).split(",")] for m in
       (re.match(r'"?([a-z0-9_.]+)"?\s*=\s*\[([^\]]*)\]', l) for l in config.splitlines()) if m}
lost = 0
for name, values in start.items():
    if now[name] != values:
        if name in only:
            print(f"zeroed weight {name} refitted", file=sys.stderr)
            sys.exit(3)
        lost += sum(abs(v) for v in values)
if "known_win" in only:
    print("an endgame verdict refitted", file=sys.stderr)
    sys.exit(4)
open(out, "w").write(config)
print(f"validation loss: starting weights {0.01 + lost * 1e-5:.8f}, written weights {0.008 + lost * 1e-6:.8f} (rounded)")
'''


class EvalAblation(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        d = self.dir.name
        self.eval_dir = os.path.join(d, "eval")
        os.makedirs(os.path.join(self.eval_dir, "sub"))
        with open(os.path.join(self.eval_dir, "a.rs"), "w") as f:
            f.write(SOURCE.split("declare_weights! {\n    family Small;")[0])
        with open(os.path.join(self.eval_dir, "sub", "b.rs"), "w") as f:
            f.write("declare_weights! {\n    family Small;" + SOURCE.split("family Small;")[1])
        self.fake = os.path.join(d, "minkowski")
        with open(self.fake, "w") as f:
            f.write(f"#!{sys.executable}\nTABLE = {TABLE!r}\n{FAKE}")
        os.chmod(self.fake, 0o755)
        self.data = os.path.join(d, "data.txt")
        with open(self.data, "w") as f:
            f.write("8/8/8/8/8/8/8/K6k w - - 0 1 | 0 | 0.5\n")

    def tearDown(self):
        self.dir.cleanup()

    def run_script(self, *extra):
        out = os.path.join(self.dir.name, "out")
        run = subprocess.run([sys.executable, SCRIPT, "--bin", self.fake, "--data", self.data,
                              "--eval-dir", self.eval_dir, "--out-dir", out, *extra],
                             capture_output=True, text=True)
        return run, out

    def test_families_ranked_by_what_they_hold(self):
        run, out = self.run_script()
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(os.path.join(out, "results.json")) as f:
            results = json.load(f)
        self.assertEqual(set(results), {"control", "Big", "Small"})
        self.assertEqual(results["control"]["rise"], 0.0)
        self.assertEqual(results["Big"]["weights"], 1)
        self.assertEqual(results["Small"]["weights"], 2)
        # Big holds 100 cp of weight, Small 6: the rise is 1e-6 per centipawn zeroed.
        self.assertAlmostEqual(results["Big"]["rise"], 100e-6, places=9)
        self.assertAlmostEqual(results["Small"]["rise"], 6e-6, places=9)
        self.assertIn("| Big | 1 |", run.stdout)

    def test_one_family_and_an_unknown_one(self):
        run, out = self.run_script("--families", "Small")
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(os.path.join(out, "results.json")) as f:
            self.assertEqual(set(json.load(f)), {"control", "Small"})
        run, _ = self.run_script("--families", "Nonsense")
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("no such family: Nonsense", run.stderr)
        self.assertNotIn("Traceback", run.stderr)

    def test_a_weight_without_a_family_is_an_error(self):
        os.remove(os.path.join(self.eval_dir, "sub", "b.rs"))
        run, _ = self.run_script()
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("'small_term.a' belongs to no declare_weights! family", run.stderr)

    def test_the_real_source_tree(self):
        family_of = ablation.families_of_source(os.path.join(os.path.dirname(HERE), "core", "src", "eval"))
        for name, family in [("material", "Base"), ("psqt", "Base"), ("threat_weak_pawn", "Threats"),
                             ("fork_now", "Threats"), ("danger_base", "King"), ("passed_pawn", "Passers"),
                             ("mobility_knight", "Mobility"), ("known_win", "Endgames")]:
            self.assertEqual(family_of.get(name), family, name)

    def test_zeroed_keeps_the_rest(self):
        text = ablation.zeroed(TABLE, {"big_term", "small_term.b"})
        self.assertIn("big_term = [0, 0]", text)
        self.assertIn('"small_term.b" = [0, 0]', text)
        self.assertIn('"small_term.a" = [1, 2]', text)
        self.assertIn('"material.knight" = [300, 310]', text)


if __name__ == "__main__":
    unittest.main(verbosity=1)
