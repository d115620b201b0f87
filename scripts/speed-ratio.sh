#!/usr/bin/env bash
# Speed ratio of two revisions: builds both the same way, runs `minkowski bench` alternately
# (RUNS times each, default 3) and prints the median nodes/s of each and their ratio.
#
#   scripts/speed-ratio.sh BASE_REV [NEW_REV]     # NEW_REV defaults to the working tree
#
# Environment: RUNS (default 3), DEPTH (bench depth, default: the bench's own), RUSTFLAGS
# (applied to both builds, e.g. "-C target-cpu=native"), SPEED_DIR (scratch directory).
# Wall-clock nodes/s is what `bench` prints; on a shared machine the user-CPU nodes/s is printed
# too (less sensitive to other load). Both builds use `cargo build --release`.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
base_rev="${1:?usage: $0 BASE_REV [NEW_REV]}"
new_rev="${2:-}"
runs="${RUNS:-3}"
dir="${SPEED_DIR:-${TMPDIR:-/tmp}/minkowski-speed}"
mkdir -p "$dir"
depth_arg=()
if [[ -n "${DEPTH:-}" ]]; then depth_arg=(--depth "$DEPTH"); fi

build() { # build REV OUT: REV empty = working tree
    local rev="$1" out="$2" src
    if [[ -z "$rev" ]]; then
        src="$repo"
    else
        src="$dir/src-$(git -C "$repo" rev-parse --short "$rev")"
        rm -rf "$src"
        mkdir -p "$src"
        git -C "$repo" archive "$rev" | tar -x -C "$src"
        # git archive stamps files with the commit time and both trees share one target
        # directory (and one crate hash): fresh mtimes make cargo rebuild the second tree.
        find "$src" -type f -exec touch {} +
    fi
    echo "building ${rev:-working tree} ..." >&2
    cargo build --release --quiet --manifest-path "$src/Cargo.toml" --target-dir "$dir/target" --bin minkowski
    cp "$dir/target/release/minkowski" "$out"
}

build "$base_rev" "$dir/base.bin"
build "$new_rev" "$dir/new.bin"
if cmp -s "$dir/base.bin" "$dir/new.bin"; then
    echo "warning: the two builds are byte-identical" >&2
fi

run() { # run BIN -> "wall_nps cpu_nps nodes"
    local bin="$1" out t0 t1 nodes nps cpu
    out="$( { TIMEFORMAT='%U'; time "$bin" bench "${depth_arg[@]}" 2>/dev/null | tail -n 1; } 2>&1 )"
    nodes="$(echo "$out" | awk '/nodes/ {print $1}')"
    nps="$(echo "$out" | awk '/nodes/ {print $3}')"
    cpu="$(echo "$out" | tail -n 1)"
    echo "$nps $(awk -v n="$nodes" -v c="$cpu" 'BEGIN {printf "%d", n / (c > 0 ? c : 0.001)}') $nodes"
}

declare -a base_wall new_wall base_cpu new_cpu
for i in $(seq 1 "$runs"); do
    read -r w c n_base < <(run "$dir/base.bin"); base_wall+=("$w"); base_cpu+=("$c")
    echo "run $i base: $n_base nodes, $w nps (cpu $c)"
    read -r w c n_new < <(run "$dir/new.bin"); new_wall+=("$w"); new_cpu+=("$c")
    echo "run $i new:  $n_new nodes, $w nps (cpu $c)"
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
bw="$(median "${base_wall[@]}")"; nw="$(median "${new_wall[@]}")"
bc="$(median "${base_cpu[@]}")"; nc="$(median "${new_cpu[@]}")"
echo "median nps (wall): base $bw new $nw ratio $(awk -v a="$nw" -v b="$bw" 'BEGIN {printf "%.2f", a / b}')"
echo "median nps (cpu):  base $bc new $nc ratio $(awk -v a="$nc" -v b="$bc" 'BEGIN {printf "%.2f", a / b}')"
