#!/usr/bin/env python3
"""No import circle between modules, at any level of any crate of the workspace.

What is read. Every crate root (src/lib.rs, src/main.rs, core/src/lib.rs, capi/src/lib.rs,
python/src/lib.rs) and every file module reached from it by `mod x;` (x.rs or x/mod.rs, beside
the declaring file or in its folder). Comments, string and character literals are skipped. A
module is a file: `search/worker.rs` is the module `search::worker`, `search/mod.rs` the module
`search`. Inline modules (`mod helpers { ... }`) belong to their file. Unit tests are not read:
a `#[cfg(test)]` inline module, or a file module declared under `#[cfg(test)]` (a test exercises
the whole, as .ci/check-eval-layers.py also holds).

What is a dependency. Module A depends on module B when A's file names a path that leads into
B: in a `use` (groups `{...}` expanded, `self`, `as` and `*` understood) or anywhere in the code
(`crate::eval::Evaluator::new()`). Paths start with `crate::`, `self::`, `super::` (a `super`
first leaves the inline modules the path is written in, then climbs the files) or the name of
a child module of the file (`use history::Heuristics;` in search/mod.rs). The path leads into the
deepest file module its segments name: `super::worker::Worker` from search/alphabeta.rs leads
into `search::worker`, `super::Reporter` into `search` itself (search/mod.rs), even when
search/mod.rs only re-exports it from a child: import an item from the module that defines
it, not from a facade above you. A name the target file imports from another crate
(`pub use minkowski_core::eval;` in src/lib.rs) is that other crate, not a dependency. A
`mod x;` declaration is not a dependency, nor is calling a method of a type that another file
extends (`impl Worker` in alphabeta.rs makes alphabeta depend on worker, not the reverse).

What is a circle. At every module P with child modules, the children and P's own file are
the nodes of one graph, each child standing for its whole subtree; an edge joins two of them
when a module in the first subtree (or P's file) depends on one in the second. A strongly
connected set of two or more nodes is a circle and is reported with the imports that close
it. So siblings that import each other (search::alphabeta <-> search::worker) are a circle of
search; a child that uses its parent's own items (`super::Reporter`) is a circle only if the
parent's file also imports from that child (search/mod.rs: `use history::Heuristics;`); two
top-level modules whose files import each other at any depth (search::x -> eval::y and
eval::z -> search) are a circle of the crate root. Circles inside a file (between its inline
modules) are not looked at.

Not supported (reported as an error): `#[path = ...]` attributes and file modules declared
inside an inline module.

Usage: python3 .ci/check-import-cycles.py [--self-test] [CRATE_ROOT.rs ...]
Exit status 1 when a circle (or an unsupported construct) is found; `--self-test` runs the
checker on a planted crate in a temporary folder and fails unless it finds exactly the
planted circles.
"""

