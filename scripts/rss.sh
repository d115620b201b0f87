#!/usr/bin/env bash
# Peak resident memory of the engine during a search, for several Hash sizes (issue 15).
#
#   scripts/rss.sh [ENGINE] [SECONDS] [HASH...]     defaults: target/release/minkowski 10 16 64 256
#
# For each Hash: start the engine, `setoption name Hash`, `go infinite` on the start position
# for SECONDS, sampling /proc/<pid>/status, then `stop`. Prints a Markdown table of VmRSS
# before the search, VmRSS at the end and VmHWM (the peak) in MB. Linux only.
set -euo pipefail
cd "$(dirname "$0")/.."
engine=${1:-target/release/minkowski}
seconds=${2:-10}
shift 2 2>/dev/null || shift $#
hashes=("$@")
[ ${#hashes[@]} -gt 0 ] || hashes=(16 64 256)
[ -x "$engine" ] || { echo "no engine at $engine (cargo build --release)" >&2; exit 1; }

mb() { awk -v f="$1:" '$1 == f { printf "%d", $2 / 1024 }' "/proc/$2/status"; }

echo "| Hash (MB) | RSS idle (MB) | RSS after ${seconds} s search (MB) | peak RSS VmHWM (MB) | peak - Hash (MB) |"
echo "|---:|---:|---:|---:|---:|"
for hash in "${hashes[@]}"; do
    coproc ENGINE { exec "$engine"; }
    pid=$ENGINE_PID
    out=${ENGINE[0]}
    in=${ENGINE[1]}
    printf 'uci\nsetoption name Hash value %s\nisready\n' "$hash" >&"$in"
    while read -r -t 60 line <&"$out"; do [ "$line" = readyok ] && break; done
    idle=$(mb VmRSS "$pid")
    printf 'position startpos\ngo infinite\n' >&"$in"
    # Drain the engine's output in the background so it never blocks on a full pipe.
    # (A duplicate of the coprocess's descriptor: bash does not pass the original to children.)
    exec {dup}<&"$out"
    cat <&"$dup" > /dev/null &
    drain=$!
    sleep "$seconds"
    end=$(mb VmRSS "$pid")
    peak=$(mb VmHWM "$pid")
    printf 'stop\nquit\n' >&"$in"
    wait "$pid" 2>/dev/null || true
    wait "$drain" 2>/dev/null || true
    exec {dup}<&-
    echo "| $hash | $idle | $end | $peak | $((peak - hash)) |"
done
