#!/usr/bin/env python3
"""Calibrate the strength levels: for each UCI_Elo setting, a match at 10+0.1 of Minkowski with
UCI_LimitStrength on against rated engines (cutechess-cli, or --runner match.py: the project's
../shared/tools/match.py), each result appended to docs/strength/matches.csv
(scripts/add-match.py), then the picture and tables redrawn (scripts/strength-plot.py).
cutechess-cli plays from openings/noob_3moves_2000.epd (python3 scripts/fetch-openings.py).

    python3 scripts/calibrate-elo.py --dry-run             # print the plan's commands only
    python3 scripts/calibrate-elo.py                       # play it (hours: a quiet machine)
    python3 scripts/calibrate-elo.py --settings 1500,2100 --anchors fairymax,sf@1500 --games 100
    python3 scripts/calibrate-elo.py --stockfish-levels --settings 1350   # rate Stockfish's level

With --stockfish-levels the first engine is Stockfish 15.1 at each setting instead of Minkowski,
against the weakest rated engine (Fairy-Max; never a rated level) unless --anchors names others, and the rows go to
docs/strength/stockfish-levels.csv: a level so rated, entered in anchors.csv as the preset
`sf@N` with its measured rating, is a rated anchor below Fairy-Max for Minkowski's bottom
settings (docs/strength.md, "The bottom of the range").

Anchors (`--anchors auto`, the default): for each setting, the two rated engines of
docs/strength/anchors.csv nearest to it within --window points, and where there is none that
near, the nearest rated engine at any distance. A Stockfish level (`sf@N`) is chosen only once
anchors.csv rates it by games against a rated engine (`sf@1350`, 1617: the bottom settings'
anchor); an unrated level is never chosen, since at 10+0.1 the levels measured 320 to 900 points
above their number against the rated engines (docs/strength.md, first round); give one by
name (`--anchors sf@SETTING`) for a second opinion.
Fairy-Max gets openings as moves (it has no setboard): openings.pgn instead of the EPD book.

The commands are run from the repository's root, with paths relative to it (the shared match
tools at ../shared/tools, or $MATCH_TOOLS), but for the engine's (match.py starts each engine
in a directory of its own).

The match's games run one after another unless --concurrency says otherwise; with both cores
free, --concurrency 2 is what match.py's README measured safe.
"""

import argparse
import csv
import importlib.util
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared"))
TOOLS = os.environ.get("MATCH_TOOLS", os.path.join(SHARED, "tools"))
OPENINGS = os.path.join(SHARED, "openings")