import os
import re
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
CRATE_ROOTS = ["src/lib.rs", "src/main.rs", "core/src/lib.rs", "capi/src/lib.rs", "python/src/lib.rs"]
RAW_STRING = re.compile(r'b?r(#*)"')
TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|::|[{}();,*\[\]#]|\S")


def strip(text):
    """`text` with comments, strings and character literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)

    def blank(segment):
        out.append(re.sub(r"[^\n]", " ", segment))

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(text[i:j])
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(text[i:j])
            i = j
        elif c in "br" and (m := RAW_STRING.match(text, i)) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = '"' + m.group(1)
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            blank(text[i:j])
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            blank(text[i:j + 1])
            i = j + 1
        elif c == "'":
            # A character literal ('a', '\n', '\u{1F}', b'x' by its quote) or a lifetime ('a).
            if i + 1 < n and text[i + 1] == "\\":
                j = text.find("'", i + 3)
                j = n if j < 0 else j
                blank(text[i:j + 1])
                i = j + 1
            elif i + 2 < n and text[i + 2] == "'":
                blank(text[i:i + 3])
                i += 3
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def tokens(text):
    """(token, line) pairs of stripped source."""
    line, pos, result = 1, 0, []
    for m in TOKEN.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        result.append((m.group(), line))
    return result


TEST = "#[cfg(test)]"


def under_cfg_test(toks, i):
    """Whether the item whose `mod` keyword is toks[i] carries `#[cfg(test)]` (among its
    attributes, before its visibility)."""
    j = i - 1
    if j >= 0 and toks[j][0] == ")":  # pub(crate), pub(super), pub(in path)
        while j >= 0 and toks[j][0] != "(":
            j -= 1
        j -= 1
    if j >= 0 and toks[j][0] == "pub":
        j -= 1
    while j >= 0 and toks[j][0] == "]":
        depth, k = 0, j
        while k >= 0:
            depth += {"]": 1, "[": -1}.get(toks[k][0], 0)
            if depth == 0:
                break
            k -= 1
        if [t for t, _ in toks[k + 1:j]] == ["cfg", "(", "test", ")"]:
            return True
        j = k - 2 if k >= 1 and toks[k - 1][0] == "#" else -1
    return False


def parse_use_tree(toks, i, prefix, out):
    """Parse one use tree at toks[i]; append (segments, binding name) to `out`; return the index
    after it."""
    segments = list(prefix)
    while i < len(toks):
        t = toks[i][0]
        if t == "{":
            i += 1
            while toks[i][0] != "}":
                i = parse_use_tree(toks, i, segments, out)
                if toks[i][0] == ",":
                    i += 1
            return i + 1
        if t == "*":
            out.append((segments, None))
            return i + 1
        if t == "::":
            i += 1
            continue
        if re.match(r"[A-Za-z_]", t):
            segments = segments + [t]
            i += 1
            if i < len(toks) and toks[i][0] == "as":
                out.append((segments, toks[i + 1][0]))
                return i + 2
            if i < len(toks) and toks[i][0] == "::":
                continue
            name = segments[-2] if segments[-1] == "self" and len(segments) > 1 else segments[-1]
            out.append((segments, name))
            return i
        return i  # `,` `}` `;`: an empty tree (`use a::{}`)
    return i


class Module:
    """One file module: its path from the crate root, its file, its parent and children."""

    def __init__(self, path, file, parent):
        self.path, self.file, self.parent = path, file, parent
        self.children = {}   # name -> Module (file modules)
        self.inline = set()  # names of inline modules at the file's top level
        self.external = set()  # names the file imports from other crates
        self.refs = []       # (segments, inline names at the reference, line, text)
        self.imports = []    # (first segment, bound name) of the file's top-level `use`s

    @property
    def name(self):
        return "::".join(self.path) if self.path else "crate"

    def subtree(self):
        yield self
        for child in self.children.values():
            yield from child.subtree()


ROOT_FOR_LABELS = ROOT


def load_crate(root_file, errors):
    """The crate's module tree, every file read."""
    root = Module([], root_file, None)
    pending = [root]
    while pending:
        module = pending.pop()
        read_module(module, errors, pending)
    return root


def read_module(module, errors, pending):
    """Read the file of `module`: its child modules (appended to `pending`), its inline
    modules, the paths it names and what it imports from other crates."""
    with open(module.file, encoding="utf-8") as fh:
        raw = fh.read()
    code = strip(raw)
    if re.search(r"#\s*\[\s*path\s*=", code):
        errors.append(f"{module.file}: #[path = ...] is not supported")
    toks = tokens(code)
    base = os.path.basename(module.file)
    if base in ("mod.rs", "lib.rs", "main.rs"):
        folder = os.path.dirname(module.file)
    else:
        folder = module.file[:-3]
    stack = []  # per open brace: the inline module's name, or None
    i = 0
    while i < len(toks):
        t, line = toks[i]
        inline = [s for s in stack if s is not None]
        prev = toks[i - 1][0] if i else ""
        if t == "{":
            opener = None
            if i >= 2 and toks[i - 2][0] == "mod":
                opener = toks[i - 1][0]
                if not inline:
                    module.inline.add(opener)
                if under_cfg_test(toks, i - 2):
                    opener = TEST
            stack.append(opener)
        elif t == "}":
            if stack:
                stack.pop()
        elif TEST in stack:
            pass  # unit tests exercise the whole: not read
        elif t == "mod" and i + 2 < len(toks) and toks[i + 2][0] == ";":
            name = toks[i + 1][0]
            if under_cfg_test(toks, i):
                pass  # a test-only file module: not read
            elif inline:
                errors.append(f"{module.file}:{line}: file module `{name}` inside an inline module is not supported")
            else:
                candidates = [os.path.join(folder, name + ".rs"), os.path.join(folder, name, "mod.rs")]
                found = [c for c in candidates if os.path.exists(c)]
                if not found:
                    errors.append(f"{module.file}:{line}: no file for `mod {name};`")
                else:
                    child = Module(module.path + [name], found[0], module)
                    module.children[name] = child
                    pending.append(child)
            i += 3
            continue
        elif t == "use" and prev != "::":
            trees = []
            j = parse_use_tree(toks, i + 1, [], trees)
            for segments, binding in trees:
                module.refs.append((segments, inline, line, "use " + "::".join(segments)))
                first = segments[0] if segments else ""
                if not inline and binding and first not in ("crate", "self", "super"):
                    module.imports.append((first, binding))
            i = j
            continue
        elif re.match(r"[A-Za-z_]", t) and prev not in ("::", ".") and i + 1 < len(toks) and toks[i + 1][0] == "::":
            segments, j = [t], i + 1
            while j + 1 < len(toks) and toks[j][0] == "::" and re.match(r"[A-Za-z_]", toks[j + 1][0]):
                segments.append(toks[j + 1][0])
                j += 2
            if prev == "in" and len(segments) and segments[0] in ("crate", "self", "super"):
                pass  # `pub(in crate::x)`: a visibility, not a dependency
            else:
                module.refs.append((segments, inline, line, "::".join(segments)))
            i = j
            continue
        i += 1
    # Names imported from other crates (known once the children are): a path through them
    # leaves the crate.
    for first, binding in module.imports:
        if first not in module.children and first not in module.inline:
            module.external.add(binding)


def resolve(module, segments, inline):
    """The file module a path written in `module` (inside the inline modules `inline`) leads
    into, or None (another crate, or a place inside the same file)."""
    if not segments:
        return None
    first, rest = segments[0], segments[1:]
    if first == "crate":
        scope = module
        while scope.parent:
            scope = scope.parent
    elif first == "super":
        supers = 1
        while rest and rest[0] == "super":
            supers, rest = supers + 1, rest[1:]
        if supers < len(inline):
            return None
        scope = module
        for _ in range(supers - len(inline)):
            if scope.parent is None:
                return None
            scope = scope.parent
    elif first == "self":
        if inline:
            return None
        scope = module
    elif not inline and first in module.children:
        scope, rest = module.children[first], rest
    else:
        return None
    for seg in rest:
        if seg in scope.children:
            scope = scope.children[seg]
            continue
        if seg in scope.external:
            return None
        break
    return scope


def dependencies(root):
    """{(from, to): (file, line, text)} over the crate, first evidence of each edge."""
    edges = {}
    for module in root.subtree():
        for segments, inline, line, text in module.refs:
            target = resolve(module, segments, inline)
            if target is None or target is module:
                continue
            edges.setdefault((module, target), (module.file, line, text))
    return edges


def strongly_connected(nodes, succ):
    index, low, on, stack, result, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in succ.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w is v:
                    break
            result.append(component)

    for v in nodes:
        if v not in index:
            visit(v)
    return result


def shortest_cycle(start, members, succ):
    """A shortest path start -> ... -> start inside `members`."""
    frontier, came = [start], {start: None}
    while frontier:
        following = []
        for v in frontier:
            for w in succ.get(v, ()):
                if w is start:
                    path = [v]
                    while came[path[-1]] is not None:
                        path.append(came[path[-1]])
                    return list(reversed(path)) + [start]
                if w in members and w not in came:
                    came[w] = v
                    following.append(w)
        frontier = following
    return [start]


def circles(root):
    """Every circle of the crate as (parent, a shortest cycle, every node of its strongly
    connected set, the imports between them)."""
    edges = dependencies(root)
    found = []
    for parent in root.subtree():
        if not parent.children:
            continue
        rep = {parent: parent}
        for child in parent.children.values():
            for m in child.subtree():
                rep[m] = child
        succ, evidence = {}, {}
        for (a, b), where in edges.items():
            if a in rep and b in rep and rep[a] is not rep[b]:
                ra, rb = rep[a], rep[b]
                succ.setdefault(ra, [])
                if rb not in succ[ra]:
                    succ[ra].append(rb)
                evidence.setdefault((ra, rb), []).append((a, b, where))
        nodes = [parent] + list(parent.children.values())
        for component in strongly_connected(nodes, succ):
            if len(component) < 2:
                continue
            members = set(component)
            start = parent if parent in members else sorted(component, key=lambda m: m.name)[0]
            cycle = shortest_cycle(start, members, succ)
            name = lambda m: f"{m.name} (its own file)" if m is parent else m.name
            lines = []
            for ra, rb in sorted(((a, b) for a in component for b in succ.get(a, ()) if b in members),
                                 key=lambda e: (e[0].name, e[1].name)):
                for a, b, (file, line, text) in evidence[(ra, rb)][:3]:
                    lines.append(f"    {a.name} -> {b.name}: {os.path.relpath(file, ROOT_FOR_LABELS)}:{line}: {text}")
            members = sorted(name(m) for m in component)
            found.append((parent, [name(m) for m in cycle], members, lines))
    return found


def check(roots):
    errors, problems, modules = [], [], 0
    for root_file in roots:
        if not os.path.exists(root_file):
            continue
        root = load_crate(root_file, errors)
        modules += sum(1 for _ in root.subtree())
        for parent, cycle, members, lines in circles(root):
            where = os.path.relpath(parent.file, ROOT_FOR_LABELS)
            problems.append(f"import circle among the modules of {parent.name} ({where}): "
                            + " -> ".join(cycle) + "\n"
                            + f"  tied together ({len(members)}): " + ", ".join(members) + "\n"
                            + "\n".join(lines))
    return errors, problems, modules


PLANTED = {
    # Two circles: siblings a <-> b (through a use group), and c/mod.rs re-exporting from its
    # child c::inner, which uses c's own item. The rest must not count: comments, strings,
    # other crates' names, a visibility path, unit tests (c's tests use d, which uses c) and a
    # test-only file module (d/test_only.rs is not even there).
    "src/lib.rs": """
        //! `crate::a` in a doc comment is no import.
        pub use std::collections as coll;
        mod a;
        mod b;
        pub mod c;
        mod d;
        pub const ROOT_ITEM: u8 = 1;
    """,
    "src/a.rs": """
        use crate::{b::{Beta, self}, coll::HashMap};
        pub struct Alpha<'a>(&'a str);
        pub fn f() -> char { let _s = "super::d::x"; '"' }
    """,
    "src/b.rs": """
        pub struct Beta;
        pub fn g() -> u8 { super::a::f(); crate::ROOT_ITEM }
    """,
    "src/c/mod.rs": """
        mod inner;
        pub use inner::Gamma;
        pub struct Owned;
        #[cfg(test)]
        #[allow(unused)]
        pub(crate) mod tests {
            use super::super::d::h;
        }
    """,
    "src/c/inner.rs": """
        pub struct Gamma(super::Owned, super::super::b::Beta);
    """,
    "src/d.rs": """
        #[cfg(test)]
        mod test_only;
        pub(in crate::d) fn h() -> crate::c::Gamma { todo!() }
        #[cfg(test)]
        mod tests {
            use super::*;
            use super::super::c::Owned;
            /* nested /* comment */ crate::d::h */
            #[test] fn t() { let _ = r#"use crate::d;"#; h(); }
        }
    """,
}


def self_test():
    global ROOT_FOR_LABELS
    with tempfile.TemporaryDirectory() as tmp:
        for rel, text in PLANTED.items():
            path = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
        saved, ROOT_FOR_LABELS = ROOT_FOR_LABELS, tmp
        try:
            errors, problems, _ = check([os.path.join(tmp, "src/lib.rs")])
        finally:
            ROOT_FOR_LABELS = saved
    found = sorted(p.splitlines()[0] for p in problems)
    want = [
        "import circle among the modules of c (src/c/mod.rs): c (its own file) -> c::inner -> c (its own file)",
        "import circle among the modules of crate (src/lib.rs): a -> b -> a",
    ]
    if errors or found != want:
        print("self-test failed: expected", want, "got", found, "errors", errors)
        return 1
    print("self-test: ok (the planted circles found, nothing else)")
    return 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    roots = [os.path.abspath(a) for a in argv] or [os.path.join(ROOT, r) for r in CRATE_ROOTS]
    errors, problems, modules = check(roots)
    for e in errors:
        print("error:", e)
    for p in problems:
        print(p)
    if errors or problems:
        print(f"{len(problems)} import circle(s), {len(errors)} error(s)")
        return 1
    print(f"import circles: none ({modules} modules)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
