"""Builds the C library with cargo and ships it inside the package.

`pip install ./python` (from the repository root) runs `cargo build --release -p
minkowski-chess-capi` and copies target/release/libminkowski_capi.{so,dylib} (or
minkowski_capi.dll) next to the module. Set MINKOWSKI_CAPI_LIB=/path/to/the/library to ship a
library you built yourself instead (no cargo needed then).
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

REPO = Path(__file__).resolve().parent.parent


def library_name():
    if sys.platform == "win32":
        return "minkowski_capi.dll"
    if sys.platform == "darwin":
        return "libminkowski_capi.dylib"
    return "libminkowski_capi.so"


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        given = os.environ.get("MINKOWSKI_CAPI_LIB")
        if given:
            library = Path(given)
        else:
            subprocess.run(
                ["cargo", "build", "--release", "-p", "minkowski-chess-capi"],
                cwd=REPO,
                check=True,
            )
            target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
            library = target / "release" / library_name()
        destination = Path(self.build_lib) / "minkowski_chess"
        destination.mkdir(parents=True, exist_ok=True)
        shutil.copy2(library, destination / library_name())


class BinaryDistribution(Distribution):
    """The wheel carries a native library: tag it for this platform."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
