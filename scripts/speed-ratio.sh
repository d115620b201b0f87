#!/usr/bin/env bash
# Speed ratio of two revisions: builds both the same way, runs `minkowski bench` alternately
# (RUNS times each, default 3) and prints the median nodes/s of each and their ratio.
#
#   scripts/speed-ratio.sh BASE_REV [NEW_REV]     # NEW_REV defaults to the working tree
#
# Environment: RUNS (default 3), DEPTH (bench depth, default: the bench's own), RUSTFLAGS
# (applied to both builds, e.g. "-C target-cpu=native"), SPEED_DIR (scratch directory).
# A committed revision's binary is kept in SPEED_CACHE (default SPEED_DIR/bin), keyed by commit,
# RUSTFLAGS and CARGO_PROFILE_RELEASE_DEBUG, and reused by later runs (an LTO build takes
# minutes); the working tree is always rebuilt. Delete the cache after changing the toolchain.
# RUNS=0 only builds (e.g. two revisions at once, each with its own SPEED_DIR and one cache).
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

cache="${SPEED_CACHE:-$dir/bin}"
mkdir -p "$cache"

build() { # build REV OUT: REV empty = working tree
    local rev="$1" out="$2" src key=""
    if [[ -n "$rev" ]]; then
        key="$(git -C "$repo" rev-parse --verify "$rev^{commit}")-$(printf '%s|%s' \
            "${RUSTFLAGS:-}" "${CARGO_PROFILE_RELEASE_DEBUG:-}" | cksum | cut -d ' ' -f 1)"
        if [[ -x "$cache/$key" ]]; then
            echo "reusing the build of $rev ($cache/$key)" >&2
            cp "$cache/$key" "$out"
            return
        fi
    fi
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
    if [[ -n "$key" ]]; then cp "$out" "$cache/$key"; fi
}

build "$base_rev" "$dir/base.bin"
build "$new_rev" "$dir/new.bin"
if [[ "$runs" == 0 ]]; then
    exit 0
fi
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
