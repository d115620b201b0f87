#!/usr/bin/env python3
"""Minkowski's strength over its history: the picture and the tables of docs/strength.md, from
docs/strength/matches.csv (one row per match against a rated engine).

A match's measured Minkowski rating is the opponent's rating plus the measured Elo difference
(with the difference's 95 % error); a row that recorded only the score gets the difference of
that score and no error bar. Rows with a `uci_elo` are calibration games of a strength level
(UCI_LimitStrength): they go to the levels table, not the picture. Python 3's standard library
only (the SVG is written by hand).

    python3 scripts/strength-plot.py            # write docs/strength/strength.svg and the tables
                                                # between the markers of README.md, docs/strength.md
    python3 scripts/strength-plot.py --check    # exit 1 if any of those is stale, or a match
                                                # figure of the pages has no CSV row (CI)
    python3 scripts/strength-plot.py --table    # print the table of the latest match per opponent
    python3 scripts/strength-plot.py --levels   # print the UCI_Elo calibration table
    python3 scripts/strength-plot.py --summary  # print the README's short table

A generated block sits between `<!-- strength-plot: NAME -->` and `<!-- strength-plot: end -->`
(NAME: table, levels, summary or anchors, the last from docs/strength/anchors.csv); the text
around it is left alone.

Every match figure written by hand on docs/strength.md (outside the generated blocks) and in
docs/results.md's "Where we stand" (its prose, and the table rows naming an anchor) must come
from a row of a CSV of docs/strength/ with the matches' columns: a W/D/L (`+12 =0 −28`,
`2/3/55`, or results.md's W-L-D `56-20-24`), an Elo or a rating with its error (`−147 ± 111`,
`1457 ± 232`: the opponent's rating plus the difference) and, on results.md, a score
(`68.0 %`, in an anchor's table row), each to the digits shown. A figure no command can
reproduce is listed in docs/strength/untraced.csv with the reason, and the check fails on an
entry of that list no longer on its page.
"""

import argparse
import csv
import math
import os
import re
import sys
from xml.sax.saxutils import escape

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
MATCHES = os.path.join(ROOT, "docs", "strength", "matches.csv")
ANCHORS = os.path.join(ROOT, "docs", "strength", "anchors.csv")
SVG = os.path.join(ROOT, "docs", "strength", "strength.svg")
DOCS = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "docs", "strength.md")]
UNTRACED = os.path.join(ROOT, "docs", "strength", "untraced.csv")
# The pages whose match figures must trace to a CSV row: a whole page, or `PAGE#HEADING`, the
# section under a `## HEADING` (its prose, and its table rows whose first cell names an anchor).
TRACED = [os.path.join(ROOT, "docs", "strength.md"),
          os.path.join(ROOT, "docs", "results.md") + "#Where we stand"]

COLUMNS = ["date", "commit", "engine_version", "opponent", "opponent_rating", "rating_list",
           "time_control", "games", "wins", "draws", "losses", "score_pct", "elo", "elo_error",
           "forfeits", "uci_elo", "notes"]

# The UCI_Elo settings the calibration plays (scripts/calibrate-elo.py) and the levels table
# lists, measured or not.
CALIBRATION_SETTINGS = [1350, 1500, 1700, 1900, 2100, 2300, 2500, 2700]

# Colour-blind-safe qualitative palette (Okabe and Ito), one colour per opponent in order of
# first appearance.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#F0E442"]

BLOCK = re.compile(r"(<!-- strength-plot: (\w+) -->\n)(.*?)(<!-- strength-plot: end -->)",
                   re.S)


class DataError(Exception):
    """A row of the CSV that cannot be used, with its line."""


def read_rows(path=MATCHES):
    """The matches, in file order, each a dict of the columns; checked for the columns and for
    numbers where numbers belong."""
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != COLUMNS:
            raise DataError(f"{path}: the header must be {','.join(COLUMNS)}")
        rows = []
        for line, row in enumerate(reader, start=2):
            for key in ("opponent_rating", "games", "wins", "draws", "losses", "score_pct",
                        "elo", "elo_error", "forfeits", "uci_elo"):
                if row[key].strip():
                    try:
                        float(row[key])
                    except ValueError:
                        raise DataError(f"{path}:{line}: {key} '{row[key]}' is not a number")
            if not re.match(r"^\d{4}-\d\d-\d\d$", row["date"]):
                raise DataError(f"{path}:{line}: date '{row['date']}' is not YYYY-MM-DD")
            row["line"] = line
            rows.append(row)
        return rows


