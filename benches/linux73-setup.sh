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
C=$WORK/c-side
if [ ! -x "$C/tools/objtool/objtool" ]; then
    rm -rf "$C"; mkdir -p "$C"
    cp ../shared/oracle/linux-7.3/x86_64-defconfig-rust/config "$C/.config"
    $M O="$C" olddefconfig
    $M O="$C" -j2 prepare0 tools/objtool
fi
