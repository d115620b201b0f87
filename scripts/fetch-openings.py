#!/usr/bin/env python3
"""Fetch the strength page's opening book: 2,000 positions drawn from `noob_3moves.epd` of the
official-stockfish/books repository (150,932 positions three moves a side into the game,
balanced; the book Fishtest and OpenBench test with), exactly the file docs/strength.md's
matches were played from.

    python3 scripts/fetch-openings.py [--out openings/noob_3moves_2000.epd] [--zip FILE]

It downloads noob_3moves.epd.zip (0.8 MB; or reads the copy given by --zip), checks the book's
SHA-256, draws the sample (Python's `random.Random(20261122).sample(lines, 2000)`: the lines
unchanged, FENs with move counters) and checks the sample's SHA-256 too, so a changed book or a
changed draw is an error rather than a silently different opening set. Standard library only.
"""

import argparse
import hashlib
import io
import os
import random
import sys
import urllib.request
import zipfile

URL = "https://github.com/official-stockfish/books/raw/master/noob_3moves.epd.zip"
BOOK = "noob_3moves.epd"
SEED = 20261122
COUNT = 2000
# SHA-256 of the book's text (noob_3moves.epd inside the zip) and of the sample as written.
BOOK_SHA256 = "2011193b4854e9a8cfdc05312ca2dbaffa6ceae3abbdee20e2ead2a18a603347"
SAMPLE_SHA256 = "4a90326e5e89f9360fb6bb22f73b2fc224f33ce5bec67c8b18f154ec8023790e"


def sample(book_text):
    """The strength page's openings from the book's text: (lines, the file's text)."""
    lines = [line for line in book_text.splitlines() if line.strip()]
    drawn = random.Random(SEED).sample(lines, COUNT)
    return drawn, "".join(line + "\n" for line in drawn)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join("openings", "noob_3moves_2000.epd"),
                    help="where to write the sample (default: %(default)s)")
    ap.add_argument("--zip", help="a local copy of noob_3moves.epd.zip instead of downloading")
    args = ap.parse_args(argv)
    try:
        if args.zip:
            with open(args.zip, "rb") as f:
                data = f.read()
        else:
            with urllib.request.urlopen(URL, timeout=60) as response:
                data = response.read()
        book = zipfile.ZipFile(io.BytesIO(data)).read(BOOK)
    except (OSError, KeyError, zipfile.BadZipFile) as e:
        print(f"fetch-openings: cannot read {args.zip or URL}: {e}", file=sys.stderr)
        return 1
    if hashlib.sha256(book).hexdigest() != BOOK_SHA256:
        print(f"fetch-openings: {BOOK} is not the book the matches were played from "
              f"(SHA-256 {hashlib.sha256(book).hexdigest()})", file=sys.stderr)
        return 1
    _, text = sample(book.decode("utf-8"))
    if hashlib.sha256(text.encode("utf-8")).hexdigest() != SAMPLE_SHA256:
        print("fetch-openings: the sample differs from the strength page's (Python's random "
              "module changed?)", file=sys.stderr)
        return 1
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"{args.out}: {COUNT} openings from {BOOK} (seed {SEED})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
