#!/usr/bin/env bash
# Linux 7.3's documentation (x86_64 oracle configuration; rustc 1.95, LLVM 22): `rkbuild doc
# -j2` vs the kernel's `make -j2 rustdoc`, measured in the same run (hyperfine, interleaved).
#
# cold:  both start from a copy of one object tree whose C side make prepared (both build the
#        rust/ steps rustdoc reads, then document the 12 crates and retouch the pages);
# again: a second run on a tree where each already ran once, nothing changed: make cleans the
#        folder and documents everything again; rkbuild documents nothing.
# Usage: benches/rustdoc_linux73.sh [RUNS]   (default 3)
set -euo pipefail
RUNS=${1:-3}
source "$(dirname "$0")/linux73-setup.sh"
RKD="$RK doc -S $S -j2 -q"
MKD="$M -j2 rustdoc"

hyperfine --runs "$RUNS" --export-json "$WORK/rustdoc-cold.json" \
    --prepare "rm -rf $WORK/o && cp -a $C $WORK/o" \
    -n "rkbuild doc" "$RKD -O $WORK/o" \
    -n "make rustdoc" "$MKD O=$WORK/o"

for who in rk mk; do
    rm -rf "$WORK/$who-doc" && cp -a "$C" "$WORK/$who-doc"
done
$RKD -O "$WORK/rk-doc" >/dev/null
$MKD O="$WORK/mk-doc" >/dev/null
hyperfine --runs "$RUNS" --export-json "$WORK/rustdoc-again.json" \
    -n "rkbuild doc" "$RKD -O $WORK/rk-doc" \
    -n "make rustdoc" "$MKD O=$WORK/mk-doc"

python3 - "$WORK/rustdoc-cold.json" "$WORK/rustdoc-again.json" <<'PY'
import json, sys
for name, path in zip(["cold", "again"], sys.argv[1:]):
    r = {x["command"]: x for x in json.load(open(path))["results"]}
    rk, mk = r["rkbuild doc"], r["make rustdoc"]
    print(f"{name}: rkbuild median {rk['median']:.2f} s, make median {mk['median']:.2f} s, "
          f"make / rkbuild = {mk['median'] / rk['median']:.2f}x")
PY