def load_plot():
    """scripts/strength-plot.py as a module: the settings, the anchors and the CSV's path."""
    spec = importlib.util.spec_from_file_location("strength_plot",
                                                  os.path.join(HERE, "strength-plot.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


plot = load_plot()

# Anchors that speak xboard without `setboard`: they need openings as move lists.
MOVES_ONLY = {"fairymax"}

# The anchors of anchors.csv by preset, as cutechess-cli starts them (Debian 12's packages):
# the command and its arguments, the protocol, and the options that keep them comparable (one
# thread, 16 MB, their own books off), as match.py's presets set them.
CUTECHESS_ENGINES = {
    "ethereal": (["/usr/games/ethereal-chess"], "uci",
                 {"Threads": "1", "Hash": "16", "MoveOverhead": "30"}),
    "toga2": (["/usr/games/toga2"], "uci",
              {"OwnBook": "false", "Hash": "16", "Number of Threads": "1"}),
    "glaurung": (["/usr/games/glaurung"], "uci",
                 {"OwnBook": "false", "Threads": "1", "Ponder": "false", "Hash": "16"}),
    "gnuchess": (["/usr/games/gnuchess", "--uci"], "uci", {"OwnBook": "false", "Hash": "16"}),
    "phalanx": (["/usr/games/phalanx", "-b-", "-l-", "-t", "16384"], "xboard", {}),
    "fairymax": (["/usr/games/fairymax"], "xboard", {}),
    "stockfish": (["/usr/games/stockfish"], "uci", {"Threads": "1", "Hash": "16"}),
}
# The openings scripts/fetch-openings.py writes (from the repository's root).
FETCHED_OPENINGS = os.path.join(ROOT, "openings", "noob_3moves_2000.epd")
# Where --stockfish-levels records Stockfish's levels rated against the anchors.
STOCKFISH_LEVELS = os.path.join(ROOT, "docs", "strength", "stockfish-levels.csv")


def cutechess_engine(anchor):
    """cutechess-cli's `-engine` arguments and name for a preset (`sf@N`: Stockfish at its
    UCI_Elo N, named sfN as add-match.py reads it)."""
    options = {}
    name = anchor
    if anchor.startswith("sf@"):
        options = {"UCI_LimitStrength": "true", "UCI_Elo": anchor[3:]}
        name, anchor = "sf" + anchor[3:], "stockfish"
    if anchor not in CUTECHESS_ENGINES:
        raise ValueError(f"no cutechess-cli command for {anchor!r} "
                         f"(known: {', '.join(sorted(CUTECHESS_ENGINES))}, sf@N)")
    command, proto, forced = CUTECHESS_ENGINES[anchor]
    args = [f"cmd={command[0]}"] + [f"arg={a}" for a in command[1:]]
    args += [f"name={name}", f"proto={proto}"]
    args += [f"option.{k}={v}" for k, v in {**forced, **options}.items()]
    return args, name


def rated_anchors(path=plot.ANCHORS):
    """[(preset, rating)] of the anchors with a rating (estimates included)."""
    with open(path, newline="", encoding="utf-8") as f:
        return [(row["preset"], float(row["rating"])) for row in csv.DictReader(f)
                if row["rating"].strip() and row["preset"].strip()]


def anchors_for(setting, choice, window, rated):
    """The presets to play at `setting`: the given list, or the `auto` choice."""
    if choice != "auto":
        return [a.strip().replace("@SETTING", f"@{setting}") for a in choice.split(",")
                if a.strip()]
    by_distance = sorted((abs(r - setting), p) for p, r in rated)
    within = [p for distance, p in by_distance if distance <= window][:2]
    return within or [p for _, p in by_distance[:1]]


def engine_version(engine):
    """(version, commit) from `minkowski --version` (`minkowski 0.2.0 (1a2b3c4)`)."""
    try:
        out = subprocess.run([engine, "--version"], capture_output=True, text=True,
                             timeout=30).stdout.split()
    except OSError:
        return "", ""
    version = out[1] if len(out) > 1 else ""
    commit = out[2].strip("()") if len(out) > 2 else ""
    return version, commit


def rel(path):
    """`path` as the commands give it: relative to the repository's root."""
    return os.path.relpath(os.path.abspath(path), ROOT)


def plan(args, rated):
    """[(setting, anchor, match command, add-match command)] in playing order, to be run from
    the repository's root. With --stockfish-levels the first engine is Stockfish at the
    setting, rated against the weakest rated engine unless --anchors names others: never a
    Stockfish level (`sf@N`) even once anchors.csv rates one, since a level rated through
    another level would rest on nothing but Stockfish's own numbers."""
    steps = []
    engines = [a for a in rated if not a[0].startswith("sf@")]
    weakest = [min(engines, key=lambda a: a[1])[0]] if engines else []
    for setting in args.settings:
        anchors = (weakest if args.stockfish_levels and args.anchors == "auto"
                   else anchors_for(setting, args.anchors, args.window, rated))
        for anchor in anchors:
            name = f"minkowski@{setting}"
            first = ["cmd=" + os.path.abspath(args.engine), f"name={name}", "proto=uci",
                     "option.UCI_LimitStrength=true", f"option.UCI_Elo={setting}",
                     "option.Hash=16", "option.Threads=1"]
            mine = ["-e", os.path.abspath(args.engine), "-n", name,
                    "-o", "UCI_LimitStrength=true", "-o", f"UCI_Elo={setting}",
                    "-o", "Hash=16", "-o", "Threads=1"]
            level = ["--uci-elo", str(setting)]
            if args.stockfish_levels:
                first, name = cutechess_engine(f"sf@{setting}")
                mine = ["-e", f"sf@{setting}"]
                level = ["--notes", f"Stockfish 15.1 at UCI_Elo {setting} (the first engine): "
                                    "the level's rating on the opponent's list"]
            prefix = "sf" if args.stockfish_levels else "elo"
            stem = rel(os.path.join(args.out_dir,
                                    f"{prefix}{setting}-{anchor.replace('@', '')}"))
            if args.runner == "cutechess-cli":
                openings = args.openings or (os.path.join(OPENINGS, "openings.pgn")
                                             if anchor in MOVES_ONLY else FETCHED_OPENINGS)
                engine, _ = cutechess_engine(anchor)
                match = [args.cutechess, "-engine", *first, "-engine", *engine,
                         "-each", f"tc={args.tc}", "timemargin=200",
                         "-openings", f"file={rel(openings)}",
                         "format=" + ("pgn" if openings.endswith(".pgn") else "epd"),
                         "order=random", "-srand", str(args.seed),
                         "-repeat", "-games", "2", "-rounds", str(args.games // 2),
                         "-concurrency", str(args.concurrency), "-recover",
                         "-pgnout", stem + ".pgn"]
                add = ["python3", "scripts/add-match.py", "--pgn", stem + ".pgn",
                       "--player", name, "--csv", rel(args.csv), *level]
                steps.append((setting, anchor, match, add))
                continue
            openings = args.openings or os.path.join(
                OPENINGS, "openings.pgn" if anchor in MOVES_ONLY else "noob_3moves_2000.epd")
            match = ["python3", rel(os.path.join(TOOLS, "match.py")),
                     # Absolute: match.py starts each engine in a directory of its own.
                     *mine,
                     "-e", anchor,
                     "--tc", args.tc, "--games", str(args.games),
                     "--concurrency", str(args.concurrency),
                     "--openings", rel(openings), "--order", "random", "--seed", str(args.seed),
                     "--pgn", stem + ".pgn", "--json", stem + ".json", "--quiet"]
            add = ["python3", "scripts/add-match.py", stem + ".json",
                   "--csv", rel(args.csv), *level]
            steps.append((setting, anchor, match, add))
    return steps


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "minkowski"),
                        help="the Minkowski binary (default: %(default)s)")
    parser.add_argument("--settings", default=",".join(map(str, plot.CALIBRATION_SETTINGS)),
                        help="UCI_Elo values, comma-separated (default: %(default)s)")
    parser.add_argument("--anchors", default="auto",
                        help="'auto', or presets of match.py comma-separated (sf@SETTING: "
                             "Stockfish at the setting being measured)")
    parser.add_argument("--window", type=float, default=300,
                        help="with --anchors auto: the farthest an anchor's rating may be from "
                             "the setting (default: %(default)s)")
    parser.add_argument("--runner", choices=("cutechess-cli", "match.py"),
                        default="cutechess-cli",
                        help="the match runner (default: %(default)s; match.py: the project's "
                             "shared match tools, which played the rows so far)")
    parser.add_argument("--cutechess", default="cutechess-cli",
                        help="the cutechess-cli binary (default: %(default)s, on the PATH)")
    parser.add_argument("--games", type=int, default=200, help="games a match (default: 200)")
    parser.add_argument("--tc", default="10+0.1", help="time control (default: 10+0.1)")
    parser.add_argument("--concurrency", type=int, default=1,
                        help="games at once (default: 1)")
    parser.add_argument("--openings", help="one opening file for every match (default: "
                                           "noob_3moves_2000.epd, openings.pgn for Fairy-Max)")
    parser.add_argument("--seed", type=int, default=1, help="opening order seed (default: 1)")
    parser.add_argument("--out-dir", default=os.path.join(ROOT, "target", "calibration"),
                        help="PGN and JSON of each match (default: %(default)s)")
    parser.add_argument("--csv", help="the matches (default: docs/strength/matches.csv; "
                                      "with --stockfish-levels, stockfish-levels.csv)")
    parser.add_argument("--stockfish-levels", action="store_true",
                        help="rate Stockfish 15.1's own UCI_Elo levels (--settings) against "
                             "rated engines (default: the weakest) instead of Minkowski's")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the commands without running anything")
    args = parser.parse_args(argv)
    if args.csv is None:
        args.csv = STOCKFISH_LEVELS if args.stockfish_levels else plot.MATCHES
    try:
        args.settings = [int(s) for s in args.settings.split(",") if s.strip()]
    except ValueError:
        parser.error("--settings takes whole numbers separated by commas")
    low, high = 1350, 2800
    bad = [s for s in args.settings if not low <= s <= high]
    if bad or not args.settings:
        parser.error(f"--settings must lie within {low}..{high} (UCI_Elo's range)")
    if args.games < 2 or args.concurrency < 1:
        parser.error("--games must be at least 2 and --concurrency at least 1")
    try:
        steps = plan(args, rated_anchors())
    except ValueError as e:
        parser.error(str(e))
    if not args.stockfish_levels:  # the version and commit columns are Minkowski's
        version, commit = ("VERSION", "COMMIT") if args.dry_run else engine_version(args.engine)
        for _, _, _, add in steps:
            add += ["--engine-version", version, "--commit", commit]
    redraw = ["python3", "scripts/strength-plot.py"]
    if args.dry_run:
        print(f"# {len(steps)} matches of {args.games} games at {args.tc}, from the repository's "
              f"root; results in {rel(args.csv)}")
        for setting, anchor, match, add in steps:
            print(f"# UCI_Elo {setting} against {anchor}")
            print(shlex.join(match))
            print(shlex.join(add))
        print(shlex.join(redraw))
        return 0
    if not args.stockfish_levels and not os.access(args.engine, os.X_OK):
        parser.error(f"{args.engine} is not an executable (cargo build --release first)")
    os.makedirs(args.out_dir, exist_ok=True)

    def run(command):
        # The interpreter running this script runs the others (python-chess is installed for it).
        if command[0] == "python3":
            command = [sys.executable] + command[1:]
        return subprocess.run(command, cwd=ROOT).returncode

    failed = 0
    for setting, anchor, match, add in steps:
        print(f"== UCI_Elo {setting} against {anchor}", flush=True)
        if run(match) != 0 or run(add) != 0:
            print(f"calibrate-elo: UCI_Elo {setting} against {anchor} failed; going on",
                  file=sys.stderr)
            failed += 1
    run(redraw)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
