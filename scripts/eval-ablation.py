#!/usr/bin/env python3
"""What each evaluation family is worth to the fit: zero it, refit the rest, compare (issue 77).

For every family of weights (the `family` of each `declare_weights!` block under
core/src/eval), the tuner refits every other weight with that family held at zero, from the
same starting weights, on the same positions and for the same epochs as a control run that
zeroes nothing. The family's worth is how much the held-out validation loss rises over the
control's: what the rest of the evaluation cannot make up for when the family is gone. The
issue's cost table sets it beside each family's nanoseconds a call (scripts/eval-cost.py).

    python3 scripts/eval-ablation.py --bin target/release/minkowski \\
        --data DATA/labels/sf15-static/positions-00[0-7].txt --epochs 15 --out-dir ablation

Each run is `minkowski tune DATA --config <the family zeroed> --only <every other weight>
--lambda 0 --phase-balance --epochs N`; the material and piece-square family (`Base`) and the
endgame verdicts (`Endgames`: the tuner drops the positions they decide) are never zeroed.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
NEVER_ZEROED = ("Base", "Endgames")

BLOCK = re.compile(r"declare_weights!\s*\{(.*?)\n\}", re.S)
FAMILY = re.compile(r"^\s*family\s+(\w+);", re.M)
CONSTANT = re.compile(r"^\s*([A-Z][A-Z0-9_]*)\s*(?:\[|=)", re.M)
ENTRY = re.compile(r'^"?([a-z0-9_.]+)"?\s*=\s*\[([^\]]*)\]')
LOSS = re.compile(r"validation loss: starting weights (\S+), written weights (\S+)")


def families_of_source(eval_dir):
    """Each weight's name (lower case, as engine.toml spells it) -> its family."""
    family_of = {}
    for folder, _, files in os.walk(eval_dir):
        for name in sorted(files):
            if not name.endswith(".rs"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                text = f.read()
            for block in BLOCK.finditer(text):
                family = FAMILY.search(block.group(1))
                if family is None:
                    continue
                for constant in CONSTANT.finditer(block.group(1)):
                    family_of[constant.group(1).lower()] = family.group(1)
    return family_of


def weight_entries(toml_text):
    """The [eval] entries of a tuner-written table: (name, number of values), in order."""
    entries = []
    for line in toml_text.splitlines():
        m = ENTRY.match(line)
        if m:
            entries.append((m.group(1), len(m.group(2).split(","))))
    return entries


def group_by_family(entries, family_of):
    """Family -> its entries' names; every name must belong to a declared family."""
    groups = {}
    for name, _ in entries:
        family = family_of.get(name.split(".")[0])
        if family is None:
            raise SystemExit(f"eval-ablation: weight {name!r} belongs to no declare_weights! family")
        groups.setdefault(family, []).append(name)
    return groups


def zeroed(toml_text, names):
    """The table with every entry in `names` set to zeros."""
    out = []
    for line in toml_text.splitlines():
        m = ENTRY.match(line)
        if m and m.group(1) in names:
            zeros = ", ".join(["0"] * len(m.group(2).split(",")))
            line = f"{line[:line.index('=')]}= [{zeros}]"
        out.append(line)
    return "\n".join(out) + "\n"


def tune(args, config, only, out):
    cmd = [args.bin, "tune", *args.data, "--config", config, "--lambda", "0", "--phase-balance",
           "--epochs", str(args.epochs), "--threads", str(args.threads), "--out", out]
    if only is not None:
        cmd += ["--only", ",".join(only)]
    run = subprocess.run(cmd, capture_output=True, text=True)
    text = run.stdout + run.stderr
    m = LOSS.search(text)
    if run.returncode != 0 or m is None:
        raise SystemExit(f"eval-ablation: the tuner failed ({' '.join(cmd[:3])} ...):\n{text[-2000:]}")
    return float(m.group(1)), float(m.group(2))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the minkowski binary")
    ap.add_argument("--data", nargs="+", required=True, help="labelled positions (FEN | score | result)")
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--families", help="comma-separated families (default: every one but "
                    + " and ".join(NEVER_ZEROED) + ")")
    ap.add_argument("--eval-dir", default=os.path.join(ROOT, "core", "src", "eval"))
    ap.add_argument("--out-dir", required=True, help="configs, fitted tables and results.json")
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)

    start = os.path.join(args.out_dir, "start.toml")
    subprocess.run([args.bin, "tune", args.data[0], "--epochs", "0", "--lambda", "0",
                    "--threads", "1", "--out", start], capture_output=True, text=True, check=False)
    if not os.path.exists(start):
        raise SystemExit("eval-ablation: could not write the starting weights with `tune --epochs 0`")
    with open(start, encoding="utf-8") as f:
        table = f.read()
    groups = group_by_family(weight_entries(table), families_of_source(args.eval_dir))
    wanted = [f for f in groups if f not in NEVER_ZEROED]
    if args.families:
        wanted = [f.strip() for f in args.families.split(",")]
        unknown = [f for f in wanted if f not in groups]
        if unknown:
            raise SystemExit(f"eval-ablation: no such family: {', '.join(unknown)} (known: {', '.join(groups)})")
    tunable = [n for f, names in groups.items() if f != "Endgames" for n in names]

    results = {}
    print("| family | weights | validation loss, start | refitted | rise over the control | seconds |")
    print("|---|--:|--:|--:|--:|--:|")
    for family in ["control"] + wanted:
        names = set() if family == "control" else set(groups[family])
        config = os.path.join(args.out_dir, f"cfg-{family}.toml")
        with open(config, "w", encoding="utf-8") as f:
            f.write(zeroed(table, names))
        t = time.time()
        before, after = tune(args, config, [n for n in tunable if n not in names],
                             os.path.join(args.out_dir, f"fit-{family}.toml"))
        rise = after - results["control"]["refitted"] if family != "control" else 0.0
        results[family] = {"weights": len(names), "start": before, "refitted": after, "rise": rise}
        print(f"| {family} | {len(names)} | {before:.8f} | {after:.8f} | {rise:+.8f} | {time.time() - t:.0f} |",
              flush=True)
        with open(os.path.join(args.out_dir, "results.json"), "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
