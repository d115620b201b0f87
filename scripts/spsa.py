#!/usr/bin/env python3
"""SPSA tuning of the search's constants, as Fishtest runs it (docs/spsa.md).

Each step perturbs every tuned parameter by +-c_k at random (Bernoulli signs), plays game pairs
(one opening, colours swapped) between the engine at theta + c_k*flip and at theta - c_k*flip,
and moves theta by a_k / c_k * (wins - losses) * flip, clamped to the parameter's range. The
whole run lives in one small JSON file (parameters, hyper-parameters, pairs played, W/D/L),
rewritten atomically after every step: a run killed at any moment resumes exactly where it
stopped, and since the signs and openings of step k follow from (seed, k) alone, the resumed run
is the run that was never interrupted.

    scripts/spsa.py init   --state tune/spsa/state.json --iterations 20000 [--params a,b] [--seed 1]
    scripts/spsa.py run    --state tune/spsa/state.json --engine target/tune/release/minkowski [--steps N]
                           [--cutechess /opt/cutechess/cutechess-cli]
    scripts/spsa.py report --state tune/spsa/state.json
    scripts/spsa.py apply  --state tune/spsa/state.json   (tuned values -> src/search/params.rs)

Python 3 standard library only; the games are played by a match.py-compatible harness
(`--match`, fixed nodes per move).
"""

import argparse
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
PARAMS_FILE = os.path.join(REPO, "src", "search", "params.rs")
DEFAULT_MATCH = "/work/shared/tools/match.py"
DEFAULT_OPENINGS = "/work/shared/openings/noob_3moves_2000.epd"
DEFAULT_ENGINE = os.path.join(REPO, "target", "tune", "release", "minkowski")
STATE_FORMAT = 1

# Fishtest's exponents: c_k = c / k^GAMMA, a_k = a / (A + k)^ALPHA.
GAMMA = 0.101
ALPHA = 0.602
# Fishtest's default end learning rate: a_end = R_END * c_end^2.
R_END = 0.002

# One declaration of the tunable_params! table in params.rs (see that file's header).
DECLARATION = re.compile(
    r"^(?P<indent>\s*)(?P<name>[a-z][a-z0-9_]*) = (?P<default>-?\d+) in "
    r"(?P<min>-?\d+)\.\.=(?P<max>-?\d+), c_end (?P<c_end>[0-9.]+);\s*$"
)


class SpsaError(Exception):
    """A problem the user can fix (bad arguments, a broken state file, a failed match)."""


# ---------------------------------------------------------------------------------------------
# The parameter table

def read_declarations(path=PARAMS_FILE):
    """The tunable parameters declared in params.rs: name -> dict(default, min, max, c_end)."""
    table = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            m = DECLARATION.match(line)
            if m:
                table[m["name"]] = {
                    "default": int(m["default"]),
                    "min": int(m["min"]),
                    "max": int(m["max"]),
                    "c_end": float(m["c_end"]),
                }
    if not table:
        raise SpsaError(f"{path}: no tunable_params! declarations found")
    return table


def apply_to_source(text, values):
    """params.rs `text` with the defaults of `values` (name -> int) written in; every name must
    be declared, and every value inside its declared range."""
    seen = set()
    out = []
    for line in text.splitlines(keepends=True):
        m = DECLARATION.match(line.rstrip("\n"))
        if m and m["name"] in values:
            name, value = m["name"], values[m["name"]]
            if not int(m["min"]) <= value <= int(m["max"]):
                raise SpsaError(f"{name} = {value} is outside {m['min']}..={m['max']}")
            start, end = m.span("default")
            line = line[:start] + str(value) + line[end:]
            seen.add(name)
        out.append(line)
    missing = sorted(set(values) - seen)
    if missing:
        raise SpsaError("not declared in params.rs: " + ", ".join(missing))
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# The state file

