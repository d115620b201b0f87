#!/usr/bin/env python3
"""The layers inside the evaluation (core/src/eval), checked: every module of it may import only
modules of its own layer or a lower one, and the imports between its modules form no circle.

Lowest first:
  0  the parts: score, term, weights (the table, its handles, keys and defaults), info,
     tactics, pawn_king, eval_cache, stamp, tracer, acc, to_move, cpu (what the CPU offers)
  1  the families of terms: every module that eval/mod.rs places in the weight table
     (an entry `<module>::<Family>` of its `declare_families!` list), read from there, so a
     new family needs no line here
     (a family may use another, never in a circle)
  2  combine: the parts become the value
  3  trace: the evaluation's record for people and the tuner
  4  the evaluation's root (eval/mod.rs): the Evaluator, and the table's order of families;
     material (material and piece squares, summed from scratch or kept move by move), stages
     (the evaluation after material and piece squares, split where the bounded evaluation may
     stop), bounded (that evaluation) and cost (the stages one at a time, for the cost table)
  5  layout: the table as a whole (names, defaults), read through `Weights`' methods only

Also checked: every family whose code takes the side to move (`SideToMove`) is asked by the
null-move shortcut (`<family>::reads_side_to_move(` inside `after_null_move` in eval/mod.rs),
so a new term that reads who moves cannot make the shortcut inexact unnoticed.

A module is a top-level file of core/src/eval or a folder of it (endgame/, weights/, threats/,
trace/ are one module each with their files). Imports are read from code lines (comments and
doc comments are skipped, and unit tests: they test the whole): `super::x`, `crate::eval::x` and
`use super::{x, y}` groups. Run from
anywhere: `python3 .ci/check-eval-layers.py`; exit status 1 lists every violation.
"""
import os
import re
import sys

LAYERS = {
    "score": 0, "term": 0, "weights": 0, "info": 0, "tactics": 0, "pawn_king": 0, "eval_cache": 0, "stamp": 0,
    "tracer": 0, "acc": 0, "to_move": 0, "cpu": 0,
    "combine": 2,
    "trace": 3,
    "mod": 4, "material": 4, "stages": 4, "bounded": 4, "cost": 4,
    "layout": 5,
}

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core", "src", "eval")

# Layer 1: the families, as the evaluation's root places them in the table.
FAMILY_LAYER = 1


def add_families():
    """Every module `eval/mod.rs` names in its `declare_families! { <module>::<Type>, ... }`
    list joins layer 1; a module placed there that also has a layer above is an error, reported
    by the caller."""
    with open(os.path.join(ROOT, "mod.rs"), encoding="utf-8") as fh:
        listing = re.search(r"^declare_families! \{(.*?)^\}", fh.read(), re.MULTILINE | re.DOTALL)
    families = re.findall(r"^\s*(\w+)::\w+,?\s*$", listing.group(1), re.MULTILINE) if listing else []
    clashes = [f for f in families if LAYERS.get(f, FAMILY_LAYER) != FAMILY_LAYER]
    for family in families:
        LAYERS.setdefault(family, FAMILY_LAYER)
    return families, clashes


def module_of(rel):
    """The eval module a file belongs to: `pawns.rs` -> pawns, `endgame/kpk.rs` -> endgame."""
    first = rel.split(os.sep)[0]
    return first[:-3] if first.endswith(".rs") else first


def code_lines(path):
    """The code lines of a file, up to its unit tests (`#[cfg(test)] mod tests { ... }`, last in
    a file by the project's habit): tests may read any layer, as they test the whole."""
    with open(path, encoding="utf-8") as fh:
        lines = fh.readlines()
    for number, line in enumerate(lines, 1):
        if line.strip() == "#[cfg(test)]" and number < len(lines):
            following = lines[number].strip()
            if following.startswith("mod ") and following.endswith("{"):
                return
        if not line.lstrip().startswith("//"):
            yield number, line


def imports(path, rel):
    """(line, module) for every eval module `path` names in code."""
    depth = rel.count(os.sep)  # super:: climbs this many extra levels from a nested file
    up = "super::" * (depth + 1)
    found = []
    for number, line in code_lines(path):
        for prefix in (up, "crate::eval::"):
            start = 0
            while True:
                at = line.find(prefix, start)
                if at < 0:
                    break
                # `super::super::x` read from a shallower prefix would climb too far: skip.
                if prefix == up and line[max(0, at - 7):at] == "super::":
                    start = at + len(prefix)
                    continue
                rest = line[at + len(prefix):]
                group = re.match(r"\{([^}]*)\}", rest)
                names = (
                    [n.strip().split("::")[0] for n in group.group(1).split(",")]
                    if group
                    else [re.match(r"\w*", rest).group(0)]
                )
                for name in names:
                    if name in LAYERS:
                        found.append((number, name))
                start = at + len(prefix)
    return found


def side_to_move_readers_are_asked(families):
    """Failures: families naming `SideToMove` in code that `after_null_move` does not ask."""
    with open(os.path.join(ROOT, "mod.rs"), encoding="utf-8") as fh:
        root = fh.read()
    start = root.find("fn after_null_move(")
    if start < 0:
        return ["eval/mod.rs has no `fn after_null_move(`"]
    body = root[start:root.find("\n    }\n", start)]
    failures = []
    for dirpath, _, files in os.walk(ROOT):
        for f in sorted(files):
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), ROOT)
            own = module_of(rel)
            if own not in families:
                continue
            reads = any("SideToMove" in line for _, line in code_lines(os.path.join(dirpath, f)))
            if reads and f"{own}::reads_side_to_move(" not in body:
                failures.append(
                    f"core/src/eval/{rel}: takes `SideToMove`, but `after_null_move` does not ask "
                    f"`{own}::reads_side_to_move(board)`"
                )
    return failures


def main():
    families, clashes = add_families()
    failures = [f"module '{c}' is placed as a family in eval/mod.rs but has layer {LAYERS[c]}"
                for c in clashes]
    if not families:
        failures.append("no `declare_families! { ... }` list found in eval/mod.rs")
    failures += side_to_move_readers_are_asked(families)
    graph = {m: set() for m in LAYERS}
    for dirpath, _, files in os.walk(ROOT):
        for f in sorted(files):
            # Files of unit tests only (`#[cfg(test)] mod ...;`) test the whole.
            if not f.endswith(".rs") or f in ("tests.rs", "test_support.rs"):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, ROOT)
            own = module_of(rel)
            if own not in LAYERS:
                failures.append(f"{rel}: module '{own}' has no layer in {__file__}")
                continue
            for number, used in imports(path, rel):
                if used == own:
                    continue
                graph[own].add(used)
                if LAYERS[used] > LAYERS[own]:
                    failures.append(
                        f"core/src/eval/{rel}:{number}: {own} (layer {LAYERS[own]}) imports "
                        f"{used} (layer {LAYERS[used]})"
                    )
    # No circle: a depth-first search that meets a module on its own path has found one.
    state = {}

    def visit(module, path):
        state[module] = "open"
        for used in sorted(graph[module]):
            if state.get(used) == "open":
                circle = path[path.index(used):] + [used]
                failures.append("import circle: " + " -> ".join(circle))
            elif used not in state:
                visit(used, path + [used])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    for failure in failures:
        print(f"eval layer violation: {failure}", file=sys.stderr)
    if failures:
        return 1
    print(f"eval layers: {len(LAYERS)} modules ({len(families)} families), "
          f"{sum(map(len, graph.values()))} imports, no upward import, no circle; "
          "every family that takes the side to move is asked by the null-move shortcut")
    return 0


if __name__ == "__main__":
    sys.exit(main())
