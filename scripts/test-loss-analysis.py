#!/usr/bin/env python3
"""Tests of scripts/loss-analysis.py with fake engines whose answers are known.

A fake oracle and a fake "ours" (one Python program, two roles) read their answers from a JSON
table keyed by position (the FEN's first four fields): the oracle's value and best move, a
second value for a position asked again (the re-run with a cleared hash), our engine's move at
small and at large node budgets, and our `eval` trace. A short game then holds one move of each
kind (a search miss, a judgement mistake, a drop the oracle calls best, a drop the re-run does
not confirm) and the test checks that the analysis finds exactly those, with the right phase,
kind, rates and family falls; then bad input.

    python3 scripts/test-loss-analysis.py
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import chess
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "loss-analysis.py")

FAKE = r'''
import json, os, sys
import chess
TABLE = json.load(open(os.environ["FAKE_TABLE"]))
ROLE = sys.argv[1]

def key(board):
    return " ".join(board.fen().split()[:4])

if len(sys.argv) > 2 and sys.argv[2] == "eval":
    board = chess.Board(" ".join(sys.argv[3:]))
    fams = TABLE.get("trace", {}).get(key(board), {"Material": 0, "Threats": 0})
    print("Term            |  White        |  Black        |  Total       ")
    print("-" * 67)
    sign = 1 if board.turn == chess.WHITE else -1
    for name, value in fams.items():
        v = sign * value  # the table holds the side to move's view; the trace prints White's
        print(f"{name:<16}|  {0:5d}  {0:5d} |  {0:5d}  {0:5d} |  {v:5d}  {v:5d}")
    print("Phase: 24 / 24")
    print("Total: 0 cp")
    sys.exit(0)

board = chess.Board()
seen = {}
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name fake-" + ROLE); print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        if words[1] == "startpos":
            board = chess.Board(); rest = words[2:]
        else:
            board = chess.Board(" ".join(words[2:8])); rest = words[8:]
        if rest and rest[0] == "moves":
            for m in rest[1:]:
                board.push_uci(m)
    elif words[0] == "go":
        nodes = int(words[words.index("nodes") + 1]) if "nodes" in words else 0
        k = key(board)
        legal = sorted(m.uci() for m in board.legal_moves)
        if ROLE == "oracle":
            entry = TABLE["oracle"].get(k, {})
            seen[k] = seen.get(k, 0) + 1
            value = entry.get("again", entry.get("value", 0)) if seen[k] > 1 else entry.get("value", 0)
            move = entry.get("best", legal[0])
        else:
            entry = TABLE["ours"].get(k, {})
            big = nodes >= TABLE["big_nodes"]
            move = entry.get("deep" if big else "move", legal[0])
            value = entry.get("score", 0)
        print(f"info depth {20 if nodes >= TABLE['big_nodes'] else 10} score cp {value} nodes {nodes} pv {move}")
        print("bestmove " + move, flush=True)
    elif words[0] == "quit":
        break
'''


def read_json(path):
    with open(path) as f:
        return json.load(f)


def k(board):
    return " ".join(board.fen().split()[:4])


class LossAnalysis(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        cls.fake = os.path.join(d, "fake.py")
        with open(cls.fake, "w") as f:
            f.write(FAKE)
        # Our moves as White: e4 (fine), Nf3 (search miss), Bc4 (a drop the oracle calls best:
        # noise), d3 (judgement), O-O (a drop the re-run does not confirm), then Re1 in a decided
        # position (skipped).
        moves = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "d3", "Be7", "O-O", "O-O", "Re1"]
        board = chess.Board()
        positions = []
        for san in moves:
            positions.append(board.copy())
            board.push_san(san)
        game = chess.pgn.Game()
        game.headers.update({"White": "mk", "Black": "opp", "Result": "0-1", "TimeControl": "nodes=1000"})
        node = game
        for i, san in enumerate(moves):
            node = node.add_main_variation(positions[i].parse_san(san))
            node.comment = f"+0.{10 + i}/{12 + i} 0.05s"
        # A game of others (skipped) and a game we won (skipped by --only not-won).
        other = chess.pgn.Game()
        other.headers.update({"White": "a", "Black": "b", "Result": "1-0", "TimeControl": "nodes=1000"})
        other.add_main_variation(chess.Move.from_uci("e2e4"))
        won = chess.pgn.Game()
        won.headers.update({"White": "mk", "Black": "opp", "Result": "1-0", "TimeControl": "nodes=1000"})
        won.add_main_variation(chess.Move.from_uci("d2d4"))
        cls.pgn = os.path.join(d, "games.pgn")
        with open(cls.pgn, "w") as f:
            for g in (game, other, won):
                print(g, file=f, end="\n\n")

        def after(i, alt=None):
            b = positions[i].copy()
            b.push(b.parse_san(alt) if alt else b.parse_san(moves[i]))
            return b

        oracle, ours, trace = {}, {}, {}
        # Before each of our moves the oracle says +20 for White; after each of our moves it
        # gives Black's view (-20: no drop) unless set below.
        for i in range(0, len(moves), 2):
            oracle[k(positions[i])] = {"value": 20}
            oracle[k(after(i))] = {"value": -20}
        # Nf3 (ply 2): after it Black is +230 (drop 250); ten times the nodes plays d4 instead,
        # which keeps -20: a search miss.
        oracle[k(after(2))] = {"value": 230}
        ours[k(positions[2])] = {"move": "g1f3", "deep": "d2d4"}
        oracle[k(after(2, "d4"))] = {"value": -10}
        # Bc4 (ply 4): a 150 drop, but the oracle's own best move is Bc4: noise.
        oracle[k(after(4))] = {"value": 130}
        oracle[k(positions[4])] = {"value": 20, "best": "f1c4"}
        # d3 (ply 6): a 200 drop; ten times the nodes still plays d3: judgement. Our line after
        # d3 (ours' move there: Be7) and the oracle's line (best Nxe4... here Bb4+ is not legal;
        # the oracle's best after d3 is Bc5) end in positions whose traces differ in Threats.
        oracle[k(after(6))] = {"value": 180, "best": "f8c5"}
        ours[k(positions[6])] = {"move": "d2d3", "deep": "d2d3"}
        ours[k(after(6))] = {"move": "f8e7"}
        ours_end, oracle_end = after(6), after(6)
        ours_end.push_uci("f8e7")
        oracle_end.push_uci("f8c5")
        # Traces are from the side to move (White at both line ends): Threats -40 on the oracle's
        # line against +10 on ours: a fall of 50; Material the same.
        trace[k(ours_end)] = {"Material": 0, "Threats": 10}
        trace[k(oracle_end)] = {"Material": 0, "Threats": -40}
        # O-O (ply 8): a 150 drop at first, only 40 on the re-run: not confirmed.
        oracle[k(after(8))] = {"value": 130, "again": 20}
        # Re1 (ply 10): the position is decided (+900): skipped.
        oracle[k(positions[10])] = {"value": 900}
        cls.table = os.path.join(d, "table.json")
        with open(cls.table, "w") as f:
            json.dump({"oracle": oracle, "ours": ours, "trace": trace, "big_nodes": 10000}, f)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_script(self, *extra):
        env = dict(os.environ, FAKE_TABLE=self.table)
        py = sys.executable
        return subprocess.run([py, SCRIPT, "--pgn", self.pgn, "--engine-name", "mk",
                               "--ours", f"{py} {self.fake} ours", "--oracle", f"{py} {self.fake} oracle",
                               "--oracle-nodes", "1000", *extra], capture_output=True, text=True, env=env, timeout=120)

    def test_finds_each_kind(self):
        out = os.path.join(self.tmp.name, "out.json")
        md = os.path.join(self.tmp.name, "out.md")
        r = self.run_script("--json", out, "--markdown", md)
        self.assertEqual(r.returncode, 0, r.stderr)
        data = read_json(out)
        self.assertEqual(len(data["games"]), 1, "only our not-won game is analysed")
        game = data["games"][0]
        mistakes = {m["san"]: m for m in game["mistakes"]}
        self.assertEqual(set(mistakes), {"Nf3", "d3"})
        self.assertEqual(mistakes["Nf3"]["kind"], "search")
        self.assertEqual(mistakes["Nf3"]["drop"], 250)
        self.assertEqual(mistakes["Nf3"]["deeper_move"], "d2d4")
        self.assertEqual(mistakes["Nf3"]["deeper_drop"], 10)
        self.assertEqual(mistakes["Nf3"]["our_score"], 12)
        self.assertEqual(mistakes["Nf3"]["our_depth"], 14)
        self.assertEqual(mistakes["d3"]["kind"], "judgement")
        self.assertEqual(mistakes["d3"]["drop"], 200)
        self.assertEqual(mistakes["d3"]["families"]["Threats"], -50)
        self.assertEqual(mistakes["d3"]["families"]["Material"], 0)
        self.assertEqual(game["noise"], 1)
        self.assertEqual(game["unconfirmed"], 1)
        self.assertEqual(game["skipped_decided"], 1)
        self.assertEqual(game["analysed"], {"opening": 5, "middlegame": 0, "endgame": 0})
        s = data["summary"]
        self.assertEqual(s["mistakes"]["opening/search"], 1)
        self.assertEqual(s["mistakes"]["opening/judgement"], 1)
        self.assertEqual(s["oracle_self_agreement"], 0.667)
        self.assertEqual(s["families"]["Threats"], {"total_cp": -50, "mistakes": 1})
        with open(md) as f:
            table = f.read()
        self.assertIn("| opening | 5 | 20.00 (1) | 20.00 (1) | 40.00 | 4.5 |", table)
        self.assertIn("| Threats | -50 | 1 |", table)

    def test_resume_keeps_finished_games(self):
        out = os.path.join(self.tmp.name, "resume.json")
        r = self.run_script("--json", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        first = read_json(out)
        # Every game is in the file: a resumed run starts no engine (this oracle cannot start).
        r = self.run_script("--json", out, "--resume", "--oracle", "/nonexistent-engine")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(read_json(out), first)
        with open(out, "w") as f:
            f.write("{not json")
        r = self.run_script("--json", out, "--resume")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("cannot resume", r.stderr)

    def test_replay_same_positions(self):
        out = os.path.join(self.tmp.name, "first.json")
        r = self.run_script("--json", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        first = read_json(out)
        self.assertEqual(len(first["games"][0]["positions"]), 5)
        # Replayed, our fake engine answers from its table at the game's budget (1000 nodes):
        # Nf3 again (the search miss), d3 again (judgement); elsewhere its first legal move in
        # sorted order, which the oracle values at 0: no drop.
        again = os.path.join(self.tmp.name, "replay.json")
        env = dict(os.environ, FAKE_TABLE=self.table)
        py = sys.executable
        r = subprocess.run([py, SCRIPT, "--replay", out, "--ours", f"{py} {self.fake} ours",
                            "--oracle", f"{py} {self.fake} oracle", "--oracle-nodes", "1000", "--json", again],
                           capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        replay = read_json(again)
        self.assertEqual(replay["summary"]["analysed"], first["summary"]["analysed"])
        kinds = sorted((m["san"], m["kind"]) for m in replay["games"][0]["mistakes"])
        self.assertEqual(kinds, [("Nf3", "search"), ("d3", "judgement")])

    def test_only_lost_and_all(self):
        r = self.run_script("--only", "all", "--json", os.path.join(self.tmp.name, "all.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(len(read_json(os.path.join(self.tmp.name, "all.json"))["games"]), 2)

    def test_bad_input(self):
        cases = [(["--oracle-nodes", "0"], "at least 1"),
                 (["--oracle-option", "Hash"], "NAME=VALUE"),
                 (["--engine-name", "nobody"], "nothing to analyse: not-won games"),
                 (["--replay", "/nonexistent.json"], "No such file")]
        for extra, message in cases:
            r = self.run_script(*extra)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn(message, r.stderr)
            self.assertNotIn("Traceback", r.stderr)
        timed = os.path.join(self.tmp.name, "timed.pgn")
        with open(self.pgn) as src, open(timed, "w") as dst:
            dst.write(src.read().replace("nodes=1000", "10+0.1"))
        env = dict(os.environ, FAKE_TABLE=self.table)
        r = subprocess.run([sys.executable, SCRIPT, "--pgn", timed, "--engine-name", "mk", "--ours", "x",
                            "--oracle", "y"], capture_output=True, text=True, env=env)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("--budget-nodes", r.stderr)
        r = subprocess.run([sys.executable, SCRIPT, "--pgn", "/nonexistent.pgn", "--engine-name", "mk",
                            "--ours", "x"], capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertNotIn("Traceback", r.stderr)
        r = self.run_script("--oracle", "/nonexistent-engine")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("engine failed", r.stderr)


if __name__ == "__main__":
    unittest.main()
