#!/usr/bin/env python3
"""How close each static evaluation comes to a searched label, on the same positions.

The question it answers (issue 74): is Stockfish 15.1 classical's lead at equal nodes in what
its evaluation says, or in what its search does with it? It samples quiet positions (the
`FEN | score | result` lines of `minkowski datagen`, `.xz` or plain, or one FEN a line), labels
each with Stockfish 15.1's default (NNUE) search at a fixed depth, and scores three static
evaluations against that label:

- Stockfish's classical evaluation (its `eval` command's "Classical evaluation" line),
- Minkowski's (its UCI `eval` command's "Total" line),
- Stockfish's NNUE static evaluation ("Final evaluation"), as a reference.

For each: the mean squared error in win-probability space at the best scale (each evaluation
has its own units; the scale that fits best is searched), and how often its sign agrees with
the label's where the label is at least half a pawn from 0. By piece count too.

    python3 scripts/static-evals.py --positions ../shared/data/positions-023.txt.xz \
        --sample 3000 --ours target/release/minkowski --stockfish /usr/games/stockfish \
        --label-depth 8 --labels /tmp/d8.json

`--labels FILE` keeps the searched labels (they cost about a minute a thousand positions) and
reuses them when the file holds the same positions; without `--positions` the positions are the
labels file's own (all of them, in its order).

Where the error mass is (issue 74's next misreadings):

- `--worst N` lists the N positions where Minkowski's evaluation, at its best scale over all
  positions, is furthest from the label in win probability: FEN, piece count, material
  signature (stronger side first, e.g. KRPPvKBP), label, ours, Stockfish classical.
- `--by-signature` sums each position's squared error per material class (the pieces without
  pawn counts, e.g. KR+PvKB+P, opposite-coloured bishops marked "ocb") and per piece band, for
  Minkowski and for Stockfish classical (each at its own best scale); a class's figures add up to
  the whole MSE, so the rows show where the error mass is. `--classes K` rows (default 20).
"""

import argparse
import json
import lzma
import math
import random
import re
import subprocess
import sys

MATE_LABEL = 30000
"""A mate score's label; such positions are left out with the other decided ones."""
DECIDED = 3000
"""Labels at or beyond this many centipawns are decided: left out of the comparison."""
SIGN_MIN = 50
"""The sign agreement counts positions whose label is at least this far from 0."""
PIECE_BANDS = ((2, 32, "all"), (26, 32, "26-32 pieces"), (16, 25, "16-25 pieces"), (2, 15, "2-15 pieces"))
PIECE_VALUES = {"Q": 9, "R": 5, "B": 3, "N": 3, "P": 1, "K": 0}
"""Material for ordering a signature's sides only (stronger side first)."""
SIGNATURE_ORDER = "KQRBNP"


class Failure(Exception):
    """Bad input or an engine that did not answer as expected."""


def read_fens(path):
    opener = lzma.open if path.endswith(".xz") else open
    fens = []
    try:
        with opener(path, "rt") as f:
            for number, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                fen = line.split("|")[0].strip()
                fields = fen.split()
                if len(fields) < 4 or fields[1] not in ("w", "b") or fields[0].count("/") != 7:
                    raise Failure(f"{path}:{number}: not a FEN: {fen[:60]!r}")
                # Four fields (EPD) or five: the counters a FEN needs are filled in.
                fens.append(" ".join((fields + ["0", "1"][len(fields) - 4:])[:6]))
    except OSError as e:
        raise Failure(f"cannot read {path}: {e}") from e
    except (lzma.LZMAError, EOFError) as e:
        raise Failure(f"{path}: not a readable .xz file: {e}") from e
    if not fens:
        raise Failure(f"{path}: no positions")
    return fens


