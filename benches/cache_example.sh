#!/usr/bin/env bash
# The step cache on the bundled example tree (Debian's rustc 1.85, real core): a cold build
# into a fresh object tree with an empty cache, against another fresh tree from the warm local
# cache alone and from a REAPI server alone (BuildGrid on 127.0.0.1, an empty local cache: a
# second machine); then a matrix of 2 configurations x 2 architectures, cold, and again under
# another root from the server alone, with its hit rates. Measured in the same run.
# Usage: benches/cache_example.sh [RUNS]   (default 5)
set -euo pipefail
RUNS=${1:-5}
source "$(dirname "$0")/setup-185.sh"
S=$PWD/examples/minikernel
CFG=$S/configs/x86_64.config
WORK=${WORK:-/tmp/rkbuild-bench-cache-example}
rm -rf "$WORK" && mkdir -p "$WORK"
source benches/buildgrid.sh   # starts BuildGrid: $REMOTE

cache_runs "$RUNS" "" -S "$S" --config "$CFG"

# 2 configurations x 2 architectures: each arch's example configuration, and the same with
# one driver's symbol changed.
for a in x86_64 arm64; do
    cp "$S/configs/$a.config" "$WORK/$a.config"
    sed 's/# CONFIG_MINI_HELLO_LOUD is not set/CONFIG_MINI_HELLO_LOUD=y/' "$S/configs/$a.config" > "$WORK/$a-loud.config"
done
M=(matrix -S "$S" -j 2)
for c in x86_64 x86_64-loud arm64 arm64-loud; do M+=(--config "$WORK/$c.config"); done
echo "matrix, cold (empty local cache, a fresh server):"
source benches/buildgrid.sh
"$RK" "${M[@]}" --root "$WORK/m1" --cache-dir "$WORK/m1-cache" --remote "$REMOTE"
echo "matrix again, another root, an empty local cache, the server only:"
"$RK" "${M[@]}" --root "$WORK/m2" --cache-dir "$WORK/m2-cache" --remote "$REMOTE"
