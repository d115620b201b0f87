#!/usr/bin/env bash
# The layer rule of src/lib.rs, checked: every library module may use only modules of a lower
# layer (and itself). It reads every `crate::<module>` path and every `super::` chain that climbs to
# the crate root, in code (comment lines are skipped), and fails on an upward or sideways import.
# It also checks that the library prints nothing (no print!/println!/eprint!/eprintln!/dbg!).
#
# Layers, lowest first (src/lib.rs states the same):
#   0  value, geometry, perft     no crate-internal imports
#   1  eval                       the evaluation
#   2  search, tune               the search; fitting the evaluation's weights (Texel)
#   3  openings, options          test openings; the engine's option model (engine feature)
#   4  config, epd, datagen       engine.toml; EPD suites and the runner; self-play data (engine)
#   5  uci                        the protocol (engine feature)
#   -  the binary (src/main.rs, src/cli/) uses the library's public API only: not checked here.
# Run from anywhere: `bash .ci/check-layers.sh`. Exit status 1 lists every violation.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A LAYER=(
    [value]=0 [geometry]=0 [perft]=0
    [eval]=1
    [search]=2 [tune]=2
    [openings]=3 [options]=3
    [config]=4 [epd]=4 [datagen]=4
    [uci]=5
)

failures=0
fail() {
    echo "layer violation: $*" >&2
    failures=$((failures + 1))
}

# Code lines of a file with their numbers, comment lines dropped (doc comments included: their
# examples use `minkowski::`, never `crate::`).
code_lines() {
    grep -nvE '^[[:space:]]*//' "$1" || true
}

for file in $(find src -name '*.rs' | sort); do
    case "$file" in
        src/main.rs | src/cli/* | src/lib.rs) continue ;;
    esac
    rel="${file#src/}"
    rel="${rel%.rs}"
    rel="${rel%/mod}"
    top="${rel%%/*}"
    if [[ -z "${LAYER[$top]+set}" ]]; then
        fail "$file: module '$top' has no layer in .ci/check-layers.sh (add it, and to src/lib.rs)"
        continue
    fi
    own=${LAYER[$top]}
    # How many `super::` reach the crate root from this module: its depth below the root.
    depth=$(($(tr -cd '/' <<<"$rel" | wc -c) + 1))
    while IFS= read -r hit; do
        line="${hit%%:*}"
        text="${hit#*:}"
        if grep -qE 'crate::\{' <<<"$text"; then
            fail "$file:$line: grouped 'crate::{...}' import; write one 'crate::<module>' path per module"
        fi
        used=$(grep -oE '\bcrate::[a-z_][a-z0-9_]*' <<<"$text" | sed 's/^crate:://' || true)
        root_super=$(printf 'super::%.0s' $(seq "$depth"))
        used+=" $(grep -oE "(^|[^:])${root_super}[a-z_][a-z0-9_]*" <<<"$text" | sed 's/.*:://' || true)"
        for dep in $used; do
            [[ "$dep" == "$top" ]] && continue
            if [[ -z "${LAYER[$dep]+set}" ]]; then
                fail "$file:$line: uses 'crate::$dep', which has no layer"
            elif ((LAYER[$dep] >= own)); then
                fail "$file:$line: '$top' (layer $own) uses '$dep' (layer ${LAYER[$dep]})"
            fi
        done
    done < <(code_lines "$file" | grep -E 'crate::|super::' || true)
    if code_lines "$file" | grep -qE '\b(e?print(ln)?|dbg)!'; then
        fail "$file: the library prints nothing (print!/println!/eprint!/eprintln!/dbg! found)"
    fi
done

if ((failures > 0)); then
    echo "$failures layer violation(s)" >&2
    exit 1
fi
echo "layers: ok (${#LAYER[@]} modules, no upward import, no printing)"
