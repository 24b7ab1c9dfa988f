# Sourced by the Linux 7.3 benchmarks: rkbuild (release), the 7.3 toolchain (rustc 1.95,
# LLVM 22), the kernel's make as $M, and $C, an object tree of the oracle's x86_64
# configuration whose C side make prepared (`make prepare0 tools/objtool`), made once in $WORK.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source /var/cache/rkbuild-ci/env.sh
cargo build --release --quiet
RK=$PWD/target/release/rkbuild
R=$(dirname "$RKBUILD_TEST_RUSTC_195")
export RUSTC=$R/rustc RUST_LIB_SRC=$RKBUILD_TEST_LIB_195 BINDGEN=$RKBUILD_TEST_BINDGEN_22
export LIBCLANG_PATH=$RKBUILD_TEST_LIBCLANG_22_PATH LLVM=-22
S=$RKBUILD_TEST_LINUX_73
WORK=${WORK:-/tmp/rkbuild-bench-73}
mkdir -p "$WORK"
M="make -s -C $S LLVM=-22 RUSTC=$RUSTC RUSTDOC=$R/rustdoc BINDGEN=$BINDGEN RUST_LIB_SRC=$RUST_LIB_SRC"
source benches/c-side.sh
c_side 7.3

# cold_and_again WHAT RK_CMD MAKE_CMD: hyperfine of `rkbuild WHAT` against `make …`, cold (a copy
# of the prepared C side each round) and again (a second run on a tree where each already ran
# once), then one line each with both medians and the ratio.
cold_and_again() {
    local what=$1 rkc=$2 mkc=$3 rkn="rkbuild $1" mkn="make ${3##* }"
    hyperfine --runs "$RUNS" --export-json "$WORK/$what-cold.json" \
        --prepare "rm -rf $WORK/o && cp -a $C $WORK/o" \
        -n "$rkn" "$rkc -O $WORK/o" \
        -n "$mkn" "$mkc O=$WORK/o"
    for who in rk mk; do
        rm -rf "$WORK/$who-$what" && cp -a "$C" "$WORK/$who-$what"
    done
    $rkc -O "$WORK/rk-$what" >/dev/null
    $mkc O="$WORK/mk-$what" >/dev/null
    hyperfine --runs "$RUNS" --export-json "$WORK/$what-again.json" \
        -n "$rkn" "$rkc -O $WORK/rk-$what" \
        -n "$mkn" "$mkc O=$WORK/mk-$what"
    python3 - "$rkn" "$mkn" "$WORK/$what-cold.json" "$WORK/$what-again.json" <<'PY'
import json, sys
rkn, mkn = sys.argv[1:3]
for name, path in zip(["cold", "again"], sys.argv[3:]):
    r = {x["command"]: x for x in json.load(open(path))["results"]}
    rk, mk = r[rkn], r[mkn]
    print(f"{name}: rkbuild median {rk['median']:.2f} s, make median {mk['median']:.2f} s, "
          f"make / rkbuild = {mk['median'] / rk['median']:.2f}x")
PY
}
