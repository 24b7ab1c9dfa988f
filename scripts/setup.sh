#!/usr/bin/env bash
# Installs what rkbuild's main job needs on a Debian 12 machine, and nothing else: Debian's
# rustc 1.85 with its library source, clang/lld/libclang 14 and bindgen-cli 0.71.1 (crates.io).
# Then writes the toolchain file rkbuild reads where RUSTC, RUST_LIB_SRC, BINDGEN, LIBCLANG_PATH
# and PATH find nothing usable (docs/toolchain.md). Idempotent; downloads cached in
# $RKBUILD_CACHE (default /var/cache/rkbuild-ci). scripts/install-deps.sh installs the rest
# the tests need.
set -euo pipefail

CACHE=${RKBUILD_CACHE:-/var/cache/rkbuild-ci}
mkdir -p "$CACHE"
RUST_185=1.85.0+dfsg3-1~deb12u3
BINDGEN_VERSION=0.71.1

log() { printf '  SETUP   %s\n' "$*"; }
apt_ok() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null | grep -qx "$2"; }
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

# Debian's rustc 1.85 (pinned: unpinned gives 1.96) and its library source; clang/lld/libclang 14
# (bindgen's libclang, the C side of the example) and make.
need=()
apt_ok rustc-web "$RUST_185" || need+=("rustc-web=$RUST_185" "libstd-rust-web-dev=$RUST_185" "libstd-rust-web-1.85=$RUST_185")
apt_ok rust-web-src "$RUST_185" || need+=("rust-web-src=$RUST_185")
for p in clang-14 lld-14 llvm-14 libclang-14-dev make; do
  installed "$p" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  log "apt-get install ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --allow-downgrades "${need[@]}" >/dev/null
fi
LIB_185=/usr/src/rustc-1.85.0/library
test -f "$LIB_185/core/src/lib.rs" || { echo "rust-web-src did not install $LIB_185" >&2; exit 1; }
log "$(/usr/bin/rustc --version) at /usr/bin/rustc, library $LIB_185"

# bindgen-cli from crates.io (0.71.1 pairs with libclang 14; Debian 12's bindgen is too old).
BINDGEN="$CACHE/bindgen/bin/bindgen"
if [ ! -x "$BINDGEN" ] || ! "$BINDGEN" --version | grep -q "$BINDGEN_VERSION"; then
  log "cargo install bindgen-cli $BINDGEN_VERSION"
  # One build folder for both bindgen-clis (install-deps.sh builds the second): crates they
  # share at the same version are compiled once.
  cargo install --quiet --locked bindgen-cli --version "$BINDGEN_VERSION" --root "$CACHE/bindgen" \
    --target-dir "$CACHE/bindgen-build"
fi
log "$("$BINDGEN" --version) at $BINDGEN"

# The toolchain file (written only when it changes).
TC=${RKBUILD_TOOLCHAIN:-${XDG_CONFIG_HOME:-$HOME/.config}/rkbuild/toolchain.toml}
mkdir -p "$(dirname "$TC")"
cat > "$TC.tmp" <<TOML
# Written by rkbuild's scripts/setup.sh. rkbuild takes a tool from here only where RUSTC,
# RUST_LIB_SRC, BINDGEN, LIBCLANG_PATH and PATH find none usable (docs/toolchain.md).
rustc = "/usr/bin/rustc"
rust_lib_src = "$LIB_185"
bindgen = "$BINDGEN"
libclang_path = "/usr/lib/llvm-14/lib"
TOML
if cmp -s "$TC.tmp" "$TC"; then rm "$TC.tmp"; else mv "$TC.tmp" "$TC"; fi
log "toolchain file $TC"
