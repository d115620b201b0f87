#!/usr/bin/env bash
# The layer rule of core/src/lib.rs and src/lib.rs, checked for both crates: every library module
# may use only modules of a lower layer (and itself). It reads every `crate::<module>` path and
# every `super::` chain that climbs to the crate root, in code (comment lines are skipped), and
# fails on an upward or sideways import. It also checks that neither library prints anything (no
# print!/println!/eprint!/eprintln!/dbg!).
#
# The core crate (core/, minkowski-chess-core), lowest first:
#   0  value, geometry            no crate-internal imports
#   1  eval                       the evaluation
#   2  weights_file               engine.toml's [eval] table
#   -  lib.rs                     the public facade (re-exports and `knowledge`)
# The engine crate (src/, minkowski-chess), lowest first:
#   0  eval, geometry, value      the core crate's modules, re-exported by src/lib.rs
#      perft                      no crate-internal imports
#   1  search, tune, wdl          the search; fitting the evaluation's weights (Texel); the
#                                 win/draw/loss chances of a score
#   2  openings, options          test openings; the engine's option model (engine feature)
#   3  config, epd, datagen       engine.toml; EPD suites and the runner; self-play data (engine)
#   4  uci                        the protocol (engine feature)
#   -  the binary (src/main.rs, src/cli/) uses the library's public API only: not checked here.
# The engine reaches the core crate only through its public modules: `minkowski_core::<name>`
# must name a `pub mod` or `pub use` of core/src/lib.rs, and the core crate never names the
# engine (`minkowski::`) in code.
# Run from anywhere: `bash .ci/check-layers.sh`. Exit status 1 lists every violation.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A CORE_LAYER=(
    [value]=0 [geometry]=0
    [eval]=1
    [weights_file]=2
)
declare -A ENGINE_LAYER=(
    [eval]=0 [geometry]=0 [value]=0 [perft]=0
    [search]=1 [tune]=1 [wdl]=1
    [openings]=2 [options]=2
    [config]=3 [epd]=3 [datagen]=3
    [uci]=4
)
# The core crate's public names (its facade): `pub mod x`, `pub use ...::x` / `{x, y}` at the root.
CORE_PUBLIC=" $(grep -E '^pub (mod|use)' core/src/lib.rs | sed -E 's/^pub mod ([a-z_]+).*/\1/; s/^pub use [^{]*\{(.*)\};/\1/; s/^pub use .*::([A-Za-z_]+);/\1/; s/^pub use ([a-z_]+);/\1/' | tr ',\n' '  ' | tr -s ' ') "
CORE_PUBLIC+=" knowledge "
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

# check_crate DIR ARRAY SKIP...: the layer rule for one crate; ARRAY names its layer table.
check_crate() {
    local dir=$1
    local -n LAYER=$2
    shift 2
    local file rel top own depth hit line text used root_super dep skip
    for file in $(find "$dir" -name '*.rs' | sort); do
        skip=
        for s in "$@"; do [[ "$file" == $s ]] && skip=1; done
        [[ -n "$skip" ]] && continue
        rel="${file#"$dir"/}"
        rel="${rel%.rs}"
        rel="${rel%/mod}"
        top="${rel%%/*}"
        if [[ -z "${LAYER[$top]+set}" ]]; then
            fail "$file: module '$top' has no layer in .ci/check-layers.sh (add it, and to $dir/lib.rs)"
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
}

check_crate core/src CORE_LAYER core/src/lib.rs
check_crate src ENGINE_LAYER src/main.rs 'src/cli/*' src/lib.rs

# The engine names the core crate only through its facade; the core never names the engine.
while IFS= read -r hit; do
    for name in $(grep -oE 'minkowski_core::(\{[^}]*\}|[A-Za-z_]+)' <<<"${hit#*:*:}" | sed -E 's/minkowski_core:://; s/[{},]/ /g'); do
        [[ "$CORE_PUBLIC" == *" $name "* ]] || fail "${hit%%:*}: 'minkowski_core::$name' is not in core/src/lib.rs's public API"
    done
done < <(grep -rnE 'minkowski_core::' src --include='*.rs' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
if grep -rnE '\bminkowski::' core/src --include='*.rs' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//'; then
    fail "core/src: the core crate names the engine crate (minkowski::) in code"
fi

if ((failures > 0)); then
    echo "$failures layer violation(s)" >&2
    exit 1
fi
echo "layers: ok (core ${#CORE_LAYER[@]} modules, engine ${#ENGINE_LAYER[@]} modules, no upward import, no printing)"
