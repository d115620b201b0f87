#!/usr/bin/env python3
"""Tests of scripts/spsa.py that need no engine: fake game functions (and a fake match.py for
the command line), so every expected number is known. Covers the update rule against a step
computed by hand, the run that is killed (SIGKILL, mid-step) and resumed against the one that
never was, clamping, the parameter table of params.rs and writing tuned values back into it.

    python3 scripts/test-spsa.py
"""

import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import spsa  # noqa: E402

DECLARATIONS = {
    "margin": {"default": 80, "min": 20, "max": 250, "c_end": 8.0},
    "depth": {"default": 7, "min": 1, "max": 12, "c_end": 0.5},
}

# A match.py stand-in: the plus engine (`-n plus`) wins a game when its `margin` is lower than
# the minus engine's, loses when higher, draws otherwise; the second game of a pair is always a
# draw. FAKE_SLEEP seconds per call, so that a test can kill the driver mid-step.
FAKE_MATCH = r"""
import json, sys, time
args = sys.argv[1:]
values, current = {}, None
games, out = 0, None
i = 0
while i < len(args):
    a = args[i]
    if a == "-n":
        current = args[i + 1]; values[current] = {}; i += 2
    elif a == "-o":
        k, v = args[i + 1].split("="); values[current][k] = int(v); i += 2
    elif a == "--games":
        games = int(args[i + 1]); i += 2
    elif a == "--json":
        out = args[i + 1]; i += 2
    elif a in ("--quiet",):
        i += 1
    else:
        i += 2 if a.startswith("--") or a == "-e" else 1
time.sleep(float(__import__("os").environ.get("FAKE_SLEEP", "0")))
d = values["plus"]["margin"] - values["minus"]["margin"]
pairs = games // 2
w, l = (pairs, 0) if d < 0 else ((0, pairs) if d > 0 else (0, 0))
json.dump({"games": games, "wins": w, "draws": games - w - l, "losses": l,
           "aborted": None, "interrupted": False}, open(out, "w"))
"""


def fake_play(plus, minus, opening, pairs):
    """Deterministic in its inputs: lower margins win (the optimum is at the minimum)."""
    d = plus["margin"] - minus["margin"]
    if d < 0:
        return 1 * pairs, 1 * pairs, 0
    if d > 0:
        return 0, 1 * pairs, 1 * pairs
    return 0, 2 * pairs, 0


class UpdateRule(unittest.TestCase):
    def test_one_step_by_hand(self):
        state = spsa.new_state(DECLARATIONS, ["margin", "depth"], iterations=100, seed=7,
                               big_a=10, opening_count=50)
        margin = state["params"][0]
        # c = c_end * N^gamma; a = r_end * c_end^2 * (A + N)^alpha, by hand for N = 100, A = 10.
        self.assertAlmostEqual(margin["c"], 8.0 * 100 ** 0.101, places=12)
        self.assertAlmostEqual(margin["c"], 12.7377, places=4)
        self.assertAlmostEqual(margin["a"], 0.002 * 64 * 110 ** 0.602, places=12)
        self.assertAlmostEqual(margin["a"], 2.1683, places=4)
        flips = spsa.flips_for(7, 1, 2)
        seen = {}

        def play(plus, minus, opening, pairs):
            seen.update(plus=plus, minus=minus, opening=opening, pairs=pairs)
            return 2, 0, 0  # theta+ won both games: result +2

        spsa.step(state, play)
        # k = 1: c_1 = c = 12.7377, so the engines got 80 +- 12.7377 rounded: 93 and 67.
        self.assertEqual(seen["plus"]["margin"], 93 if flips[0] == 1 else 67)
        self.assertEqual(seen["minus"]["margin"], 67 if flips[0] == 1 else 93)
        # a_1 = a / (A + 1)^alpha = 2.1683 / 11^0.602 = 0.51193; the step is
        # a_1 / c_1 * result * flip = 0.51193 / 12.7377 * 2 = 0.080380 towards theta+.
        expected = 80 + flips[0] * 2 * (0.002 * 64 * 110 ** 0.602 / 11 ** 0.602) / (8.0 * 100 ** 0.101)
        self.assertAlmostEqual(state["params"][0]["theta"], expected, places=12)
        self.assertAlmostEqual(abs(state["params"][0]["theta"] - 80), 0.080380, places=5)
        self.assertEqual((state["iter"], state["steps"], state["games"], state["wins"]), (1, 1, 2, 2))
        # The depth (c_end 0.5): 7 +- 0.796 rounds to 8 and 6.
        self.assertEqual(sorted([seen["plus"]["depth"], seen["minus"]["depth"]]), [6, 8])

    def test_a_draw_moves_nothing_and_pairs_advance_k(self):
        state = spsa.new_state(DECLARATIONS, ["margin"], iterations=100, seed=1, pairs=3,
                               opening_count=50)
        spsa.step(state, lambda plus, minus, opening, pairs: (1, 4, 1))
        self.assertEqual(state["params"][0]["theta"], 80.0)
        self.assertEqual((state["iter"], state["steps"], state["games"]), (3, 1, 6))
        with self.assertRaises(spsa.SpsaError):  # 5 games reported for 3 pairs
            spsa.step(state, lambda plus, minus, opening, pairs: (1, 3, 1))

    def test_signs_are_bernoulli_and_fixed_by_seed_and_k(self):
        signs = [f for k in range(1, 2001) for f in spsa.flips_for(3, k, 5)]
        self.assertEqual(set(signs), {-1, 1})
        self.assertLess(abs(sum(signs)) / len(signs), 0.05)
        self.assertEqual(spsa.flips_for(3, 17, 5), spsa.flips_for(3, 17, 5))
        self.assertNotEqual([spsa.flips_for(3, k, 5) for k in range(1, 9)],
                            [spsa.flips_for(4, k, 5) for k in range(1, 9)])


