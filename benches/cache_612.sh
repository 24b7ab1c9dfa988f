#!/usr/bin/env bash
# The step cache on Linux 6.12's Rust side (defconfig + Rust + samples, Debian's rustc 1.85):
# `rkbuild build` cold into a fresh copy of one make-prepared object tree (its Rust outputs
# removed) with an empty cache, against another fresh copy from the warm local cache alone and
# from a REAPI server alone (BuildGrid on 127.0.0.1, an empty local cache: a second machine).
# The make-prepared tree is the one tests/wrapper_kernel612.rs keeps ($RKBUILD_WRAP_612_PLAIN);
# run that test once first. Measured in the same run.
# Usage: benches/cache_612.sh [RUNS]   (default 3)
set -euo pipefail
RUNS=${1:-3}
source "$(dirname "$0")/setup-185.sh"
# The tree was configured with LLVM=1 and Debian's clang 14.
export PATH=/usr/lib/llvm-14/bin:$PATH LLVM=1
S=$RKBUILD_TEST_LINUX_612
PLAIN=$RKBUILD_WRAP_612_PLAIN
[ -f "$PLAIN/.rkbuild-test-stamp" ] || { echo "no make-prepared 6.12 tree at $PLAIN: run cargo test --test wrapper_kernel612 first" >&2; exit 1; }
WORK=${WORK:-/tmp/rkbuild-bench-cache-612}
rm -rf "$WORK" && mkdir -p "$WORK"
# The base: make's C side, without any Rust output.
cp -a "$PLAIN" "$WORK/base"
rm -rf "$WORK/base/rust"
find "$WORK/base/samples/rust" -name '*.o' -delete -o -name '.*.cmd' -delete
source benches/buildgrid.sh   # starts BuildGrid: $REMOTE
B=$WORK/base

cache_runs "$RUNS" "$B" -S "$S"
