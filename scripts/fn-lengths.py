#!/usr/bin/env python3
"""The longest Rust functions under a directory: lines from the `fn` line to its closing brace
(doc comments above it not counted; comments and blank lines inside counted), longest first.

    python3 scripts/fn-lengths.py src/search              # the ten longest
    python3 scripts/fn-lengths.py src/search --top 3
    python3 scripts/fn-lengths.py src/search --max 130    # exit 1 if any is longer (CI)

Braces are counted after dropping `//` comments and string and character literals, which is
enough for rustfmt-formatted code (a `{` inside a raw string would miscount). Python 3's
standard library only.
"""

import argparse
import pathlib
import re
import sys

FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)")


def code_of(line):
    """The line without string or character literals and without a `//` comment."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])'", "''", line)
    cut = line.find("//")
    return line if cut < 0 else line[:cut]


def functions(path):
    """(lines, name, first line number) of every function with a body in one file."""
    lines = path.read_text().splitlines()
    found = []
    for start, line in enumerate(lines):
        m = FN.match(line)
        if not m:
            continue
        depth, opened = 0, False
        for end in range(start, len(lines)):
            code = code_of(lines[end])
            if not opened and ";" in code and "{" not in code:
                break  # a declaration without a body (a trait's)
            for ch in code:
                if ch == "{":
                    depth, opened = depth + 1, True
                elif ch == "}":
                    depth -= 1
            if opened and depth == 0:
                found.append((end - start + 1, m.group(6), start + 1))
                break
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", help="directory searched for *.rs files")
    parser.add_argument("--top", type=int, default=10, help="functions listed (default 10)")
    parser.add_argument("--max", type=int, help="fail if a function is longer than this")
    args = parser.parse_args()
    every = []
    for path in sorted(pathlib.Path(args.dir).rglob("*.rs")):
        every += [(n, name, f"{path}:{line}") for n, name, line in functions(path)]
    if not every:
        sys.exit(f"no Rust function under {args.dir}")
    every.sort(key=lambda f: -f[0])
    for n, name, where in every[: args.top]:
        print(f"{n:5d}  {name:30s} {where}")
    if args.max is not None:
        over = [f for f in every if f[0] > args.max]
        if over:
            sys.exit(f"{len(over)} function(s) under {args.dir} longer than {args.max} lines")
        print(f"every function under {args.dir} is at most {args.max} lines")


if __name__ == "__main__":
    main()
