#!/usr/bin/env python3
"""The crates as a registry would get them: `cargo package --workspace --no-verify --offline`
(every member in one run, so the dependents find the unpublished core crate; no network: the
lock file's crates need not even be downloaded), then each .crate is read and checked:

- it carries the licence text (COPYING), its README and its manifest;
- the engine crate holds only what it builds from: no tests, benches, EPD suites, CI, scripts,
  tuning runs or fuzzing (`include` in Cargo.toml);
- each packaged README has no relative link (a registry page would break it), and every link
  to a file's page on docs.rs (`https://docs.rs/crate/<crate>/latest/source/<path>`) names a
  file that crate's package holds.

Prints each crate's file count and compressed size. The publishing order (docs/publishing.md):
core first, then the engine and the C library.

    python3 .ci/check-package.py            # from anywhere in the repository
    python3 .ci/check-package.py --self-test
"""

import os
import re
import subprocess
import sys
import tarfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
VERSION_RE = re.compile(r'^version = "([^"]+)"', re.M)

CRATES = ["minkowski-chess-core", "minkowski-chess", "minkowski-chess-capi",
          "minkowski-chess-python"]
# Top-level folders the engine crate must not carry.
ENGINE_NEVER = ("tests/", "benches/", "epd/", ".ci/", "scripts/", "tune/", "fuzz/", "capi/",
                "core/", "python/")
# The engine crate's compressed size stays under this (it was 5 MiB with tests/syzygy).
ENGINE_MAX_BYTES = 1 << 20

DOCS_RS_SOURCE = re.compile(r"https://docs\.rs/crate/([a-z0-9-]+)/latest/source/([^)\s#>]+)")
# Inline links and reference definitions whose target has no scheme and is no anchor.
RELATIVE_LINK = re.compile(r"\]\((?![a-z][a-z0-9+.-]*:|#)([^)\s]+)\)|^\[[^\]]+\]:\s*(?![a-z][a-z0-9+.-]*:|#)(\S+)",
                           re.M)


def crate_files(path):
    """{path inside the package: bytes} of a .crate (a gzipped tar with one top folder)."""
    out = {}
    with tarfile.open(path, "r:gz") as tar:
        for member in tar.getmembers():
            if member.isfile():
                inner = member.name.split("/", 1)[1]
                out[inner] = tar.extractfile(member).read()
    return out


def problems(name, files, packages):
    """What is wrong with crate ``name`` whose package holds ``files``; ``packages`` maps
    every crate's name to its file set (for links across crates)."""
    found = []
    for needed in ("COPYING", "Cargo.toml"):
        if needed not in files:
            found.append(f"{name}: no {needed}")
    if name == "minkowski-chess":
        for path in files:
            if path.startswith(ENGINE_NEVER):
                found.append(f"{name}: carries {path}")
    readme = files.get("README.md")
    if readme is None:
        found.append(f"{name}: no README.md")
        return found
    text = readme.decode("utf-8")
    for m in RELATIVE_LINK.finditer(text):
        found.append(f"{name}: README.md has a relative link: {m.group(1) or m.group(2)}")
    for m in DOCS_RS_SOURCE.finditer(text):
        crate, path = m.group(1), m.group(2)
        if crate not in packages:
            found.append(f"{name}: README.md links to {crate}, not a crate of this workspace")
        elif path not in packages[crate]:
            found.append(f"{name}: README.md links to {path} in {crate}, whose package lacks it")
    return found


def self_test():
    ok = {"COPYING": b"", "Cargo.toml": b"", "docs/uci.md": b"",
          "README.md": b"[uci]: https://docs.rs/crate/minkowski-chess/latest/source/docs/uci.md\n"}
    assert problems("minkowski-chess", ok, {"minkowski-chess": ok}) == []
    bad = dict(ok)
    bad["tests/syzygy/KQvK.rtbw"] = b""
    del bad["COPYING"]
    bad["README.md"] = (b"[a](docs/uci.md) [b][b]\n[b]: CHANGELOG.md\n"
                        b"[c]: https://docs.rs/crate/minkowski-chess/latest/source/docs/none.md\n"
                        b"[web](https://example.org) [here](#build)\n")
    got = problems("minkowski-chess", bad, {"minkowski-chess": bad})
    assert len(got) == 5, got
    assert any("no COPYING" in g for g in got) and any("tests/syzygy" in g for g in got), got
    assert any("docs/uci.md" in g for g in got) and any("CHANGELOG.md" in g for g in got), got
    assert any("docs/none.md" in g for g in got), got
    print("check-package self-test: ok")


def main():
    if "--self-test" in sys.argv[1:]:
        self_test()
        return 0
    run = subprocess.run(["cargo", "package", "--workspace", "--no-verify", "--offline",
                          "--allow-dirty", "--quiet"], cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        sys.stderr.write(run.stderr)
        return 1
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    packages, sizes = {}, {}
    for name in CRATES:
        folder = {"minkowski-chess-core": "core", "minkowski-chess": ".",
                  "minkowski-chess-capi": "capi", "minkowski-chess-python": "python"}[name]
        with open(os.path.join(ROOT, folder, "Cargo.toml"), encoding="utf-8") as f:
            version = VERSION_RE.search(f.read()).group(1)
        path = os.path.join(target, "package", f"{name}-{version}.crate")
        packages[name] = crate_files(path)
        sizes[name] = os.path.getsize(path)
    found = [p for name in CRATES for p in problems(name, packages[name], packages)]
    if sizes["minkowski-chess"] > ENGINE_MAX_BYTES:
        found.append(f"minkowski-chess: {sizes['minkowski-chess']} bytes compressed, "
                     f"over {ENGINE_MAX_BYTES}")
    for name in CRATES:
        print(f"{name}: {len(packages[name])} files, {sizes[name] / 1024:.1f} KiB compressed")
    for p in found:
        print("error:", p, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
