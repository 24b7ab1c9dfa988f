#!/usr/bin/env bash
# Cold build of Linux 7.3's Rust side (x86_64 defconfig + Rust + samples, the shared oracle's
# configuration; rustc 1.95, LLVM 22): `rkbuild build -j2` vs the kernel's own
# `make -j2 prepare samples/rust/ rust/exports.o`, on equal work and measured in the same run.
#
# Both start from copies of one object tree whose C side make prepared (`make prepare0
# tools/objtool`, what `rkbuild build` runs first on a fresh tree); each timed run gets a fresh
# copy (hyperfine --prepare, not timed), and the two commands are interleaved by hyperfine's
# rounds. Both build the same outputs: the host rlibs, proc macros, every crate of rust/, the
# bindgen runs, helpers.o, the arch asm files, exports.o and the samples; make also does its
# own prepare checks, which are part of what using it costs.
# Usage: benches/build_linux73.sh [RUNS]   (default 3; about 1.5 minutes a run pair on 2 cores)
set -euo pipefail
RUNS=${1:-3}
source "$(dirname "$0")/linux73-setup.sh"

hyperfine --runs "$RUNS" --export-json "$WORK/result.json" \
    --prepare "rm -rf $WORK/o && cp -a $C $WORK/o" \
    -n "rkbuild build -j2" "$RK build -S $S -O $WORK/o -j2 -q" \
    -n "make -j2 (same outputs)" "$M O=$WORK/o -j2 prepare samples/rust/ rust/exports.o"

python3 - "$WORK/result.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
rk, mk = r["rkbuild build -j2"], r["make -j2 (same outputs)"]
print(f"rkbuild: median {rk['median']:.1f} s (min {rk['min']:.1f}, max {rk['max']:.1f})")
print(f"make:    median {mk['median']:.1f} s (min {mk['min']:.1f}, max {mk['max']:.1f})")
print(f"make / rkbuild = {mk['median'] / rk['median']:.2f}x (medians, same run, equal work)")
PY