def run_batch(command, fens, what):
    script = "".join(f"position fen {fen}\neval\n" for fen in fens) + "quit\n"
    try:
        out = subprocess.run([command], input=script, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise Failure(f"{what} ({command}) did not run: {e}") from e
    return out.stdout


def stockfish_statics(command, fens):
    """Classical and NNUE ("Final") static evaluations, White's view, in centipawns."""
    out = run_batch(command, fens, "Stockfish")
    classical = [None if m.group(1) == "none" else round(float(m.group(1)) * 100)
                 for m in re.finditer(r"Classical evaluation\s+(\S+)", out)]
    final = [None if m.group(1) == "none" else round(float(m.group(1)) * 100)
             for m in re.finditer(r"Final evaluation\s+(\S+)", out)]
    if len(classical) != len(fens) or len(final) != len(fens):
        raise Failure(f"Stockfish answered {len(classical)} classical and {len(final)} final "
                      f"evaluations for {len(fens)} positions")
    return classical, final


def our_statics(command, fens):
    """Minkowski's static evaluations, White's view, in centipawns."""
    out = run_batch(command, fens, "Minkowski")
    ours = [int(m.group(1)) * (1 if m.group(2) == "White" else -1)
            for m in re.finditer(r"Total: (-?\d+) cp \((White|Black) to move", out)]
    if len(ours) != len(fens):
        raise Failure(f"Minkowski answered {len(ours)} evaluations for {len(fens)} positions")
    return ours


def searched_labels(command, fens, depth):
    """Stockfish's score at `depth` from a cleared hash, White's view (mates as ±MATE_LABEL)."""
    try:
        p = subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, bufsize=1)
    except OSError as e:
        raise Failure(f"Stockfish ({command}) did not start: {e}") from e
    labels = []
    try:
        p.stdin.write("uci\nsetoption name Hash value 16\nisready\n")
        while (line := p.stdout.readline()) and line.strip() != "readyok":
            pass
        for fen in fens:
            p.stdin.write(f"ucinewgame\nposition fen {fen}\ngo depth {depth}\n")
            score = None
            while True:
                line = p.stdout.readline()
                if not line:
                    raise Failure("Stockfish stopped answering")
                m = re.search(r"score (cp|mate) (-?\d+)", line)
                if m:
                    v = int(m.group(2))
                    score = v if m.group(1) == "cp" else (MATE_LABEL if v > 0 else -MATE_LABEL)
                if line.startswith("bestmove"):
                    break
            if score is None:
                raise Failure(f"no score for {fen}")
            labels.append(score if fen.split()[1] == "w" else -score)
        p.stdin.write("quit\n")
    finally:
        p.stdin.close()
        p.wait(timeout=30)
    return labels


def win_probability(cp):
    return 1.0 / (1.0 + 10.0 ** (-cp / 400.0))


def best_scale_mse(values, labels):
    """The smallest mean squared error in win-probability space over scales 0.20 .. 3.00."""
    targets = [win_probability(y) for y in labels]
    best = (math.inf, 1.0)
    for step in range(20, 301, 2):
        scale = step / 100
        err = sum((win_probability(scale * x) - t) ** 2 for x, t in zip(values, targets)) / len(values)
        best = min(best, (err, scale))
    return best


def sign_agreement(values, labels):
    pairs = [(x, y) for x, y in zip(values, labels) if abs(y) >= SIGN_MIN]
    if not pairs:
        return math.nan
    return sum((x > 0) == (y > 0) for x, y in pairs) / len(pairs)


def pieces(fen):
    return sum(c.isalpha() for c in fen.split()[0])


def side_letters(fen):
    """Each side's men as letters in SIGNATURE_ORDER: ("KRPP", "KBP")."""
    board = fen.split()[0]
    sides = []
    for white in (True, False):
        men = [c.upper() for c in board if c.isalpha() and c.isupper() == white]
        sides.append("".join(sorted(men, key=SIGNATURE_ORDER.index)))
    return sides


def bishop_colours(fen, white):
    """The square colours (0 dark, 1 light) of one side's bishops."""
    colours = set()
    for rank_index, row in enumerate(fen.split()[0].split("/")):
        file = 0
        for c in row:
            if c.isdigit():
                file += int(c)
                continue
            if c == ("B" if white else "b"):
                colours.add((file + 7 - rank_index) % 2)
            file += 1
    return colours


def ordered(sides):
    """The sides, stronger first (material, then letters): the same class whichever colour."""
    return sorted(sides, key=lambda s: (-sum(PIECE_VALUES[c] for c in s), s))


def signature(fen):
    """The full material signature, stronger side first: KRPPvKBP."""
    return "v".join(ordered(side_letters(fen)))


def material_class(fen):
    """The pieces without pawn counts, stronger side first, "+P" where a side has pawns:
    KR+PvKB+P; a bishop each on opposite colours (and no other piece but kings and pawns) is
    marked "ocb"."""
    sides = side_letters(fen)
    label = "v".join(s.replace("P", "") + ("+P" if "P" in s else "") for s in ordered(sides))
    if [s.replace("P", "") for s in sides] == ["KB", "KB"]:
        white, black = bishop_colours(fen, True), bishop_colours(fen, False)
        if white != black:
            label += " ocb"
    return label


