#!/usr/bin/env bash
# Soak (issue 15): many games through cutechess-cli 1.2.0 (the Cute Chess GUI's engine-handling
# code) against a Debian engine, standard and Chess960, very short and normal time controls,
# ponder on for part of the games. Reports every forfeit of Minkowski (time, illegal move,
# disconnect, stall) and prints cutechess-cli's summary lines. Not part of CI: it takes hours.
#
#   scripts/soak.sh                       the issue's plan: 1,000 games (below)
#   FAST=4 C960=2 PONDER=2 NORMAL=0 scripts/soak.sh      a smoke test of 8 games
#
# Batches (game counts; each is rounded up to an even number, every opening played with both
# colours):
#   FAST    1+0.01, standard, from $BOOK                       default 500
#   C960    1+0.01, Chess960 (-variant fischerandom)           default 200
#   PONDER  1+0.01, standard, ponder on for both engines       default 200
#   NORMAL  10+0.1, standard                                   default 100
# Other settings (environment):
#   ENGINE=target/release/minkowski   OPPONENT=/usr/games/stockfish   SKILL=5 (its Skill Level)
#   CONCURRENCY=2   HASH=16   TIMEMARGIN=0 (ms a side may overstep its clock; 0 = strict)
#   BOOK=../shared/openings/noob_3moves_2000.epd   OUT=soak-<date> (logs and PGNs)
#   NICE=0 (set e.g. 10 to run the games at a lower priority)
#
# Exit status: 0 when Minkowski forfeited no game, 1 otherwise, 2 when it could not start.
set -uo pipefail
cd "$(dirname "$0")/.."

FAST=${FAST:-500}
C960=${C960:-200}
PONDER=${PONDER:-200}
NORMAL=${NORMAL:-100}
ENGINE=${ENGINE:-target/release/minkowski}
OPPONENT=${OPPONENT:-/usr/games/stockfish}
SKILL=${SKILL:-5}
CONCURRENCY=${CONCURRENCY:-2}
HASH=${HASH:-16}
TIMEMARGIN=${TIMEMARGIN:-0}
BOOK=${BOOK:-../shared/openings/noob_3moves_2000.epd}
OUT=${OUT:-soak-$(date -u +%Y%m%d-%H%M%S)}
NICE=${NICE:-0}
CUTECHESS=/opt/cutechess/cutechess-cli
CUTECHESS_ZIP=../shared/tools/cutechess/cutechess-cli-1.2.0-linux-64bit.zip

die() { echo "soak.sh: $*" >&2; exit 2; }

# cutechess-cli: install it outside the repository if missing (see its README).
if [ ! -x "$CUTECHESS" ]; then
    [ -f "$CUTECHESS_ZIP" ] || die "no $CUTECHESS and no $CUTECHESS_ZIP to install it from"
    command -v unzip >/dev/null || apt-get install -y -qq unzip >/dev/null || die "unzip missing"
    mkdir -p /opt/cutechess && unzip -o -q "$CUTECHESS_ZIP" -d /opt/cutechess || die "unzip failed"
fi
"$CUTECHESS" --version | head -n 1 | grep -q "1.2.0" || die "$CUTECHESS is not cutechess-cli 1.2.0"
if [ ! -x "$OPPONENT" ]; then
    [ -x ../shared/tools/setup.sh ] && sh ../shared/tools/setup.sh >/dev/null
    [ -x "$OPPONENT" ] || die "no opponent at $OPPONENT (../shared/tools/setup.sh installs it)"
fi
if [ ! -x "$ENGINE" ]; then
    cargo build --release || die "build failed"
fi
[ -f "$BOOK" ] || die "no opening book $BOOK"
ENGINE=$(realpath "$ENGINE")
BOOK=$(realpath "$BOOK")
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
echo "soak: $("$ENGINE" --version 2>/dev/null || echo minkowski) vs $OPPONENT (Skill Level $SKILL)," \
    "concurrency $CONCURRENCY, timemargin $TIMEMARGIN ms, logs in $OUT"

# One batch: NAME GAMES TC EACH [extra cutechess arguments...]; EACH: more `-each` settings.
failed=0
expected=0
batch() {
    local name=$1 games=$2 tc=$3 each=$4
    shift 4
    [ "$games" -gt 0 ] || return 0
    local rounds=$(((games + 1) / 2))
    echo
    echo "== $name: $((rounds * 2)) games at $tc ${each:+($each) }$*"
    # The engine runs in the output folder, so that no engine.toml of the repository applies.
    nice -n "$NICE" "$CUTECHESS" \
        -engine name=minkowski cmd="$ENGINE" dir="$OUT" proto=uci \
            option.Hash="$HASH" \
        -engine name=opponent cmd="$OPPONENT" proto=uci \
            option.Hash="$HASH" option.Threads=1 "option.Skill Level=$SKILL" \
        -each tc="$tc" timemargin="$TIMEMARGIN" $each \
        -games 2 -rounds "$rounds" -repeat -concurrency "$CONCURRENCY" -recover \
        -pgnout "$OUT/$name.pgn" "$@" \
        > "$OUT/$name.log" 2>&1
    local status=$?
    expected=$((expected + rounds * 2))
    if [ "$status" -ne 0 ]; then
        echo "cutechess-cli failed (exit status $status):"
        head -n 5 "$OUT/$name.log"
        failed=1
    fi
    # The summary lines: the score, the Elo estimate and the draw/loss reasons.
    grep -E "^(Score of|Elo difference|SPRT|Finished match)" "$OUT/$name.log" | tail -n 3
    report "$OUT/$name.log"
}

# Forfeits of Minkowski in a cutechess-cli log, by kind. Result comments name the side that
# lost ("White loses on time"), so each finished game is matched with who had which colour.
report() {
    python3 - "$1" <<'PY'
import re, sys
from collections import Counter
KINDS = [("loses on time", "time"), ("illegal move", "illegal move"),
         ("disconnects", "disconnect"), ("connection stalls", "stall"),
         ("invalid result claim", "false claim")]
total, mine, kinds = 0, 0, Counter()
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"Finished game \d+ \((\S+) vs (\S+)\): (\S+) \{(.*)\}", line)
    if not m:
        continue
    white, black, result, comment = m.groups()
    total += 1
    if result == "*":
        kinds["unfinished"] += 1
    for text, kind in KINDS:
        if text in comment:
            loser = white if comment.startswith("White") else black
            kinds[f"{loser} {kind}"] += 1
            if loser == "minkowski":
                mine += 1
                print("  forfeit:", line.strip())
others = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
print(f"  games finished: {total}; forfeits by minkowski: {mine}" + (f" (all: {others})" if others else ""))
PY
}

batch fast "$FAST" 1+0.01 "" -openings file="$BOOK" format=epd order=random
batch chess960 "$C960" 1+0.01 "" -variant fischerandom
batch ponder "$PONDER" 1+0.01 ponder -openings file="$BOOK" format=epd order=random
batch normal "$NORMAL" 10+0.1 "" -openings file="$BOOK" format=epd order=random

echo
echo "== total"
cat "$OUT"/*.log > "$OUT/all.log.txt"
report "$OUT/all.log.txt" | tee "$OUT/summary.txt"
echo "  games planned: $expected"
if [ "$failed" -eq 0 ] && grep -q "games finished: $expected; forfeits by minkowski: 0" "$OUT/summary.txt"; then
    exit 0
fi
exit 1
