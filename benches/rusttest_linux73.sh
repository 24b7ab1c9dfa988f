#!/usr/bin/env bash
# Linux 7.3's host tests (x86_64 oracle configuration; rustc 1.95, LLVM 22): `rkbuild test -j2`
# vs the kernel's `make -j2 rusttest`, measured in the same run (hyperfine, interleaved rounds).
#
# cold:  both start from a copy of one object tree whose C side make prepared (the rust/ steps
#        the test libraries need are built by both, then every test library, the test binary,
#        its run and the doctests);
# again: both run a second time on a tree where they already ran once (nothing changed):
#        make rebuilds every test library (its rules have no depfile), rkbuild rebuilds nothing
#        and runs the tests.
# Usage: benches/rusttest_linux73.sh [RUNS]   (default 3)
set -euo pipefail
RUNS=${1:-3}
source "$(dirname "$0")/linux73-setup.sh"
RKT="$RK test -S $S -j2 -q"
MKT="$M -j2 rusttest"

hyperfine --runs "$RUNS" --export-json "$WORK/rusttest-cold.json" \
    --prepare "rm -rf $WORK/o && cp -a $C $WORK/o" \
    -n "rkbuild test" "$RKT -O $WORK/o" \
    -n "make rusttest" "$MKT O=$WORK/o"

for who in rk mk; do
    rm -rf "$WORK/$who-done" && cp -a "$C" "$WORK/$who-done"
done
$RKT -O "$WORK/rk-done" >/dev/null
$MKT O="$WORK/mk-done" >/dev/null
hyperfine --runs "$RUNS" --export-json "$WORK/rusttest-again.json" \
    -n "rkbuild test" "$RKT -O $WORK/rk-done" \
    -n "make rusttest" "$MKT O=$WORK/mk-done"

python3 - "$WORK/rusttest-cold.json" "$WORK/rusttest-again.json" <<'PY'
import json, sys
for name, path in zip(["cold", "again"], sys.argv[1:]):
    r = {x["command"]: x for x in json.load(open(path))["results"]}
    rk, mk = r["rkbuild test"], r["make rusttest"]
    print(f"{name}: rkbuild median {rk['median']:.1f} s, make median {mk['median']:.1f} s, "
          f"make / rkbuild = {mk['median'] / rk['median']:.2f}x")
PY
