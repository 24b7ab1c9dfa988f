#!/usr/bin/env bash
# The step cache: Linux 7.3's Rust side (x86_64 defconfig + Rust + samples, rustc 1.95,
# LLVM 22) built cold into a fresh object tree with an empty cache, against the same
# configuration built into another fresh object tree from the warm cache alone. Both start
# from copies of one object tree whose C side make prepared (as benches/build_linux73.sh), so
# the two commands do the same work but for the cache; measured in the same run.
# Usage: benches/cache.sh [RUNS]   (default 3)
set -euo pipefail
RUNS=${1:-3}
source "$(dirname "$0")/linux73-setup.sh"

# The warm cache, filled once.
rm -rf "$WORK/warm" "$WORK/fill" && cp -a "$C" "$WORK/fill"
$RK build -S "$S" -O "$WORK/fill" -j2 -q --cache-dir "$WORK/warm"

hyperfine --runs "$RUNS" --export-json "$WORK/cache.json" \
    -n "cold (empty cache)" \
    --prepare "rm -rf $WORK/a $WORK/empty && cp -a $C $WORK/a" \
    "$RK build -S $S -O $WORK/a -j2 -q --cache-dir $WORK/empty" \
    -n "another tree, warm cache" \
    --prepare "rm -rf $WORK/b && cp -a $C $WORK/b" \
    "$RK build -S $S -O $WORK/b -j2 -q --cache-dir $WORK/warm"

python3 - "$WORK/cache.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
cold, warm = r["cold (empty cache)"], r["another tree, warm cache"]
print(f"cold:   median {cold['median']:.1f} s")
print(f"cached: median {warm['median']:.2f} s")
print(f"cached / cold = {warm['median'] / cold['median'] * 100:.1f}% of the cold wall (same run)")
PY