def new_state(declarations, names, iterations, seed, pairs=1, r_end=R_END, big_a=None,
              nodes=3000, openings=DEFAULT_OPENINGS, opening_count=None):
    """A fresh run: theta at the declared defaults, Fishtest's a and c from c_end, r_end and the
    planned number of game pairs (`iterations`)."""
    if iterations < 1:
        raise SpsaError("--iterations must be at least 1")
    if pairs < 1:
        raise SpsaError("--pairs must be at least 1")
    unknown = [n for n in names if n not in declarations]
    if unknown:
        raise SpsaError("unknown parameter(s): " + ", ".join(unknown)
                        + " (known: " + ", ".join(declarations) + ")")
    big_a = round(0.1 * iterations) if big_a is None else big_a
    params = []
    for name in names:
        d = declarations[name]
        c_end = d["c_end"]
        # Fishtest: c = c_end * N^gamma, a_end = r_end * c_end^2, a = a_end * (A + N)^alpha, so
        # that c_N = c_end and a_N / c_N^2 = r_end at the last pair.
        params.append({
            "name": name, "start": d["default"], "theta": float(d["default"]),
            "min": d["min"], "max": d["max"], "c_end": c_end, "r_end": r_end,
            "c": c_end * iterations ** GAMMA,
            "a": r_end * c_end ** 2 * (big_a + iterations) ** ALPHA,
        })
    return {
        "format": STATE_FORMAT,
        "seed": seed,
        "hyper": {"iterations": iterations, "A": big_a, "alpha": ALPHA, "gamma": GAMMA,
                  "pairs_per_step": pairs, "nodes": nodes, "openings": openings,
                  "opening_count": opening_count},
        "iter": 0, "steps": 0, "games": 0, "wins": 0, "draws": 0, "losses": 0,
        "params": params,
    }


