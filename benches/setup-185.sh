# Sourced by the benchmarks that build with Debian's rustc 1.85: rkbuild (release, built with
# the default toolchain before RUSTC names the kernel's rustc) as $RK, and the toolchain
# install-deps.sh installed (rustc 1.85 and its library source, bindgen, libclang 14).
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source /var/cache/rkbuild-ci/env.sh
cargo build --release --quiet
RK=$PWD/target/release/rkbuild
export RUSTC=$RKBUILD_TEST_RUSTC_185 RUST_LIB_SRC=$RKBUILD_TEST_LIB_185
export BINDGEN=$RKBUILD_TEST_BINDGEN LIBCLANG_PATH=$RKBUILD_TEST_LIBCLANG_PATH
