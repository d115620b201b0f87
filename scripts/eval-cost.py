#!/usr/bin/env python3
"""The evaluation's cost table: nanoseconds and instructions a call per stage.

Runs the `eval_cost` example (core/examples/eval_cost.rs) natively for the nanoseconds (per
chunk of 32 positions the least time over its sweeps; several runs, their median) and once under callgrind for the instructions a call
(`valgrind --tool=callgrind`: inclusive instructions of each `cost::stage_*` function over one
sweep, divided by the calls). Instructions do not depend on the machine's load; nanoseconds do.

With `--before BIN` (an `eval_cost` binary built from an earlier commit) both are measured in
the same run, the two binaries' native runs taking turns, and the table gets before/after
columns and their ratios.

    python3 scripts/eval-cost.py [--bin PATH] [--before PATH] [--runs N] [--no-callgrind]
                                 [-- EXAMPLE_ARGS...]

Without `--bin` the example is built first (`cargo build --release -p minkowski-chess-core
--example eval_cost`). Prints a Markdown table.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def native(binary, args):
    """{stage: (calls, sweeps, ns a call)} from one native run."""
    out = subprocess.run([binary] + args, check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) == 4 and parts[0] != "stage":
            rows[parts[0]] = (int(parts[1]), int(parts[2]), float(parts[3]))
    return rows


def instructions(binary, args):
    """{stage: instructions a call} from one sweep under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary]
            + args + ["--reps", "1"],
            check=True, capture_output=True, text=True)
        annotate = subprocess.run(
            ["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
            check=True, capture_output=True, text=True).stdout
    totals = {}
    for line in annotate.splitlines():
        # "=>" lines are calls seen from the caller's source (callgrind_annotate's annotated
        # listings): the callee's inclusive cost again, not a part of it.
        if "=>" in line:
            continue
        m = re.match(r"\s*([\d,]+)\s.*cost::stage_(\w+)\s", line + " ")
        if m:
            name = m.group(2)
            totals[name] = totals.get(name, 0) + int(m.group(1).replace(",", ""))
    return totals


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", help="the eval_cost binary (default: build it)")
    ap.add_argument("--before", help="an eval_cost binary of an earlier commit, measured alike")
    ap.add_argument("--runs", type=int, default=3, help="native runs of each binary (median)")
    ap.add_argument("--no-callgrind", action="store_true", help="nanoseconds only")
    ap.add_argument("rest", nargs="*", help="arguments for the example (after --)")
    o = ap.parse_args()
    callgrind = not o.no_callgrind and shutil.which("valgrind") and shutil.which("callgrind_annotate")
    binary = o.bin
    if binary is None:
        subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "minkowski-chess-core",
                        "--example", "eval_cost"], check=True, cwd=ROOT)
        binary = os.path.join(ROOT, "target", "release", "examples", "eval_cost")
    binaries = [("after", binary)] + ([("before", o.before)] if o.before else [])
    # The native runs take turns between the binaries, so that a change of load touches both.
    runs = {name: [] for name, _ in binaries}
    for _ in range(o.runs):
        for name, b in binaries:
            runs[name].append(native(b, o.rest))
    first = runs["after"][0]
    results = {}
    for name, b in binaries:
        ir = instructions(b, o.rest) if callgrind else {}
        results[name] = {}
        for stage, (calls, _sweeps, _ns) in first.items():
            ns = statistics.median(r[stage][2] for r in runs[name])
            cg_sweeps = 2 if stage == "whole_cached" else 1
            results[name][stage] = (ns, ir[stage] / (calls * cg_sweeps) if stage in ir else None)
    calls = next(iter(first.values()))[0]
    if callgrind:
        print(f"{calls} positions; ns: median of {o.runs} runs (each: per chunk of 32 positions the least time of its sweeps); "
              "instructions: callgrind, one sweep")
    else:
        print(f"{calls} positions; ns: median of {o.runs} runs (each: per chunk of 32 positions the least time of its sweeps)")
    fmt_ir = lambda v: "-" if v is None else f"{v:,.0f}"
    parts = [s for s in first if s not in ("forks", "whole", "whole_cached")]
    if o.before:
        print("| stage | ns before | ns after | ratio | instr. before | instr. after | ratio |")
        print("|---|--:|--:|--:|--:|--:|--:|")
    else:
        print("| stage | ns a call | instructions a call |")
        print("|---|--:|--:|")
    def row(stage, label):
        a = results["after"].get(stage)
        if o.before:
            b = results["before"].get(stage)
            ratio = lambda x, y: "-" if not x or not y else f"{y / x:.2f}x"
            print(f"| {label} | {b[0]:.1f} | {a[0]:.1f} | {ratio(a[0], b[0])} | {fmt_ir(b[1])} | "
                  f"{fmt_ir(a[1])} | {ratio(a[1], b[1])} |")
        else:
            print(f"| {label} | {a[0]:.1f} | {fmt_ir(a[1])} |")
    for stage in first:
        label = stage + (" (part of threats)" if stage == "forks" else "")
        row(stage, label)
    for name in results:
        ns = sum(results[name][s][0] for s in parts)
        ir = sum(results[name][s][1] or 0 for s in parts) if callgrind else None
        results[name]["sum"] = (ns, ir)
    row("sum", "sum of the stages")


if __name__ == "__main__":
    sys.exit(main())