def imbalance(fen):
    """What one side's pieces have that the other's lack, and the pawn difference, stronger
    side first: "BNvR P+1" (two minors against a rook, the minors' side a pawn up); "=" with
    the pieces alike. Sorts middlegames, where the full class is rarely repeated."""
    first, second = ordered(side_letters(fen))
    a, b = list(first.replace("P", "")), list(second.replace("P", ""))
    for c in list(a):
        if c in b:
            a.remove(c)
            b.remove(c)
    pawns = first.count("P") - second.count("P")
    pieces_part = f"{''.join(a) or '-'}v{''.join(b) or '-'}" if a or b else "="
    return pieces_part + (f" P{pawns:+d}" if pawns else "")


def squared_errors(values, labels, scale):
    return [(win_probability(scale * x) - win_probability(y)) ** 2 for x, y in zip(values, labels)]


def band_of(fen):
    n = pieces(fen)
    return next(band for low, high, band in PIECE_BANDS[1:] if low <= n <= high)


def error_mass(fens, labels, evaluations, group):
    """Rows of (group, positions, {name: (MSE share, mean squared error in the group)}), largest
    share of the first evaluation first; each evaluation at its best scale over all positions,
    so that a column's shares add up to its whole MSE."""
    keep = [i for i in range(len(fens)) if abs(labels[i]) < DECIDED
            and all(e[i] is not None for e in evaluations.values())]
    lab = [labels[i] for i in keep]
    errors = {}
    for name, values in evaluations.items():
        vals = [values[i] for i in keep]
        _, scale = best_scale_mse(vals, lab)
        errors[name] = squared_errors(vals, lab, scale)
    groups = {}
    for k, i in enumerate(keep):
        groups.setdefault(group(fens[i]), []).append(k)
    rows = []
    for key, members in groups.items():
        cells = {name: (sum(e[k] for k in members) / len(keep), sum(e[k] for k in members) / len(members))
                 for name, e in errors.items()}
        rows.append((key, len(members), cells))
    first = next(iter(evaluations))
    rows.sort(key=lambda row: -row[2][first][0])
    return rows


def worst(fens, labels, ours, others, count):
    """The `count` positions where `ours` at its best scale is furthest from the label (win
    probability): (|error|, index, scale) largest first."""
    keep = [i for i in range(len(fens)) if abs(labels[i]) < DECIDED and ours[i] is not None]
    _, scale = best_scale_mse([ours[i] for i in keep], [labels[i] for i in keep])
    misses = sorted(((abs(win_probability(scale * ours[i]) - win_probability(labels[i])), i) for i in keep),
                    reverse=True)
    return [(err, i, scale) for err, i in misses[:count]]


