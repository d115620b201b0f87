#!/usr/bin/env python3
"""Checks the lines printed by eval_epd (C) or eval_epd.py (Python) against `minkowski eval`.

    ./eval_epd --weights engine.toml epd/wac.epd > c.txt
    python3 capi/examples/compare_with_cli.py target/release/minkowski c.txt

For each line (FEN, total, phase, endgame, one field per trace row) it runs `minkowski eval FEN`
and compares every number: each row's White and Black mg/eg, the phase, the endgame code and the
total. Prints the disagreements and "agree N / M"; exits 1 unless all agree.
"""
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROW = re.compile(r"^(.+?)\s*\|\s*(-?\d+)\s+(-?\d+)\s*\|\s*(-?\d+)\s+(-?\d+)\s*\|")


def cli_numbers(binary, fen):
    """The numbers of `minkowski eval FEN`, in the plugin's line format."""
    out = subprocess.run([binary, "eval", *fen.split()], capture_output=True, text=True)
    if out.returncode != 0:
        return {"error": out.stderr.strip()}
    numbers = {"rows": {}}
    for line in out.stdout.splitlines():
        row = ROW.match(line)
        if row and row.group(1).strip() not in ("Term", ""):
            numbers["rows"][row.group(1).strip()] = " ".join(row.groups()[1:])
        elif line.startswith("Phase:"):
            numbers["phase"] = line.split()[1]
        elif line.startswith("Endgame:"):
            numbers["endgame"] = line.split()[1]
        elif line.startswith("Total:"):
            numbers["total"] = line.split()[1]
    return numbers


def plugin_numbers(line):
    """The numbers of one plugin output line, and its FEN."""
    fields = line.rstrip("\n").split("\t")
    numbers = {"rows": {}}
    for field in fields[1:]:
        name, _, value = field.partition("=")
        if name in ("total", "phase", "endgame", "error"):
            numbers[name] = value
        else:
            numbers["rows"][name] = value
    return fields[0], numbers


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare_with_cli.py MINKOWSKI_BINARY PLUGIN_OUTPUT")
    binary = sys.argv[1]
    with open(sys.argv[2]) as f:
        lines = [plugin_numbers(line) for line in f if line.strip()]
    with ThreadPoolExecutor(max_workers=2) as pool:
        expected = list(pool.map(lambda item: cli_numbers(binary, item[0]), lines))
    agree = 0
    for (fen, got), want in zip(lines, expected):
        if got == want:
            agree += 1
        else:
            print(f"DIFFER {fen}\n  plugin: {got}\n  cli:    {want}")
    print(f"agree {agree} / {len(lines)}")
    sys.exit(0 if agree == len(lines) and lines else 1)


if __name__ == "__main__":
    main()
