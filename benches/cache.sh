#!/usr/bin/env bash
# The step cache: Linux 7.3's Rust side (x86_64 defconfig + Rust + samples, rustc 1.95,
# LLVM 22) built cold into a fresh object tree with an empty cache, against the same
# configuration built into another fresh object tree from the warm local cache alone, and
# from a REAPI server alone (BuildGrid on 127.0.0.1, an empty local cache: a second machine).
# All start from copies of one object tree whose C side make prepared (as
# benches/build_linux73.sh), so the commands do the same work but for the cache; measured in
# the same run.
# Usage: benches/cache.sh [RUNS]   (default 3)
set -euo pipefail
RUNS=${1:-3}
source "$(dirname "$0")/linux73-setup.sh"

source benches/buildgrid.sh   # starts BuildGrid: $REMOTE

# The warm caches, filled once: the local one and the server.
rm -rf "$WORK/warm" "$WORK/fill" && cp -a "$C" "$WORK/fill"
$RK build -S "$S" -O "$WORK/fill" -j2 -q --cache-dir "$WORK/warm" --remote "$REMOTE"

hyperfine --runs "$RUNS" --export-json "$WORK/cache.json" \
    -n "cold (empty cache)" \
    --prepare "rm -rf $WORK/a $WORK/empty && cp -a $C $WORK/a" \
    "$RK build -S $S -O $WORK/a -j2 -q --cache-dir $WORK/empty" \
    -n "another tree, warm cache" \
    --prepare "rm -rf $WORK/b && cp -a $C $WORK/b" \
    "$RK build -S $S -O $WORK/b -j2 -q --cache-dir $WORK/warm" \
    -n "another machine, REAPI only" \
    --prepare "rm -rf $WORK/r $WORK/r-local && cp -a $C $WORK/r" \
    "$RK build -S $S -O $WORK/r -j2 -q --cache-dir $WORK/r-local --remote $REMOTE"

python3 - "$WORK/cache.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
cold = r["cold (empty cache)"]["median"]
print(f"cold:                   median {cold:.1f} s")
for name in ["another tree, warm cache", "another machine, REAPI only"]:
    m = r[name]["median"]
    print(f"{name + ':':<23} median {m:.2f} s = {m / cold * 100:.1f}% of the cold wall (same run)")
PY
