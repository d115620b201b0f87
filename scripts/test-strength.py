#!/usr/bin/env python3
"""Tests of the strength page's scripts, on temporary copies (nothing in the repository is
written): strength-plot.py (the picture and tables from the CSV, --check catching a stale file
and a page's match figure without a CSV row, bad rows refused), add-match.py (a match.py JSON
becomes a row; a strength level's UCI_Elo is read from the options; repeats and aborted matches
refused), calibrate-elo.py --dry-run (the plan's commands, nothing played) and strength-fit.py
(a known line recovered). Also that the
repository's own picture and tables are up to date.

    python3 scripts/test-strength.py
"""

import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
PLOT = os.path.join(HERE, "strength-plot.py")
ADD = os.path.join(HERE, "add-match.py")
CALIBRATE = os.path.join(HERE, "calibrate-elo.py")
FIT = os.path.join(HERE, "strength-fit.py")
MATCHES = os.path.join(ROOT, "docs", "strength", "matches.csv")
PLOT_COLUMNS = ["date", "commit", "engine_version", "opponent", "opponent_rating",
                "rating_list", "time_control", "games", "wins", "draws", "losses", "score_pct",
                "elo", "elo_error", "forfeits", "uci_elo", "notes"]

# A match.py --json result as it writes them: Minkowski at UCI_Elo 1700 against Fairy-Max.
RESULT = {
    "engines": ["minkowski@1700", "fairymax"],
    "commands": ["/x/minkowski", "/usr/games/fairymax"],
    "options": [{"UCI_LimitStrength": "true", "UCI_Elo": "1700", "Hash": "16"}, {}],
    "limit": "10+0.1", "timemargin_ms": 50, "games": 100, "wins": 40, "draws": 20,
    "losses": 40, "score": 0.5, "pentanomial": [5, 10, 20, 10, 5], "adjudicated": 30,
    "elo": 0.0, "elo_margin95": 62.0, "elo_pentanomial": 0.0,
    "elo_pentanomial_margin95": 60.5, "nelo": 0.0, "nelo_margin95": 70.0, "los": 0.5,
    "faults": {"minkowski@1700": {"time": 0, "illegal": 0, "crash": 0},
               "fairymax": {"time": 1, "illegal": 0, "crash": 0}},
    "wall_seconds": 900.0, "aborted": None, "interrupted": False,
}


def run(*args):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120)