class Clamping(unittest.TestCase):
    def test_theta_and_engine_values_stay_in_range(self):
        state = spsa.new_state(DECLARATIONS, ["margin"], iterations=100, seed=2,
                               opening_count=10)
        state["params"][0]["theta"] = 21.0
        state["params"][0]["a"] = 1000.0  # a huge step
        for _ in range(30):
            spsa.step(state, fake_play)
            self.assertGreaterEqual(state["params"][0]["theta"], 20.0)
            _, _, _, plus, minus = spsa.perturbation(state)
            self.assertGreaterEqual(min(plus["margin"], minus["margin"]), 20)
        # fake_play rewards lower margins: theta is pinned at the minimum.
        self.assertEqual(state["params"][0]["theta"], 20.0)
        state["params"][0]["theta"] = 249.6
        self.assertEqual(spsa.engine_value(state["params"][0], 255.0), 250)
        self.assertEqual(spsa.engine_value(state["params"][0], 249.5), 250)
        self.assertEqual(spsa.engine_value(state["params"][0], 249.49), 249)


class Resume(unittest.TestCase):
    def test_interrupted_run_equals_the_uninterrupted_one(self):
        with tempfile.TemporaryDirectory() as tmp:
            whole, parts = os.path.join(tmp, "whole.json"), os.path.join(tmp, "parts.json")
            for path in (whole, parts):
                spsa.save_state(path, spsa.new_state(DECLARATIONS, ["margin", "depth"], 40, 5,
                                                     opening_count=30))
            spsa.run(whole, fake_play)
            calls = []

            def dying(plus, minus, opening, pairs):
                calls.append(1)
                if len(calls) == 13:
                    raise KeyboardInterrupt  # killed in the middle of the 13th step
                return fake_play(plus, minus, opening, pairs)

            with self.assertRaises(KeyboardInterrupt):
                spsa.run(parts, dying)
            self.assertEqual(spsa.load_state(parts)["steps"], 12)
            spsa.run(parts, fake_play, steps=5)
            spsa.run(parts, fake_play)
            with open(whole) as a, open(parts) as b:
                self.assertEqual(json.load(a), json.load(b))
            self.assertEqual(spsa.load_state(whole)["iter"], 40)

    def test_sigkill_mid_step_then_resume_on_the_command_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            params_file = os.path.join(tmp, "params.rs")
            with open(params_file, "w") as fh:
                fh.write("tunable_params! {\n    /// A margin.\n"
                         "    margin = 80 in 20..=250, c_end 8.0;\n"
                         "    depth = 7 in 1..=12, c_end 0.5;\n}\n")
            openings = os.path.join(tmp, "openings.epd")
            with open(openings, "w") as fh:
                fh.write("".join(f"8/8/8/8/8/8/{i}/8 w - -\n" for i in range(1, 9)))
            fake_match = os.path.join(tmp, "match.py")
            with open(fake_match, "w") as fh:
                fh.write(FAKE_MATCH)
            engine = os.path.join(tmp, "engine")
            with open(engine, "w") as fh:  # answers `uci` with the two options
                fh.write("#!/bin/sh\necho 'option name margin type spin default 80 min 20 max 250'\n"
                         "echo 'option name depth type spin default 7 min 1 max 12'\necho uciok\n")
            os.chmod(engine, 0o755)
            states = {}
            for label in ("whole", "killed"):
                state = os.path.join(tmp, f"{label}.json")
                states[label] = state
                init = [sys.executable, os.path.join(HERE, "spsa.py"), "init", "--state", state,
                        "--params-file", params_file, "--iterations", "12", "--seed", "9",
                        "--openings", openings]
                subprocess.run(init, check=True, stdout=subprocess.DEVNULL)
            cmd = lambda state: [sys.executable, os.path.join(HERE, "spsa.py"), "run", "--state",
                                 state, "--engine", engine, "--match", fake_match]
            subprocess.run(cmd(states["whole"]), check=True, stdout=subprocess.DEVNULL)
            env = dict(os.environ, FAKE_SLEEP="0.3")
            proc = subprocess.Popen(cmd(states["killed"]), env=env, stdout=subprocess.DEVNULL)
            deadline = time.monotonic() + 60
            while spsa.load_state(states["killed"])["steps"] < 4 and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.15)  # inside the next step's match
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            stopped = spsa.load_state(states["killed"])["steps"]
            self.assertTrue(4 <= stopped < 12, stopped)
            self.assertEqual(proc.returncode, -signal.SIGKILL)
            subprocess.run(cmd(states["killed"]), check=True, stdout=subprocess.DEVNULL)
            a, b = spsa.load_state(states["whole"]), spsa.load_state(states["killed"])
            self.assertEqual(a, b)
            self.assertEqual(a["steps"], 12)
            self.assertNotEqual(a["params"][0]["theta"], 80.0)
            report = subprocess.run([sys.executable, os.path.join(HERE, "spsa.py"), "report",
                                     "--state", states["killed"]], check=True,
                                    stdout=subprocess.PIPE, text=True).stdout
            self.assertIn("pairs 12 of 12 (12 steps), games 24", report)
            self.assertIn("margin", report)

    def test_cutechess_command_carries_each_side_its_values(self):
        cmd = spsa.cutechess_command("/cc", "/e", {"margin": 70, "depth": 6},
                                     {"margin": 90, "depth": 8}, 3000, "/tmp/o.epd", 2, 2)
        plus = cmd.index("name=plus")
        minus = cmd.index("name=minus")
        self.assertEqual(cmd[plus + 1:plus + 3], ["option.margin=70", "option.depth=6"])
        self.assertEqual(cmd[minus + 1:minus + 3], ["option.margin=90", "option.depth=8"])
        for word in ("nodes=3000", "tc=inf", "file=/tmp/o.epd", "-repeat", "twosided=true"):
            self.assertIn(word, cmd)
        self.assertEqual(cmd[cmd.index("-rounds") + 1], "2")
        self.assertEqual(cmd[cmd.index("-games") + 1], "2")

    def test_cutechess_output_parses_and_faults_are_refused(self):
        out = ("Started game 1 of 2 (plus vs minus)\n"
               "Score of plus vs minus: 0 - 0 - 1  [0.500] 1\n"
               "Score of plus vs minus: 1 - 0 - 1  [0.750] 2\nFinished match\n")
        self.assertEqual(spsa.parse_cutechess(out, 2), (1, 1, 0))  # cutechess prints W - L - D
        self.assertEqual(spsa.parse_cutechess(out.replace("1 - 0 - 1", "0 - 2 - 0"), 2),
                         (0, 0, 2))
        with self.assertRaises(spsa.SpsaError):
            spsa.parse_cutechess(out, 4)  # games missing
        with self.assertRaises(spsa.SpsaError):
            spsa.parse_cutechess("Finished game 1 (plus vs minus): 0-1 {White loses on time}\n"
                                 + out, 2)
        with self.assertRaises(spsa.SpsaError):
            spsa.parse_cutechess("Warning: cannot start engine\n", 2)

    def test_cutechess_player_plays_the_steps_openings(self):
        with tempfile.TemporaryDirectory() as tmp:
            openings = os.path.join(tmp, "openings.epd")
            with open(openings, "w") as fh:
                fh.write("# a comment\n" + "".join(f"8/8/8/8/8/8/{i}/8 w - -\n"
                                                   for i in range(1, 6)))
            seen = os.path.join(tmp, "seen.epd")
            fake = os.path.join(tmp, "cutechess-cli")
            with open(fake, "w") as fh:  # copies its opening file, reports the plus side's score
                fh.write("#!/bin/sh\nwhile [ $# -gt 0 ]; do case $1 in file=*) "
                         f"cp \"${{1#file=}}\" {seen};; esac; shift; done\n"
                         "echo 'Score of plus vs minus: 2 - 1 - 1  [0.625] 4'\n")
            os.chmod(fake, 0o755)
            play = spsa.cutechess_player("/bin/true", fake, 3000, openings)
            self.assertEqual(play({"margin": 1}, {"margin": 2}, 4, 2), (2, 1, 1))
            with open(seen) as fh:  # openings 4 and 0 (wrapping), the comment skipped
                self.assertEqual(fh.read(), "8/8/8/8/8/8/5/8 w - -\n8/8/8/8/8/8/1/8 w - -\n")
            with self.assertRaises(spsa.SpsaError):  # four games reported, two expected
                play({"margin": 1}, {"margin": 2}, 0, 1)
            with self.assertRaises(spsa.SpsaError):
                spsa.cutechess_player("/bin/true", os.path.join(tmp, "none"), 3000,
                                      openings)({}, {}, 0, 1)

    def test_refuses_an_engine_without_the_options(self):
        with tempfile.TemporaryDirectory() as tmp:
            engine = os.path.join(tmp, "engine")
            with open(engine, "w") as fh:
                fh.write("#!/bin/sh\necho 'option name Hash type spin default 16 min 1 max 9'\n")
            os.chmod(engine, 0o755)
            with self.assertRaisesRegex(spsa.SpsaError, "tune-search"):
                spsa.check_engine(engine, ["margin"])