def read_anchors(path=ANCHORS):
    """{opponent: its row of anchors.csv} (empty without the file)."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return {row["opponent"]: row for row in csv.DictReader(f)}
    except OSError:
        return {}


def rating_text(row, anchors):
    """The opponent's rating as the row gives it, `≈` before an estimate (anchors.csv)."""
    if not row["opponent_rating"].strip():
        return "unrated"
    approx = "≈" if anchors.get(row["opponent"], {}).get("status") == "estimate" else ""
    return f"{approx}{float(row['opponent_rating']):.0f}"


def number(text):
    return float(text) if text.strip() else None


def elo_of_score(score):
    """The Elo difference of a score in (0, 1)."""
    return -400.0 * math.log10(1.0 / score - 1.0)


def difference(row):
    """(Elo difference, its 95 % error or None, whether it came from the score alone)."""
    elo = number(row["elo"])
    if elo is not None:
        return elo, number(row["elo_error"]), False
    score = number(row["score_pct"])
    if score is None or not 0 < score < 100:
        return None, None, False
    return elo_of_score(score / 100.0), None, True


def measured(row):
    """(Minkowski's rating on the opponent's list, error or None, from the score alone) or None
    when the opponent has no rating."""
    rating = number(row["opponent_rating"])
    elo, error, from_score = difference(row)
    if rating is None or elo is None:
        return None
    return rating + elo, error, from_score


def full_strength(rows):
    return [r for r in rows if not r["uci_elo"].strip()]


def signed(x, digits=1):
    return f"{x:+.{digits}f}".replace("-", "−")


def wdl(row):
    if all(row[k].strip() for k in ("wins", "draws", "losses")):
        return f"+{row['wins']} ={row['draws']} −{row['losses']}"
    return "—"


def table(rows, anchors):
    """Markdown: the latest full-strength match against each opponent, strongest first."""
    latest = {}
    for row in full_strength(rows):
        if row["opponent"] not in latest or row["date"] >= latest[row["opponent"]]["date"]:
            latest[row["opponent"]] = row
    ordered = sorted(latest.values(),
                     key=lambda r: -(number(r["opponent_rating"]) or 0.0))
    lines = ["| opponent | its rating (list) | date | build (commit or version) | time control "
             "| games | W/D/L "
             "| score | Elo difference | Minkowski on that list |",
             "|---|---|---|---|---|---:|---|---:|---:|---:|"]
    for r in ordered:
        elo, error, from_score = difference(r)
        rating = rating_text(r, anchors)
        if r["opponent_rating"]:
            rating += f" ({r['rating_list']})"
        diff = "—" if elo is None else signed(elo) + (f" ± {error:.1f}" if error else "")
        if from_score:
            diff += " (from the score)"
        m = measured(r)
        mine = "—" if m is None else f"{m[0]:.0f}" + (f" ± {m[1]:.0f}" if m[1] else "")
        build = r["commit"] or r["engine_version"] or "—"
        score = f"{float(r['score_pct']):.1f} %" if r["score_pct"] else "—"
        lines.append(f"| {r['opponent']} | {rating} | {r['date']} | {build} | {r['time_control']} "
                     f"| {r['games'] or '—'} | {wdl(r)} | {score} | {diff} | {mine} |")
    return "\n".join(lines) + "\n"


def summary(rows, anchors):
    """Markdown: the README's short table (the latest match per rated opponent)."""
    latest = {}
    for row in full_strength(rows):
        if measured(row) and (row["opponent"] not in latest
                              or row["date"] >= latest[row["opponent"]]["date"]):
            latest[row["opponent"]] = row
    ordered = sorted(latest.values(), key=lambda r: -float(r["opponent_rating"]))
    lines = ["| against | its rating | result | Minkowski |", "|---|---|---|---:|"]
    for r in ordered:
        elo, error, _ = difference(r)
        mine, mine_error, _ = measured(r)
        result = signed(elo, 0) + (f" ± {error:.0f}" if error else "") + \
            f" Elo, {r['time_control']}, {r['date']}"
        lines.append(f"| {r['opponent']} | {rating_text(r, anchors)} ({r['rating_list']}) "
                     f"| {result} | {mine:.0f}" + (f" ± {mine_error:.0f}" if mine_error else "")
                     + " |")
    return "\n".join(lines) + "\n"


