#!/usr/bin/env bash
# Cold build of a real kernel's Rust side (x86_64 defconfig + Rust + samples, the shared
# oracle's configuration): `rkbuild build -j2` (pipelined), `rkbuild build -j2 --no-pipeline`
# (each crate waits for the end of what it uses, as make orders them) and the kernel's own
# `make -j2 prepare samples/rust/ rust/exports.o`, on equal work and measured in the same run.
#
#   612: Linux 6.12 with Debian's rustc 1.85, LLVM 14, bindgen 0.71.1
#   73:  Linux 7.3 with rustc 1.95, LLVM 22, bindgen 0.73.2
#
# All three start from copies of one object tree whose C side make prepared (`make prepare0
# tools/objtool`, what `rkbuild build` runs first on a fresh tree); each timed run gets a fresh
# copy (hyperfine --prepare, not timed), and the commands are interleaved by hyperfine's
# rounds. All build the same outputs: the proc macros (and 7.3's host rlibs), every crate of
# rust/, the bindgen runs, helpers.o, exports.o and the samples; make also does its own
# prepare checks, which are part of what using it costs.
# Usage: benches/build_cold.sh 612|73 [RUNS]   (default 3; about 2 minutes a round on 2 cores)
set -euo pipefail
VINTAGE=${1:?usage: benches/build_cold.sh 612|73 [RUNS]}
RUNS=${2:-3}
case "$VINTAGE" in
73)
    source "$(dirname "$0")/linux73-setup.sh"
    HOST=()
    ;;
612)
    source "$(dirname "$0")/setup-185.sh"
    S=$RKBUILD_TEST_LINUX_612
    WORK=${WORK:-/tmp/rkbuild-bench-612}
    mkdir -p "$WORK"
    M="make -s -C $S LLVM=-14 RUSTC=$RUSTC RUSTDOC=/usr/bin/rustdoc BINDGEN=$BINDGEN RUST_LIB_SRC=$RUST_LIB_SRC"
    # LLVM=-14 for both: the C side (helpers.o) and the proc macros with clang-14.
    export LLVM=-14
    HOST=(--hostcc clang-14)
    source benches/c-side.sh
    c_side 6.12
    ;;
*) echo "usage: benches/build_cold.sh 612|73 [RUNS]" >&2; exit 2 ;;
esac

hyperfine --runs "$RUNS" --export-json "$WORK/cold.json" \
    --prepare "rm -rf $WORK/o && cp -a $C $WORK/o" \
    -n "rkbuild build -j2" "$RK build -S $S -O $WORK/o ${HOST[*]} -j2 -q" \
    -n "rkbuild build -j2 --no-pipeline" "$RK build -S $S -O $WORK/o ${HOST[*]} -j2 -q --no-pipeline" \
    -n "make -j2 (same outputs)" "$M O=$WORK/o -j2 prepare samples/rust/ rust/exports.o"

python3 - "$WORK/cold.json" "$VINTAGE" "$WORK/medians" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
rk, wait, mk = (r[n] for n in ["rkbuild build -j2", "rkbuild build -j2 --no-pipeline",
                               "make -j2 (same outputs)"])
for name, x in [("rkbuild", rk), ("rkbuild --no-pipeline", wait), ("make", mk)]:
    print(f"{sys.argv[2]}: {name}: median {x['median']:.1f} s (min {x['min']:.1f}, max {x['max']:.1f})")
print(f"{sys.argv[2]}: make / rkbuild = {mk['median'] / rk['median']:.2f}x; "
      f"--no-pipeline / pipelined = {wait['median'] / rk['median']:.2f}x (medians, same run)")
print(f"{rk['median']:.3f} {mk['median']:.3f}", file=open(sys.argv[3], "w"))
PY
read -r RKM MKM < "$WORK/medians"
source benches/rows.sh
bench_row "cold build $VINTAGE, -j2 (vs make -j2, same outputs)" "$RKM" "$MKM" s