class ParamsFile(unittest.TestCase):
    def test_the_real_table_parses_and_is_sane(self):
        table = spsa.read_declarations()
        self.assertGreaterEqual(len(table), 30)
        self.assertEqual(table["rfp_margin"]["default"], 80)
        for name, d in table.items():
            self.assertTrue(d["min"] <= d["default"] <= d["max"], name)
            self.assertGreater(d["c_end"], 0, name)
            self.assertLessEqual(d["c_end"], (d["max"] - d["min"]) / 2, name)

    def test_apply_rewrites_only_the_defaults(self):
        with open(spsa.PARAMS_FILE, encoding="utf-8") as fh:
            text = fh.read()
        new = spsa.apply_to_source(text, {"rfp_margin": 91, "lmr_base_x100": 70})
        self.assertIn("    rfp_margin = 91 in 20..=250, c_end 8.0;\n", new)
        self.assertEqual(len(new.splitlines()), len(text.splitlines()))
        changed = [(a, b) for a, b in zip(text.splitlines(), new.splitlines()) if a != b]
        self.assertEqual(len(changed), 2)
        defaults = spsa.read_declarations()
        back = {name: defaults[name]["default"] for name in ("rfp_margin", "lmr_base_x100")}
        self.assertEqual(spsa.apply_to_source(new, back), text)
        with self.assertRaises(spsa.SpsaError):
            spsa.apply_to_source(text, {"rfp_margin": 10})  # below its minimum
        with self.assertRaises(spsa.SpsaError):
            spsa.apply_to_source(text, {"no_such_param": 1})


if __name__ == "__main__":
    unittest.main()