def anchor_table(rows, anchors):
    """Markdown: every anchor of anchors.csv, its rating and where the number comes from."""
    lines = ["| engine | match.py preset | rating | list | status | source |",
             "|---|---|---:|---|---|---|"]
    for a in anchors.values():
        source = re.sub(r"(https?://\S+?)(:?)( |$)", r"<\1>\2\3", a["source"])
        lines.append(f"| {a['opponent']} | `{a['preset']}` | {a['rating'] or '—'} "
                     f"| {a['rating_list'] or '—'} | {a['status']} | {source} |")
    return "\n".join(lines) + "\n"


def pooled(results):
    """The inverse-variance mean of (rating, error) pairs with an error: (mean, error)."""
    weighted = [(m, e) for m, e in results if e]
    if not weighted:
        return None
    weights = [1.0 / (e * e) for _, e in weighted]
    mean = sum(w * m for w, (m, _) in zip(weights, weighted)) / sum(weights)
    return mean, 1.0 / math.sqrt(sum(weights))


def levels(rows, anchors):
    """Markdown: each UCI_Elo setting, its calibration matches and the pooled rating."""
    by_setting = {}
    for row in rows:
        if row["uci_elo"].strip():
            by_setting.setdefault(int(float(row["uci_elo"])), []).append(row)
    settings = sorted(set(CALIBRATION_SETTINGS) | set(by_setting))
    lines = ["| UCI_Elo | matches (opponent: games, Elo difference) | measured rating |",
             "|---:|---|---:|"]
    for setting in settings:
        matches = by_setting.get(setting, [])
        if not matches:
            lines.append(f"| {setting} | pending | pending |")
            continue
        parts, results = [], []
        for r in matches:
            elo, error, _ = difference(r)
            diff = "—" if elo is None else signed(elo, 0) + (f" ± {error:.0f}" if error else "")
            parts.append(f"{r['opponent']}: {r['games'] or '?'}, {diff}")
            m = measured(r)
            if m:
                results.append((m[0], m[1]))
        pool = pooled(results)
        rating = "—" if pool is None else f"{pool[0]:.0f} ± {pool[1]:.0f}"
        lines.append(f"| {setting} | {'; '.join(parts)} | {rating} |")
    return "\n".join(lines) + "\n"


