#!/usr/bin/env bash
# The step cache: Linux 7.3's Rust side (x86_64 defconfig + Rust + samples, rustc 1.95,
# LLVM 22) built cold into a fresh object tree with an empty cache, against the same
# configuration built into another fresh object tree from the warm local cache alone, and
# from a REAPI server alone (BuildGrid on 127.0.0.1, an empty local cache: a second machine).
# All start from copies of one object tree whose C side make prepared (as
# benches/build_cold.sh), so the commands do the same work but for the cache; measured in
# the same run.
# Usage: benches/cache.sh [RUNS]   (default 3)
set -euo pipefail
RUNS=${1:-3}
source "$(dirname "$0")/linux73-setup.sh"

source benches/buildgrid.sh   # starts BuildGrid: $REMOTE

cache_runs "$RUNS" "$C" -S "$S"