def load_state(path):
    try:
        with open(path, encoding="utf-8") as fh:
            state = json.load(fh)
    except OSError as e:
        raise SpsaError(f"{path}: cannot read: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise SpsaError(f"{path}: not JSON: {e}") from None
    if state.get("format") != STATE_FORMAT:
        raise SpsaError(f"{path}: state format {state.get('format')!r}, expected {STATE_FORMAT}")
    return state


def save_state(path, state):
    """Write `state` so that `path` always holds a whole state: a temporary file in the same
    folder, flushed to disk, then renamed over the old one."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".spsa-", suffix=".json", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(state, fh, indent=1)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# ---------------------------------------------------------------------------------------------
# One step

def flips_for(seed, k, count):
    """The perturbation signs of the step starting at pair `k`: a function of (seed, k) only."""
    rng = random.Random(f"spsa/{seed}/{k}")
    return [1 if rng.random() < 0.5 else -1 for _ in range(count)]


def first_opening(seed, k, count):
    """The opening (0-based) of pair `k` (1-based): consecutive pairs take consecutive
    openings, from a start drawn by the seed."""
    offset = random.Random(f"openings/{seed}").randrange(count)
    return (offset + k - 1) % count


def engine_value(param, x):
    """What the engine is given for the real `x`: rounded half up, within the range."""
    return min(param["max"], max(param["min"], math.floor(x + 0.5)))


def perturbation(state):
    """The step about to be played: k (its first pair), c_k per parameter, the signs, and the
    values of the plus and minus engines."""
    k = state["iter"] + 1
    gamma = state["hyper"]["gamma"]
    flips = flips_for(state["seed"], k, len(state["params"]))
    c_ks, plus, minus = [], {}, {}
    for p, flip in zip(state["params"], flips):
        c_k = p["c"] / k ** gamma
        c_ks.append(c_k)
        plus[p["name"]] = engine_value(p, p["theta"] + c_k * flip)
        minus[p["name"]] = engine_value(p, p["theta"] - c_k * flip)
    return k, c_ks, flips, plus, minus


def step(state, play):
    """Play one step and update `state` in place. `play(plus, minus, opening, pairs)` plays
    `pairs` game pairs from the 0-based `opening` on between engines with the option values
    `plus` and `minus`, and returns (wins, draws, losses) of `plus`. Returns that triple."""
    hyper = state["hyper"]
    pairs = hyper["pairs_per_step"]
    k, c_ks, flips, plus, minus = perturbation(state)
    opening = first_opening(state["seed"], k, hyper["opening_count"] or 1)
    wins, draws, losses = play(plus, minus, opening, pairs)
    if wins + draws + losses != 2 * pairs:
        raise SpsaError(f"expected {2 * pairs} games, got W/D/L {wins}/{draws}/{losses}")
    result = wins - losses
    for p, c_k, flip in zip(state["params"], c_ks, flips):
        a_k = p["a"] / (hyper["A"] + k) ** hyper["alpha"]
        theta = p["theta"] + a_k / c_k * result * flip
        p["theta"] = min(float(p["max"]), max(float(p["min"]), theta))
    state["iter"] += pairs
    state["steps"] += 1
    state["games"] += 2 * pairs
    state["wins"] += wins
    state["draws"] += draws
    state["losses"] += losses
    return wins, draws, losses


def run(state_path, play, steps=None, on_step=None):
    """Play steps until the planned pairs are played (or `steps` more), saving after each."""
    state = load_state(state_path)
    done = 0
    while state["iter"] < state["hyper"]["iterations"] and (steps is None or done < steps):
        wdl = step(state, play)
        save_state(state_path, state)
        done += 1
        if on_step:
            on_step(state, wdl)
    return state


# ---------------------------------------------------------------------------------------------
# Games through match.py

def run_harness(cmd, cwd=None):
    """Run a game harness to its end: (exit status, its output). Stopped mid-step (^C,
    SIGTERM), it is terminated (both harnesses stop their engines on SIGTERM) and the
    interruption goes on up."""
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                cwd=cwd)
    except OSError as e:
        raise SpsaError(f"{cmd[0]}: cannot run: {e.strerror}") from None
    try:
        output, _ = proc.communicate()
    except BaseException:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        raise
    return proc.returncode, output


def match_player(engine, match, nodes, openings, concurrency=1, extra=()):
    """A `play` function that runs the harness once per step (fresh engines, fixed nodes)."""
    # The harness starts engines in private folders: relative paths would not resolve there.
    engine, openings = os.path.abspath(engine), os.path.abspath(openings)

    def play(plus, minus, opening, pairs):
        with tempfile.TemporaryDirectory(prefix="spsa-") as tmp:
            out = os.path.join(tmp, "result.json")
            cmd = [sys.executable, match]
            for name, values in (("plus", plus), ("minus", minus)):
                cmd += ["-e", engine, "-n", name]
                for option, value in values.items():
                    cmd += ["-o", f"{option}={value}"]
            cmd += ["--nodes", str(nodes), "--games", str(2 * pairs), "--openings", openings,
                    "--start", str(opening + 1), "--concurrency", str(concurrency),
                    "--json", out, "--quiet", *extra]
            returncode, output = run_harness(cmd)
            try:
                with open(out, encoding="utf-8") as fh:
                    summary = json.load(fh)
            except (OSError, json.JSONDecodeError):
                raise SpsaError(f"match failed (exit {returncode}):\n{output[-2000:]}") from None
            if summary.get("aborted") or summary.get("interrupted"):
                raise SpsaError(f"match stopped early: {summary.get('aborted') or 'interrupted'}")
            return summary["wins"], summary["draws"], summary["losses"]
    return play


def read_openings(path):
    """The opening lines of an EPD file, as `count_openings` counts them."""
    with open(path, encoding="utf-8") as fh:
        return [line.strip() for line in fh if line.strip() and not line.startswith("#")]


def cutechess_command(cutechess, engine, plus, minus, nodes, opening_file, pairs, concurrency):
    """The cutechess-cli command for one step: `pairs` openings from `opening_file`, each played
    with both colours, at `nodes` a move, adjudicated as match.py adjudicates by default."""
    cmd = [cutechess]
    for name, values in (("plus", plus), ("minus", minus)):
        cmd += ["-engine", f"cmd={engine}", f"name={name}"]
        cmd += [f"option.{option}={value}" for option, value in values.items()]
    cmd += ["-each", "proto=uci", f"nodes={nodes}", "tc=inf",
            "-openings", f"file={opening_file}", "format=epd", "order=sequential",
            "-repeat", "-games", "2", "-rounds", str(pairs), "-concurrency", str(concurrency),
            "-draw", "movenumber=40", "movecount=8", "score=10",
            "-resign", "movecount=5", "score=1000", "twosided=true"]
    return cmd


SCORE_LINE = re.compile(r"^Score of plus vs minus: (\d+) - (\d+) - (\d+)", re.M)
# What cutechess-cli prints when a game ends by an engine's fault rather than by the board.
FAULTS = re.compile(r"(loses on time|illegal move|disconnects|stalls|connection stalls)", re.I)


def parse_cutechess(output, games):
    """(wins, draws, losses) of `plus` from cutechess-cli's output; SpsaError unless all `games`
    finished on the board (a fault would teach the tuner nothing about the parameters)."""
    scores = SCORE_LINE.findall(output)
    if not scores:
        raise SpsaError(f"cutechess-cli printed no score:\n{output[-2000:]}")
    wins, losses, draws = (int(v) for v in scores[-1])
    fault = FAULTS.search(output)
    if fault:
        raise SpsaError(f"a game ended by a fault ({fault.group(1)}):\n{output[-2000:]}")
    if wins + draws + losses != games:
        raise SpsaError(f"{wins + draws + losses} of {games} games finished:\n{output[-2000:]}")
    return wins, draws, losses


def cutechess_player(engine, cutechess, nodes, openings, concurrency=1):
    """A `play` function that runs cutechess-cli once per step: the same games as
    `match_player` (fresh engines, fixed nodes, the step's openings with both colours, the same
    adjudication) for a fraction of the harness's overhead per step."""
    engine = os.path.abspath(engine)
    lines = read_openings(openings)

    def play(plus, minus, opening, pairs):
        with tempfile.TemporaryDirectory(prefix="spsa-") as tmp:
            opening_file = os.path.join(tmp, "openings.epd")
            with open(opening_file, "w", encoding="utf-8") as fh:
                fh.writelines(lines[(opening + i) % len(lines)] + "\n" for i in range(pairs))
            cmd = cutechess_command(cutechess, engine, plus, minus, nodes, opening_file, pairs,
                                    concurrency)
            _, output = run_harness(cmd, cwd=tmp)
            return parse_cutechess(output, 2 * pairs)
    return play


def check_engine(engine, names):
    """Fail early unless `engine` declares every tuned parameter as a UCI option (the default
    build does not: it needs `--features tune-search`)."""
    try:
        proc = subprocess.run([engine], input="uci\nquit\n", stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, timeout=30, check=False)
    except OSError as e:
        raise SpsaError(f"{engine}: cannot run: {e.strerror}") from None
    declared = set(re.findall(r"^option name (\S+) type spin", proc.stdout, re.M))
    missing = [n for n in names if n not in declared]
    if missing:
        raise SpsaError(f"{engine} has no UCI option {missing[0]} (and {len(missing) - 1} more): "
                        "build it with `cargo build --release --features tune-search "
                        "--target-dir target/tune`")


def count_openings(path):
    with open(path, encoding="utf-8") as fh:
        return sum(1 for line in fh if line.strip() and not line.startswith("#"))


# ---------------------------------------------------------------------------------------------
# Report

def report(state):
    hyper = state["hyper"]
    games = state["games"]
    score = (state["wins"] + state["draws"] / 2) / games if games else 0.0
    k = state["iter"] + 1
    lines = [
        f"pairs {state['iter']} of {hyper['iterations']} ({state['steps']} steps), "
        f"games {games}, W/D/L of theta+ {state['wins']}/{state['draws']}/{state['losses']} "
        f"({100 * score:.1f}%), {hyper['nodes']} nodes a move, seed {state['seed']}",
        f"{'parameter':<30} {'start':>7} {'now':>9} {'engine':>7} {'change':>8} "
        f"{'min':>6} {'max':>6} {'c_k':>7}",
    ]
    for p in state["params"]:
        now = p["theta"]
        c_k = p["c"] / k ** hyper["gamma"]
        lines.append(f"{p['name']:<30} {p['start']:>7} {now:>9.2f} {engine_value(p, now):>7} "
                     f"{now - p['start']:>+8.2f} {p['min']:>6} {p['max']:>6} {c_k:>7.2f}")
    moved = [p["name"] for p in state["params"] if engine_value(p, p["theta"]) != p["start"]]
    lines.append(f"{len(moved)} of {len(state['params'])} parameters now round to a new value"
                 + (": " + ", ".join(moved) if moved else ""))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Command line

def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_init = sub.add_parser("init", help="start a run: a new state file at the declared defaults")
    p_run = sub.add_parser("run", help="play steps, saving the state after each (resumes)")
    p_report = sub.add_parser("report", help="parameters start -> now, games and W/D/L")
    p_apply = sub.add_parser("apply", help="write the tuned values into params.rs as defaults")
    for p in (p_init, p_run, p_report, p_apply):
        p.add_argument("--state", default=os.path.join(REPO, "tune", "spsa", "state.json"))
    for p in (p_init, p_apply):
        p.add_argument("--params-file", default=PARAMS_FILE)
    p_init.add_argument("--iterations", type=int, required=True,
                        help="planned game pairs (Fishtest's N); sets a, c and A")
    p_init.add_argument("--params", default="all", help="comma-separated names, or all")
    p_init.add_argument("--seed", type=int, default=1)
    p_init.add_argument("--pairs", type=int, default=1, help="game pairs per step")
    p_init.add_argument("--A", dest="big_a", type=int, help="default: 10%% of --iterations")
    p_init.add_argument("--r-end", type=float, default=R_END)
    p_init.add_argument("--nodes", type=int, default=3000, help="nodes a move")
    p_init.add_argument("--openings", default=DEFAULT_OPENINGS)
    p_init.add_argument("--force", action="store_true", help="overwrite an existing state")
    p_run.add_argument("--engine", default=DEFAULT_ENGINE, help="a tune-search build")
    p_run.add_argument("--match", default=DEFAULT_MATCH, help="match.py-compatible harness")
    p_run.add_argument("--cutechess", help="play the games with this cutechess-cli instead of "
                       "--match (the same games, well under half the wall time a step)")
    p_run.add_argument("--openings", help="override the state's opening file")
    p_run.add_argument("--steps", type=int, help="stop after this many steps")
    p_run.add_argument("--concurrency", type=int, default=1)
    p_apply.add_argument("--dry-run", action="store_true", help="print the values only")
    args = parser.parse_args(argv)
    # SIGTERM stops a run as ^C does: the step under way is dropped, its match stopped.
    signal.signal(signal.SIGTERM, _raise_interrupt)

    try:
        if args.command == "init":
            if os.path.exists(args.state) and not args.force:
                raise SpsaError(f"{args.state} exists (resume it with `run`, or --force)")
            declarations = read_declarations(args.params_file)
            names = list(declarations) if args.params == "all" else [
                n.strip() for n in args.params.split(",") if n.strip()]
            state = new_state(declarations, names, args.iterations, args.seed, args.pairs,
                              args.r_end, args.big_a, args.nodes, args.openings,
                              count_openings(args.openings))
            save_state(args.state, state)
            print(report(state))
        elif args.command == "run":
            state = load_state(args.state)
            openings = args.openings or state["hyper"]["openings"]
            if count_openings(openings) != state["hyper"]["opening_count"]:
                raise SpsaError(f"{openings} does not have the {state['hyper']['opening_count']} "
                                "openings this run started with")
            check_engine(args.engine, [p["name"] for p in state["params"]])
            if args.cutechess:
                play = cutechess_player(args.engine, args.cutechess, state["hyper"]["nodes"],
                                        openings, args.concurrency)
            else:
                play = match_player(args.engine, args.match, state["hyper"]["nodes"], openings,
                                    args.concurrency)

            def progress(state, wdl):
                print(f"step {state['steps']}: pairs {state['iter']}, W/D/L {wdl[0]}/{wdl[1]}/"
                      f"{wdl[2]}, total {state['wins']}/{state['draws']}/{state['losses']}",
                      flush=True)
            state = run(args.state, play, args.steps, progress)
            print(report(state))
        elif args.command == "report":
            print(report(load_state(args.state)))
        elif args.command == "apply":
            state = load_state(args.state)
            values = {p["name"]: engine_value(p, p["theta"]) for p in state["params"]}
            with open(args.params_file, encoding="utf-8") as fh:
                text = fh.read()
            new_text = apply_to_source(text, values)
            for p in state["params"]:
                if values[p["name"]] != p["start"]:
                    print(f"{p['name']}: {p['start']} -> {values[p['name']]}")
            if not args.dry_run:
                with open(args.params_file, "w", encoding="utf-8") as fh:
                    fh.write(new_text)
    except SpsaError as e:
        print(f"spsa.py: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("spsa.py: interrupted; the state holds every finished step", file=sys.stderr)
        return 130
    return 0


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