def svg(rows, anchors):
    """The picture: one series per rated opponent, x the matches in date order."""
    points = []
    for row in sorted(full_strength(rows), key=lambda r: (r["date"], r["line"])):
        m = measured(row)
        if m:
            points.append((row, m))
    width, height = 980, 520
    left, right, top, bottom = 78, 300, 58, 96
    plot_w, plot_h = width - left - right, height - top - bottom
    lows = [v - (e or 0) for _, (v, e, _) in points] or [2000.0]
    highs = [v + (e or 0) for _, (v, e, _) in points] or [3000.0]
    y_min = math.floor((min(lows) - 30) / 100.0) * 100
    y_max = math.ceil((max(highs) + 30) / 100.0) * 100
    n = max(len(points), 1)

    def x_of(i):
        return left + plot_w * (i + 0.5) / n

    def y_of(v):
        return top + plot_h * (y_max - v) / (y_max - y_min)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Helvetica, Arial, '
           f'sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
           f'<text x="{left + plot_w / 2:.1f}" y="24" text-anchor="middle" font-size="16" '
           f'font-weight="bold">Minkowski\'s measured rating over its history</text>',
           f'<text x="{left + plot_w / 2:.1f}" y="42" text-anchor="middle" fill="#444444">'
           f'the opponent\'s rating plus the measured Elo difference (95 % error bars)</text>']
    # Grid and y axis.
    step = 100 if y_max - y_min <= 1200 else 200
    v = y_min
    while v <= y_max:
        y = y_of(v)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" '
                   f'stroke="#e3e3e3"/>')
        out.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">{v:.0f}</text>')
        v += step
    out.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" '
               f'stroke="#444444"/>')
    out.append(f'<text transform="translate(20 {top + plot_h / 2:.1f}) rotate(-90)" '
               f'text-anchor="middle">rating on the opponent\'s list (CCRL)</text>')
    # x axis: one tick per match, labelled with its date.
    for i, (row, _) in enumerate(points):
        x = x_of(i)
        out.append(f'<line x1="{x:.1f}" y1="{top + plot_h}" x2="{x:.1f}" '
                   f'y2="{top + plot_h + 5}" stroke="#444444"/>')
        out.append(f'<text transform="translate({x + 4:.1f} {top + plot_h + 18}) rotate(30)" '
                   f'font-size="11">{escape(row["date"])}</text>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 12}" text-anchor="middle">'
               f'match, in date order</text>')
    # Series.
    opponents = []
    for row, _ in points:
        if row["opponent"] not in opponents:
            opponents.append(row["opponent"])
    colour = {o: PALETTE[i % len(PALETTE)] for i, o in enumerate(opponents)}
    for o in opponents:
        mine = [(i, m) for i, (row, m) in enumerate(points) if row["opponent"] == o]
        if len(mine) > 1:
            path = " ".join(f"{x_of(i):.1f},{y_of(v):.1f}" for i, (v, _, _) in mine)
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour[o]}" '
                       f'stroke-width="1.2" stroke-dasharray="4 3"/>')
    for i, (row, (v, error, from_score)) in enumerate(points):
        x, y, c = x_of(i), y_of(v), colour[row["opponent"]]
        if error:
            y1, y2 = y_of(v + error), y_of(v - error)
            out.append(f'<line x1="{x:.1f}" y1="{y1:.1f}" x2="{x:.1f}" y2="{y2:.1f}" '
                       f'stroke="{c}" stroke-width="1.5"/>')
            for yy in (y1, y2):
                out.append(f'<line x1="{x - 6:.1f}" y1="{yy:.1f}" x2="{x + 6:.1f}" '
                           f'y2="{yy:.1f}" stroke="{c}" stroke-width="1.5"/>')
        fill = "#ffffff" if from_score else c
        label = f"{row['opponent']}, {row['date']}: {v:.0f}" + (f" ± {error:.0f}" if error else "")
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{fill}" stroke="{c}" '
                   f'stroke-width="2"><title>{escape(label)}</title></circle>')
        out.append(f'<text x="{x + 8:.1f}" y="{y + 4:.1f}" font-size="11" fill="{c}">'
                   f'{v:.0f}</text>')
    # Legend.
    lx = left + plot_w + 18
    out.append(f'<text x="{lx}" y="{top + 4}" font-weight="bold">opponent (rating, list)</text>')
    for k, o in enumerate(opponents):
        row = next(r for r, _ in points if r["opponent"] == o)
        y = top + 26 + 22 * k
        out.append(f'<circle cx="{lx + 6}" cy="{y - 4}" r="5" fill="{colour[o]}"/>')
        out.append(f'<text x="{lx + 18}" y="{y}">{escape(o)} '
                   f'({rating_text(row, anchors)}, {escape(row["rating_list"])})</text>')
    y = top + 26 + 22 * len(opponents) + 10
    out.append(f'<circle cx="{lx + 6}" cy="{y - 4}" r="5" fill="#ffffff" stroke="#444444" '
               f'stroke-width="2"/>')
    out.append(f'<text x="{lx + 18}" y="{y}">only the score recorded:</text>')
    out.append(f'<text x="{lx + 18}" y="{y + 15}">no error bar</text>')
    notes = ["≈: the anchor's rating is an estimate.",
             "The lists differ (40/40, 40/15, 40/2) and the",
             "games are far faster than theirs: read the",
             "trend, not the absolute number.",
             "Data: docs/strength/matches.csv"]
    for k, text in enumerate(notes):
        out.append(f'<text x="{lx}" y="{y + 48 + 15 * k}" font-size="11" fill="#444444">'
                   f'{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def rendered_docs(rows, anchors, docs=DOCS):
    """{path: its new text} for every document of `docs` (those that exist), blocks filled."""
    makers = {"table": table, "levels": levels, "summary": summary, "anchors": anchor_table}
    texts = {}
    for path in docs:
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()

        def fill(m):
            name = m.group(2)
            if name not in makers:
                raise DataError(f"{path}: unknown block '{name}' (known: {', '.join(makers)})")
            return m.group(1) + makers[name](rows, anchors) + m.group(4)

        texts[path] = BLOCK.sub(fill, text)
    return texts


# Match figures written by hand: a W/D/L in either of the pages' forms, an Elo (or rating) with
# its error, a score. The minus sign may be typographic; thousands may have commas.
WDL_SIGNS = re.compile(r"\+(\d+) =(\d+) [−-](\d+)")
WDL_SLASHES = re.compile(r"(?<![\d/])(\d{1,4})/(\d{1,4})/(\d{1,4})(?![\d/])")
WLD_DASHES = re.compile(r"(?<![\d-])(\d{1,3})-(\d{1,3})-(\d{1,3})(?![\d-])")
WITH_ERROR = re.compile(r"(?<![\w.])([+−-]?\d[\d,]*(?:\.\d+)?) ± (\d+(?:\.\d+)?)")
SCORE = re.compile(r"(?<![\w.])(\d{1,3}(?:\.\d+)?) %")


def plain(text):
    """A figure's number as Python reads it (typographic minus, thousands' commas)."""
    return float(text.replace("−", "-").replace(",", ""))


def shows(text, value):
    """Whether `value` rounds to the figure `text` at the digits `text` shows."""
    digits = len(text.split(".")[1]) if "." in text else 0
    return value is not None and abs(plain(text) - value) <= 0.5 * 10 ** -digits + 1e-9


def figures(line, scores):
    """[(figure as written, test of a CSV row)] of one line of a page."""
    found = []

    def wdl(w, d, l):
        return lambda r: (r["wins"], r["draws"], r["losses"]) == (w, d, l)

    for m in WDL_SIGNS.finditer(line):
        found.append((m.group(0), wdl(*m.groups())))
    for m in WDL_SLASHES.finditer(line):
        found.append((m.group(0), wdl(*m.groups())))
    for m in WLD_DASHES.finditer(line):
        w, l, d = m.groups()
        found.append((m.group(0), wdl(w, d, l)))
    for m in WITH_ERROR.finditer(line):
        value, error = m.groups()

        def elo_or_rating(r, value=value, error=error):
            elo = number(r["elo"])
            if elo is None or not shows(error, number(r["elo_error"])):
                return False
            rating = number(r["opponent_rating"])
            return shows(value, elo) or (rating is not None and shows(value, rating + elo))

        found.append((m.group(0), elo_or_rating))
    if scores:
        for m in SCORE.finditer(line):
            found.append((m.group(0), lambda r, s=m.group(1): shows(s, number(r["score_pct"]))))
    return found


def traced_lines(text, section, anchor_names):
    """(line number, line, whether scores count) of a page to check: outside the generated
    blocks; with a section, only its prose and its table rows naming an anchor."""
    blocks = set()
    for m in BLOCK.finditer(text):
        first = text.count("\n", 0, m.start(3)) + 1
        blocks.update(range(first, first + m.group(3).count("\n")))
    inside = section is None
    out = []
    for number_, line in enumerate(text.split("\n"), start=1):
        if section is not None and line.startswith("## "):
            inside = line[3:].strip() == section
            continue
        if not inside or number_ in blocks:
            continue
        if line.startswith("|"):
            first_cell = line.strip("|").split("|")[0]
            if section is not None and not any(a in first_cell for a in anchor_names):
                continue
        # Scores only in an anchor's table row: the prose has other percentages ("95 %").
        out.append((number_, line, section is not None and line.startswith("|")))
    return out


def read_match_csvs(paths):
    """Every row of the CSVs with the matches' columns among `paths` (others are skipped)."""
    rows = []
    for path in paths:
        with open(path, newline="", encoding="utf-8") as f:
            if next(csv.reader(f), None) != COLUMNS:
                continue
        rows.extend(read_rows(path))
    return rows


def read_untraced(path):
    """{(page, figure): reason} of the figures no command reproduces (empty without the file)."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return {(row["page"], row["figure"]): row["reason"] for row in csv.DictReader(f)}
    except OSError:
        return {}


def untraced_figures(pages, rows, untraced, anchor_names):
    """Complaints, one a line: a figure of a page with no CSV row and not listed as untraced,
    and a listed figure no longer on its page."""
    problems, seen = [], set()
    for spec in pages:
        path, _, section = spec.partition("#")
        page = os.path.relpath(path, ROOT)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for line_number, line, scores in traced_lines(text, section or None, anchor_names):
            for figure, test in figures(line, scores):
                if (page, figure) in untraced:
                    seen.add((page, figure))
                elif not any(test(r) for r in rows):
                    problems.append(f"{page}:{line_number}: '{figure}' has no row in "
                                    f"docs/strength/*.csv (add the match's row, or list it in "
                                    f"untraced.csv with the reason)")
    checked = {os.path.relpath(spec.partition("#")[0], ROOT) for spec in pages}
    for page, figure in untraced:
        if page in checked and (page, figure) not in seen:
            problems.append(f"untraced.csv: '{figure}' is no longer on {page}: remove its entry")
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="exit 1 if the SVG or a generated table is stale")
    mode.add_argument("--table", action="store_true",
                      help="print the latest match against each opponent (Markdown)")
    mode.add_argument("--levels", action="store_true",
                      help="print the UCI_Elo calibration table (Markdown)")
    mode.add_argument("--summary", action="store_true", help="print the README's short table")
    parser.add_argument("--csv", default=MATCHES, help="the matches (default: %(default)s)")
    parser.add_argument("--svg", default=SVG, help="the picture (default: %(default)s)")
    parser.add_argument("--anchors", default=ANCHORS,
                        help="the anchors' ratings (default: %(default)s)")
    parser.add_argument("--docs", nargs="*", default=DOCS, metavar="FILE",
                        help="documents whose generated blocks to fill (default: README.md "
                             "and docs/strength.md)")
    parser.add_argument("--trace", nargs="*", default=TRACED, metavar="PAGE[#SECTION]",
                        help="pages whose match figures must have a CSV row (default: "
                             "docs/strength.md and results.md's 'Where we stand')")
    parser.add_argument("--traced-csv", nargs="*", metavar="CSV",
                        help="the CSVs the figures come from (default: docs/strength/*.csv "
                             "with the matches' columns, and --csv)")
    parser.add_argument("--untraced", default=UNTRACED,
                        help="the figures no command reproduces (default: %(default)s)")
    args = parser.parse_args(argv)
    try:
        rows = read_rows(args.csv)
        anchors = read_anchors(args.anchors)
        if args.table or args.levels or args.summary:
            make = table if args.table else levels if args.levels else summary
            sys.stdout.write(make(rows, anchors))
            return 0
        wanted = {args.svg: svg(rows, anchors)}
        wanted.update(rendered_docs(rows, anchors, args.docs))
        sources = args.traced_csv
        if sources is None:
            folder = os.path.dirname(MATCHES)
            sources = sorted(os.path.join(folder, name) for name in os.listdir(folder)
                             if name.endswith(".csv"))
            if os.path.abspath(args.csv) not in sources:
                sources.append(os.path.abspath(args.csv))
        names = set(anchors) | {r["opponent"] for r in read_match_csvs(sources)}
        names |= {" ".join(n.split()[:2]) for n in names}  # "Stockfish 15.1", "Ethereal 12"
        untraced = untraced_figures(args.trace, read_match_csvs(sources),
                                    read_untraced(args.untraced), names)
    except (OSError, DataError) as e:
        print(f"strength-plot: {e}", file=sys.stderr)
        return 2
    for problem in untraced:
        print(f"strength-plot: {problem}", file=sys.stderr)
    stale = []
    for path, text in wanted.items():
        try:
            with open(path, encoding="utf-8") as f:
                current = f.read()
        except OSError:
            current = None
        if current != text:
            stale.append(path)
            if not args.check:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
    for path in stale:
        rel = os.path.relpath(path, ROOT)
        if args.check:
            print(f"strength-plot: {rel} is stale: run python3 scripts/strength-plot.py",
                  file=sys.stderr)
        else:
            print(f"wrote {rel}")
    return 1 if (args.check and stale) or untraced else 0


if __name__ == "__main__":
    sys.exit(main())