class StrengthScripts(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="strength-test-")
        self.csv = os.path.join(self.dir, "matches.csv")
        shutil.copy(MATCHES, self.csv)
        self.svg = os.path.join(self.dir, "strength.svg")
        self.doc = os.path.join(self.dir, "page.md")
        with open(self.doc, "w", encoding="utf-8") as f:
            f.write("before\n<!-- strength-plot: levels -->\nold\n<!-- strength-plot: end -->\n"
                    "after\n<!-- strength-plot: summary -->\n<!-- strength-plot: end -->\n")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def plot(self, *extra):
        return run(PLOT, "--csv", self.csv, "--svg", self.svg, "--docs", self.doc, *extra)

    def test_the_repository_is_up_to_date(self):
        out = run(PLOT, "--check")
        self.assertEqual(out.returncode, 0, out.stderr)

    def test_check_catches_a_stale_picture_and_table(self):
        self.assertEqual(self.plot("--check").returncode, 1)  # nothing written yet
        out = self.plot()
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(self.plot("--check").returncode, 0)
        with open(self.svg, encoding="utf-8") as f:
            picture = f.read()
        self.assertTrue(picture.startswith("<svg") and picture.endswith("</svg>\n"))
        for name in ("Ethereal 12", "Toga II 3.0", "3165"):
            self.assertIn(name, picture)
        with open(self.doc, encoding="utf-8") as f:
            page = f.read()
        self.assertTrue(page.startswith("before\n") and "\nafter\n" in page, page)
        self.assertIn("| 2500 | pending | pending |", page)  # a setting with no match yet
        self.assertNotIn("old", page)
        # A new row makes both stale.
        with open(self.csv, "a", encoding="utf-8") as f:
            f.write("2026-12-01,abc1234,0.2.0,Glaurung 2.2,2793,CCRL 40/40,10+0.1,200,80,60,60,"
                    "55.0,34.9,40.0,0,,\n")
        out = self.plot("--check")
        self.assertEqual(out.returncode, 1)
        self.assertIn("is stale", out.stderr)
        self.plot()
        with open(self.svg, encoding="utf-8") as f:
            self.assertIn("Glaurung 2.2", f.read())

    def test_bad_rows_are_refused_with_their_line(self):
        with open(self.csv, "a", encoding="utf-8") as f:
            f.write("2026-12-01,,,X,high,,10+0.1,2,1,0,1,50.0,0,,0,,\n")
        with open(self.csv, encoding="utf-8") as f:
            bad_line = len(f.readlines())  # the row just appended: the file's last line
        out = self.plot("--check")
        self.assertEqual(out.returncode, 2)
        self.assertIn(f"matches.csv:{bad_line}: opponent_rating 'high' is not a number",
                      out.stderr)
        with open(self.csv, "w", encoding="utf-8") as f:
            f.write("date,opponent\n")
        self.assertIn("the header must be", self.plot("--table").stderr)

    def test_check_catches_a_figure_without_a_row(self):
        self.assertEqual(self.plot().returncode, 0)  # the blocks are fresh: only figures count
        page = os.path.join(self.dir, "strength.md")
        results = os.path.join(self.dir, "results.md")
        untraced = os.path.join(self.dir, "untraced.csv")
        with open(page, "w", encoding="utf-8") as f:
            # A real row of matches.csv (Fairy-Max at UCI_Elo 1700), as the page writes it and
            # as a rating, beside a match the CSV does not have.
            f.write("1700 against Fairy-Max 2/3/55, −483 ± 232 → 1457 ± 232.\n"
                    "A new match: +30 =20 −10, +120 ± 80.\n")
        with open(results, "w", encoding="utf-8") as f:
            f.write("## Where we stand\n\nElo with its 95 % interval.\n\n"
                    "| anchor | figure |\n|---|---|\n"
                    "| Toga II 3.0 (CCRL 40/40 2854) | 56-20-24, 68.0 % |\n"
                    "| Glaurung 2.2 | 30-10-20, 66.7 % |\n"
                    "| main's search before F | 1-2-3, 10.0 %, +1 ± 2 |\n"
                    "\n## Measured changes\n\n+9 =9 −9, −5 ± 5\n")
        with open(untraced, "w", encoding="utf-8") as f:
            f.write("page,figure,reason\n")

        def check():
            return self.plot("--check", "--trace", page, results + "#Where we stand",
                             "--traced-csv", self.csv, "--untraced", untraced)

        out = check()
        self.assertEqual(out.returncode, 1)
        complaints = [l for l in out.stderr.splitlines() if "has no row" in l]
        self.assertEqual(len(complaints), 4, out.stderr)
        for figure in ("+30 =20 −10", "+120 ± 80"):
            self.assertTrue(any(f"strength.md:2: '{figure}'" in l for l in complaints), figure)
        # results.md: W-L-D and the score of an anchor's row; not the self-play row, not the
        # prose's "95 %", not another section.
        for figure in ("30-10-20", "66.7 %"):
            self.assertTrue(any(f"results.md:8: '{figure}'" in l for l in complaints), figure)
        self.assertFalse(any("1-2-3" in l or "95 %" in l or "+9 =9" in l for l in complaints))
        # One untraced figure listed with its reason; the match's row for the others.
        with open(untraced, "a", encoding="utf-8") as f:
            f.write(f"{os.path.relpath(page, ROOT)},+120 ± 80,no PGN kept\n")
        with open(self.csv, "a", encoding="utf-8") as f:
            f.write("2026-12-01,abc1234,0.2.0,Glaurung 2.2,2793,CCRL 40/40,10+0.1,60,30,20,10,"
                    "66.7,120.4,80.1,0,,\n")
        self.assertEqual(self.plot().returncode, 0)  # the tables take the new row
        out = check()
        self.assertEqual(out.returncode, 0, out.stderr)
        # A listed figure gone from its page is reported: the list must not go stale.
        with open(page, "w", encoding="utf-8") as f:
            f.write("A new match: +30 =20 −10.\n")
        out = check()
        self.assertEqual(out.returncode, 1)
        self.assertIn("'+120 ± 80' is no longer on", out.stderr)

    def test_the_fit_recovers_a_known_line(self):
        # Two matches of the shipped mapping (1,800 nodes at 1350, doubling every 215 points)
        # whose measured ratings lie on 1350 + 250 * log2(nodes / 1800): the fit must give 250
        # points a doubling and 1,800 nodes at 1350, and the refit's budget at 1350 the same.
        folder = os.path.join(self.dir, "fit")
        os.makedirs(folder)
        header = ",".join(PLOT_COLUMNS) + "\n"
        with open(os.path.join(folder, "calibration-first-guess.csv"), "w",
                  encoding="utf-8") as f:
            f.write(header)
        with open(os.path.join(folder, "matches.csv"), "w", encoding="utf-8") as f:
            f.write(header)
            for setting, error in ((1700, 100.0), (2300, 150.0)):
                rating = 1350 + 250 * (setting - 1350) / 215
                f.write(f"2026-12-01,abc1234,0.2.0,Fairy-Max 5.0b,1940,CCRL 40/40,10+0.1,40,"
                        f"10,10,20,37.5,{rating - 1940:.4f},{error},0,{setting},\n")
        out = run(FIT, "--csv-dir", folder)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("| abc1234 (2026-12-01) | 2 | 250 | 1,800 |", out.stdout)
        self.assertIn("| 1350 | 1,800 | 1,800 | 1.00 |", out.stdout)

    def test_a_match_result_becomes_a_row(self):
        path = os.path.join(self.dir, "result.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(RESULT, f)
        out = run(ADD, path, "--csv", self.csv, "--date", "2026-12-02", "--commit", "abc1234",
                  "--engine-version", "0.2.0")
        self.assertEqual(out.returncode, 0, out.stderr)
        with open(self.csv, newline="", encoding="utf-8") as f:
            row = list(csv.DictReader(f))[-1]
        self.assertEqual(
            {k: row[k] for k in ("date", "commit", "opponent", "opponent_rating", "rating_list",
                                 "time_control", "games", "wins", "draws", "losses",
                                 "score_pct", "elo", "elo_error", "forfeits", "uci_elo")},
            {"date": "2026-12-02", "commit": "abc1234", "opponent": "Fairy-Max 5.0b",
             "opponent_rating": "1940", "rating_list": "CCRL 40/40", "time_control": "10+0.1",
             "games": "100", "wins": "40", "draws": "20", "losses": "40", "score_pct": "50.0",
             "elo": "0.0", "elo_error": "60.5", "forfeits": "0", "uci_elo": "1700"})
        self.assertIn("the opponent forfeited 1", row["notes"])
        # The same match again is refused.
        again = run(ADD, path, "--csv", self.csv, "--date", "2026-12-02")
        self.assertEqual(again.returncode, 1)
        self.assertIn("already holds this match", again.stderr)
        # The levels table now has the match in the setting's row, and the setting's rating is
        # the pool of every match at 1700 (the real ones too), weighted by 1/error², computed
        # here independently of the script.
        levels = run(PLOT, "--csv", self.csv, "--levels").stdout
        row_1700 = [l for l in levels.splitlines() if l.startswith("| 1700 |")]
        self.assertEqual(len(row_1700), 1, levels)
        self.assertIn("Fairy-Max 5.0b: 100, +0 ± 60", row_1700[0])
        with open(self.csv, newline="", encoding="utf-8") as f:
            at_1700 = [(float(r["opponent_rating"]) + float(r["elo"]), float(r["elo_error"]))
                       for r in csv.DictReader(f) if r["uci_elo"] == "1700"]
        weights = [1 / e ** 2 for _, e in at_1700]
        pooled = sum(w * r for w, (r, _) in zip(weights, at_1700)) / sum(weights)
        error = sum(weights) ** -0.5
        self.assertTrue(row_1700[0].endswith(f"| {pooled:.0f} ± {error:.0f} |"), row_1700[0])
        self.assertNotIn("Fairy-Max", run(PLOT, "--csv", self.csv, "--summary").stdout)

    def test_a_cutechess_pgn_becomes_a_row(self):
        # Two -repeat rounds against Ethereal (cutechess-cli's tags): a win and a draw, then a
        # loss on time and a win; the Elo from the two pairs (pair scores 1.5 and 1).
        games = [("1", "minkowski", "ethereal", "1-0", ""),
                 ("1", "ethereal", "minkowski", "1/2-1/2", ""),
                 ("2", "minkowski", "ethereal", "0-1", "time forfeit"),
                 ("2", "ethereal", "minkowski", "0-1", "")]
        path = os.path.join(self.dir, "games.pgn")
        with open(path, "w", encoding="utf-8") as f:
            for rnd, white, black, result, termination in games:
                f.write(f'[Event "?"]\n[Round "{rnd}"]\n[White "{white}"]\n[Black "{black}"]\n'
                        f'[Result "{result}"]\n[TimeControl "10+0.1"]\n')
                if termination:
                    f.write(f'[Termination "{termination}"]\n')
                f.write(f"\n1. e4 {{+0.20/10 0.1s}} {result}\n\n")
        out = run(ADD, "--pgn", path, "--csv", self.csv, "--date", "2026-12-02", "--dry-run")
        self.assertEqual(out.returncode, 0, out.stderr)
        row = next(csv.reader([out.stdout]))
        self.assertEqual(row[3:11], ["Ethereal 12", "3200", "CCRL 40/15", "10+0.1", "4", "2",
                                     "1", "1"])
        self.assertEqual(row[11], "62.5")          # score %
        self.assertEqual(row[14], "1")             # Minkowski's forfeit (the time loss)
        self.assertIn("pentanomial [0, 0, 1, 1, 0]", row[16])
        # Pentanomial Elo of pair scores 0.75 and 0.5: the mean 0.625, +88.7.
        self.assertEqual(row[12], "88.7")
        # Someone else's games are refused, and so is giving both inputs or neither.
        self.assertIn("without 'mk'", run(ADD, "--pgn", path, "--player", "mk", "--csv",
                                          self.csv).stderr)
        self.assertEqual(run(ADD, "--csv", self.csv).returncode, 2)

    def test_aborted_and_partial_matches_are_refused(self):
        path = os.path.join(self.dir, "result.json")
        for change, message in (({"aborted": "engine died"}, "aborted"),
                                ({"interrupted": True}, "--allow-partial"),
                                ({"games": 0}, "no finished game")):
            with open(path, "w", encoding="utf-8") as f:
                json.dump(dict(RESULT, **change), f)
            out = run(ADD, path, "--csv", self.csv)
            self.assertEqual(out.returncode, 1, change)
            self.assertIn(message, out.stderr)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(dict(RESULT, engines=["mk", "sf1500"], options=[{}, {}]), f)
        out = run(ADD, path, "--csv", self.csv, "--dry-run")
        self.assertIn("Stockfish 15.1 UCI_Elo 1500,1500,Stockfish UCI_Elo", out.stdout)
        # A level rated against a rated engine (anchors.csv's preset sf@1500) is rated at that.
        anchors = os.path.join(self.dir, "anchors.csv")
        shutil.copy(os.path.join(ROOT, "docs", "strength", "anchors.csv"), anchors)
        with open(anchors, "a", encoding="utf-8") as f:
            f.write("Stockfish 15.1 UCI_Elo 1500,sf@1500,1720,CCRL 40/40,estimate,via Fairy-Max\n")
        out = run(ADD, path, "--csv", self.csv, "--anchors", anchors, "--dry-run")
        self.assertIn("Stockfish 15.1 UCI_Elo 1500,1720,CCRL 40/40", out.stdout)

    def test_the_calibration_plan_is_printed_not_played(self):
        out = run(CALIBRATE, "--dry-run", "--csv", self.csv, "--runner", "match.py")
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = out.stdout.splitlines()
        matches = [l for l in lines if "tools/match.py " in l]
        # The rated anchors of docs/strength/anchors.csv nearest each setting within 300 points:
        # Stockfish's level 1350, rated 1617 against Fairy-Max, alone at 1350 and 1500, with
        # Fairy-Max at 1700 and 1900; Fairy-Max, Phalanx, Glaurung and GNU Chess above.
        self.assertEqual(len(matches), 12, out.stdout)
        self.assertTrue(all("--tc 10+0.1" in l and "-o UCI_LimitStrength=true" in l
                            for l in matches))
        self.assertIn("-o UCI_Elo=1350", matches[0])
        self.assertIn("-e sf@1350", matches[0])
        self.assertFalse(any("-e sf@" in l and "-e sf@1350 " not in l for l in matches),
                         "a Stockfish level is an anchor only once rated (anchors.csv)")
        fairy = [l for l in matches if "-e fairymax" in l]
        self.assertTrue(fairy and all("openings.pgn" in l for l in fairy))
        self.assertEqual(sum("add-match.py" in l for l in lines), 12)
        self.assertEqual(lines[-1], "python3 scripts/strength-plot.py")
        with open(self.csv, encoding="utf-8") as f, open(MATCHES, encoding="utf-8") as g:
            self.assertEqual(f.read(), g.read())  # nothing was played or added
        # The same plan through cutechess-cli (the default runner): the openings the fetch
        # script writes, pairs of games, the results read back from the PGN.
        cute = run(CALIBRATE, "--dry-run", "--csv", self.csv).stdout.splitlines()
        games = [l for l in cute if l.startswith("cutechess-cli ")]
        self.assertEqual(len(games), 12, cute)
        self.assertIn("option.UCI_Elo=1350", games[0])
        self.assertIn("name=sf1350 proto=uci", games[0])
        self.assertTrue(any("cmd=/usr/games/fairymax name=fairymax proto=xboard" in l for l in games))
        self.assertTrue(all("tc=10+0.1" in l and "-repeat -games 2 -rounds 100" in l
                            for l in games))
        self.assertTrue(any("file=openings/noob_3moves_2000.epd format=epd" in l for l in games))
        adds = [l for l in cute if "add-match.py --pgn" in l]
        self.assertEqual(len(adds), 12)
        self.assertIn("--player minkowski@1350", adds[0])
        toga = run(CALIBRATE, "--dry-run", "--settings", "2700", "--anchors", "toga2,sf@SETTING")
        self.assertIn("'option.Number of Threads=1'", toga.stdout)
        self.assertIn("name=sf2700 proto=uci option.Threads=1 option.Hash=16 "
                      "option.UCI_LimitStrength=true option.UCI_Elo=2700", toga.stdout)
        custom = run(CALIBRATE, "--dry-run", "--settings", "2000", "--anchors", "toga2,sf@SETTING",
                     "--games", "50", "--runner", "match.py")
        self.assertIn("-e sf@2000", custom.stdout)
        self.assertIn("--games 50", custom.stdout)
        # Stockfish's own levels rated first (the bottom of the range): Stockfish at the
        # setting is the first engine, the weakest rated anchor its opponent, the rows go to
        # their own CSV, with no UCI_Elo of ours and no version of ours.
        levels = run(CALIBRATE, "--dry-run", "--stockfish-levels", "--settings", "1350,1500",
                     "--concurrency", "2").stdout.splitlines()
        games = [l for l in levels if l.startswith("cutechess-cli ")]
        self.assertEqual(len(games), 2, levels)
        self.assertTrue(games[0].startswith(
            "cutechess-cli -engine cmd=/usr/games/stockfish name=sf1350 proto=uci "))
        self.assertIn("option.UCI_LimitStrength=true option.UCI_Elo=1350 -engine "
                      "cmd=/usr/games/fairymax name=fairymax", games[0])
        self.assertNotIn("minkowski", " ".join(games))
        adds = [l for l in levels if "add-match.py" in l]
        self.assertEqual(len(adds), 2)
        self.assertTrue(all("--csv docs/strength/stockfish-levels.csv" in l for l in adds))
        self.assertIn("--player sf1500", adds[1])
        self.assertFalse(any("--uci-elo" in l or "--commit" in l for l in adds))
        bad = run(CALIBRATE, "--dry-run", "--settings", "1000")
        self.assertEqual(bad.returncode, 2)
        self.assertIn("1350..2800", bad.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=1)
