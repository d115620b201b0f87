#!/usr/bin/env bash
# Run every fuzz target for SECONDS (default 240) each, at the lowest CPU priority, and print
# the executions and crashes of each. Needs the nightly toolchain and cargo-fuzz (README.md).
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:-240}
targets=${TARGETS:-"uci_line fen epd_line engine_toml uci_loop capi"}
./seed.sh > /dev/null
mkdir -p logs
for t in $targets; do
    nice -n 19 cargo +nightly fuzz run -s none -a -O "$t" "corpus/$t" -- \
        -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
        > "logs/$t.log" 2>&1
    status=$?
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$')
    crashes=$(ls artifacts/"$t" 2>/dev/null | wc -l)
    echo "$t: exit $status, ${execs:-?} inputs executed in ${seconds}s, $crashes crash artifacts"
done
