#!/usr/bin/env python3
"""The strength levels' fit (docs/strength.md, "Strength levels"): the measured rating of each
calibration match against a rated engine, against log2 of the nodes a move the setting had,
fitted by weighted least squares (weights 1/error², the CSV's errors); printed after each round
of matches (a commit, in the order they were played) with the points a doubling and the budget
that plays at 1350, then the last fit's budget at each setting against the shipped mapping's.
Python's standard library only; reads the CSVs, plays nothing.

    python3 scripts/strength-fit.py

A row's nodes a move come from the mapping it was played with (src/search/strength.rs then):
the first guess (300 nodes at 1350, doubling every 120 points) for the rows of
docs/strength/calibration-first-guess.csv, the fitted one (1,800 nodes, 215 points) for the rows
of docs/strength/matches.csv with a UCI_Elo; a budget above --clock-nodes is what the clock
gives instead (Minkowski's nodes a move at 10+0.1). Stockfish's own levels are left out (no
rated list: docs/strength.md says why).
"""

import argparse
import importlib.util
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
STRENGTH = os.path.normpath(os.path.join(HERE, "..", "docs", "strength"))
MIN_ELO = 1350
# (file, nodes at MIN_ELO, points a doubling) of each mapping the calibration played.
MAPPINGS = [("calibration-first-guess.csv", 300, 120.0), ("matches.csv", 1800, 215.0)]


def load_plot():
    """scripts/strength-plot.py as a module: the CSV reader and the measured rating."""
    spec = importlib.util.spec_from_file_location("strength_plot",
                                                  os.path.join(HERE, "strength-plot.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


plot = load_plot()


def points(folder, clock_nodes):
    """[(date, commit, log2 nodes, measured rating, error)] of the rated calibration matches."""
    out = []
    for name, base, per_doubling in MAPPINGS:
        for row in plot.read_rows(os.path.join(folder, name)):
            if not row["uci_elo"].strip() or not row["rating_list"].startswith("CCRL"):
                continue
            m = plot.measured(row)
            if m is None or not m[1]:
                continue
            nodes = base * 2 ** ((float(row["uci_elo"]) - MIN_ELO) / per_doubling)
            out.append((row["date"], row["commit"], math.log2(min(nodes, clock_nodes)),
                        m[0], m[1]))
    return out  # in the rounds' order: the files', then their rows'


def fit(pts):
    """(points a doubling, nodes a move at MIN_ELO) of the weighted least-squares line."""
    w = [1.0 / e ** 2 for *_, e in pts]
    x = [p[2] for p in pts]
    y = [p[3] for p in pts]
    mx = sum(wi * xi for wi, xi in zip(w, x)) / sum(w)
    my = sum(wi * yi for wi, yi in zip(w, y)) / sum(w)
    slope = (sum(wi * (xi - mx) * (yi - my) for wi, xi, yi in zip(w, x, y))
             / sum(wi * (xi - mx) ** 2 for wi, xi in zip(w, x)))
    return slope, 2 ** (mx + (MIN_ELO - my) / slope)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--csv-dir", default=STRENGTH, help="the CSVs' folder (default: "
                        "docs/strength)")
    parser.add_argument("--clock-nodes", type=float, default=300_000,
                        help="nodes a move the clock gives at full strength (default: 300000)")
    args = parser.parse_args(argv)
    try:
        pts = points(args.csv_dir, args.clock_nodes)
    except (OSError, plot.DataError) as e:
        print(f"strength-fit: {e}", file=sys.stderr)
        return 2
    rounds = []
    for date, commit, *_ in pts:
        if (date, commit) not in rounds:
            rounds.append((date, commit))
    print("| up to the round of | rated matches | points a doubling | nodes a move at 1350 |")
    print("|---|---:|---:|---:|")
    for k, (date, commit) in enumerate(rounds):
        upto = [p for p in pts if p[:2] in rounds[:k + 1]]
        if len(upto) < 2:
            continue
        slope, nodes = fit(upto)
        print(f"| {commit} ({date}) | {len(upto)} | {slope:.0f} | {nodes:,.0f} |")
    if len(pts) >= 2:
        # The last fit's budgets against the shipped mapping's (the last of MAPPINGS).
        slope, nodes = fit(pts)
        _, base, per_doubling = MAPPINGS[-1]
        print("\n| UCI_Elo | shipped nodes a move | the fit's | fit / shipped |")
        print("|---:|---:|---:|---:|")
        for setting in plot.CALIBRATION_SETTINGS:
            shipped = base * 2 ** ((setting - MIN_ELO) / per_doubling)
            fitted = nodes * 2 ** ((setting - MIN_ELO) / slope)
            print(f"| {setting} | {shipped:,.0f} | {fitted:,.0f} | {fitted / shipped:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