def compare(fens, labels, evaluations):
    """Rows of (band, positions, {name: (mse, scale, sign agreement)})."""
    keep = [i for i in range(len(fens)) if abs(labels[i]) < DECIDED
            and all(e[i] is not None for e in evaluations.values())]
    rows = []
    for low, high, band in PIECE_BANDS:
        idx = [i for i in keep if low <= pieces(fens[i]) <= high]
        if not idx:
            continue
        lab = [labels[i] for i in idx]
        cells = {}
        for name, values in evaluations.items():
            vals = [values[i] for i in idx]
            mse, scale = best_scale_mse(vals, lab)
            cells[name] = (mse, scale, sign_agreement(vals, lab))
        rows.append((band, len(idx), cells))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", help="datagen lines (FEN | score | result) or FENs, .xz or plain "
                    "(default: the --labels file's positions)")
    ap.add_argument("--sample", type=int, default=3000, help="positions drawn at random (default 3000)")
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--ours", required=True, help="the Minkowski binary")
    ap.add_argument("--stockfish", required=True, help="Stockfish 15.1 (its eval command prints both evaluations)")
    ap.add_argument("--label-depth", type=int, default=8, help="Stockfish's search depth for the label (default 8)")
    ap.add_argument("--labels", help="a JSON file that keeps the searched labels")
    ap.add_argument("--worst", type=int, default=0, metavar="N",
                    help="list the N positions where Minkowski is furthest from the label")
    ap.add_argument("--by-signature", action="store_true",
                    help="the MSE summed per material class and per piece band")
    ap.add_argument("--classes", type=int, default=20, help="material classes listed (default 20)")
    args = ap.parse_args(argv)
    try:
        if args.sample < 1 or args.label_depth < 1 or args.worst < 0 or args.classes < 1:
            raise Failure("--sample, --label-depth and --classes must be at least 1, --worst at least 0")
        labels = None
        if args.positions is None:
            if not args.labels:
                raise Failure("give --positions, or --labels with a file that holds them")
            try:
                with open(args.labels) as f:
                    kept = json.load(f)
                fens, labels = kept["fens"], kept["labels"]
                args.label_depth = kept["depth"]
            except (OSError, ValueError, KeyError, TypeError) as e:
                raise Failure(f"cannot read positions and labels from {args.labels}: {e}") from e
            if len(fens) != len(labels) or not fens:
                raise Failure(f"{args.labels}: {len(fens)} positions but {len(labels)} labels")
            args.positions = args.labels
        else:
            fens = read_fens(args.positions)
            fens = random.Random(args.seed).sample(fens, min(args.sample, len(fens)))
        if labels is None and args.labels:
            try:
                with open(args.labels) as f:
                    kept = json.load(f)
                if kept.get("fens") == fens and kept.get("depth") == args.label_depth:
                    labels = kept["labels"]
            except (OSError, ValueError, AttributeError):
                labels = None
        if labels is None:
            labels = searched_labels(args.stockfish, fens, args.label_depth)
            if args.labels:
                with open(args.labels, "w") as f:
                    json.dump({"depth": args.label_depth, "fens": fens, "labels": labels}, f)
        classical, final = stockfish_statics(args.stockfish, fens)
        ours = our_statics(args.ours, fens)
    except Failure as e:
        print(f"static-evals: {e}", file=sys.stderr)
        return 2
    names = {"Stockfish classical": classical, "Minkowski": ours, "Stockfish NNUE (reference)": final}
    rows = compare(fens, labels, names)
    print(f"Label: Stockfish at depth {args.label_depth}; {len(fens)} positions of {args.positions}, "
          f"seed {args.seed}; |label| < {DECIDED} cp. MSE in win-probability space at each "
          f"evaluation's best scale (×10⁻⁴), sign agreement where |label| ≥ {SIGN_MIN} cp.")
    print()
    print("| positions | n | " + " | ".join(f"{n} MSE | sign" for n in names) + " |")
    print("|---|---:|" + "---:|---:|" * len(names))
    for band, n, cells in rows:
        print(f"| {band} | {n} | " + " | ".join(
            f"{cells[name][0] * 1e4:.1f} | {cells[name][2]:.3f}" for name in names) + " |")
    if args.by_signature:
        pair = {"Minkowski": ours, "Stockfish classical": classical}
        for title, group, limit in (("piece band", band_of, None), ("imbalance", imbalance, args.classes),
                                    ("material class", material_class, args.classes)):
            rows = error_mass(fens, labels, pair, group)
            print()
            print(f"Error mass by {title} (share: the group's squared errors over all positions, ×10⁻⁴, "
                  f"adding up to the MSE at the best scale; mean: within the group):")
            print()
            print(f"| {title} | n | " + " | ".join(f"{n} share | mean" for n in pair) + " |")
            print("|---|---:|" + "---:|---:|" * len(pair))
            for key, n, cells in rows[:limit]:
                print(f"| {key} | {n} | " + " | ".join(
                    f"{cells[name][0] * 1e4:.1f} | {cells[name][1] * 1e4:.0f}" for name in pair) + " |")
    if args.worst:
        misses = worst(fens, labels, ours, classical, args.worst)
        print()
        print(f"The {len(misses)} positions where Minkowski (at its best scale, "
              f"{misses[0][2] if misses else 1.0:.2f}) is furthest from the label, White's view in cp:")
        print()
        print("| FEN | pieces | signature | label | Minkowski | Stockfish classical | win-probability error |")
        print("|---|---:|---|---:|---:|---:|---:|")
        for err, i, _ in misses:
            print(f"| {fens[i]} | {pieces(fens[i])} | {signature(fens[i])} | {labels[i]} | {ours[i]} | "
                  f"{classical[i] if classical[i] is not None else 'none'} | {err:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
