#!/usr/bin/env bash
# Installs every real tool rkbuild's tests run, on a fresh Debian bookworm machine of this kind.
# Idempotent: big downloads and builds are cached in $RKBUILD_CACHE (default /var/cache/rkbuild-ci),
# which later runs on the same machine reuse. Prints one line per component.
set -euo pipefail

CACHE=${RKBUILD_CACHE:-/var/cache/rkbuild-ci}
mkdir -p "$CACHE"
RUST_SRC_195=1.95.0+dfsg1-2~bpo13+1
# 7.3 with Rust wants LLVM >= 17; Debian's LLVM 22 (bookworm-security) with bindgen >= 0.72.1
# (0.71.1 cannot read libclang 22's output).
LLVM_22=1:22.1.8-1~deb12u1
BINDGEN_22_VERSION=0.73.2
LINUX_612=linux-source-6.12

log() { printf '  DEPS    %s\n' "$*"; }

# rust-analyzer (step 12) is the longest build and needs nothing the other steps install: on a
# fresh machine it starts first, in the background, and the downloads and unpacking below run
# beside it instead of before it.
RA_VERSION=0.0.349
RA="$CACHE/rust-analyzer/bin/rust-analyzer"
RA_PID=""
if [ ! -x "$RA" ]; then
  # At opt-level 1: 11 CPU-minutes to build instead of about 17, and the tests that run it
  # (analyzer_rust_analyzer) take 28 s instead of 26.
  log "cargo +nightly install ra_ap_rust-analyzer $RA_VERSION (about 11 CPU-minutes, cached; in the background)"
  CARGO_PROFILE_RELEASE_OPT_LEVEL=1 cargo +nightly install --quiet --locked ra_ap_rust-analyzer --version "$RA_VERSION" \
    --root "$CACHE/rust-analyzer" > "$CACHE/rust-analyzer-install.log" 2>&1 &
  RA_PID=$!
fi

# What the main job needs (Debian's rustc 1.85 and its library, clang/lld/libclang 14, bindgen
# 0.71.1, the toolchain file) comes first, from the README's first command.
bash "$(dirname "$0")/setup.sh"

apt_ok() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null | grep -qx "$2"; }

# apt-get against Debian trixie + trixie-backports with a private state under $CACHE: reads
# those suites' arch-independent packages without touching the system's apt configuration.
trixie_apt() {
  local priv="$CACHE/apt-trixie"
  mkdir -p "$priv/lists/partial" "$priv/archives/partial"
  printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian %s main\n' \
    trixie trixie-backports > "$priv/sources.list"
  apt-get -o Dir::Etc::SourceList="$priv/sources.list" -o Dir::Etc::SourceParts=/dev/null \
    -o Dir::State::Lists="$priv/lists" -o Dir::Cache::Archives="$priv/archives" \
    -o APT::Get::List-Cleanup=0 "$@"
}

# trixie_fetch PKG TMP: the package's .deb downloaded into a fresh TMP and unpacked into TMP/x.
trixie_fetch() {
  trixie_apt update -qq
  rm -rf "$2"; mkdir -p "$2"
  (cd "$2" && trixie_apt download "$1" >/dev/null)
  dpkg-deb -x "$2"/*.deb "$2/x"
}

# unpack_linux DEB DEST: a linux-source-X.Y package's tarball, unpacked into DEST (atomically).
unpack_linux() {
  local deb=$1 dest=$2 x="$2.x"
  rm -rf "$x" "$dest.tmp" && mkdir -p "$x" "$dest.tmp"
  dpkg-deb -x "$deb" "$x"
  tar -xJf "$x"/usr/src/linux-source-*.tar.xz -C "$dest.tmp" --strip-components=1
  rm -rf "$dest" "$x" && mv "$dest.tmp" "$dest"
}

# 1. Debian packages beyond setup.sh's: clang/lld/llvm/libclang 22 (bookworm-security) for 7.3, the
#    kernel's build tools; chromium renders the --timings page.
need_apt=()
for p in clang-22 lld-22 llvm-22 libclang1-22; do
  apt_ok "$p" "$LLVM_22" || need_apt+=("$p=$LLVM_22")
done
for p in flex bison bc libelf-dev libssl-dev xz-utils \
         hyperfine busybox-static chromium debootstrap; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need_apt+=("$p")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  log "apt-get install ${need_apt[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --allow-downgrades "${need_apt[@]}" >/dev/null
fi
# qemu-system from the suite of the machine's own qemu-utils: a machine that ships bookworm-backports
# qemu-utils (10.x) cannot take bookworm's qemu-system (7.2; qemu-utils Breaks it).
qemu_need=()
for p in qemu-system-x86 qemu-system-arm; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || qemu_need+=("$p")
done
if [ ${#qemu_need[@]} -gt 0 ]; then
  if dpkg-query -W -f='${Version}' qemu-utils 2>/dev/null | grep -q 'bpo12'; then
    log "apt-get install -t bookworm-backports ${qemu_need[*]} (beside qemu-utils $(dpkg-query -W -f='${Version}' qemu-utils))"
    src=/etc/apt/sources.list.d/bookworm-backports.sources
    if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
      printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' > "$src"
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -t bookworm-backports "${qemu_need[@]}" >/dev/null
  else
    log "apt-get install ${qemu_need[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${qemu_need[@]}" >/dev/null
  fi
fi
log "rustc $(/usr/bin/rustc --version) at /usr/bin/rustc, library /usr/src/rustc-1.85.0/library"
test -f /usr/src/rustc-1.85.0/library/core/src/lib.rs

# 2. rust-src 1.95.0 from trixie-backports, read with a private apt state (the system's apt is untouched).
SRC195="$CACHE/rust-src-1.95.0"
if [ ! -f "$SRC195/usr/lib/rustlib/src/rust/library/core/src/lib.rs" ]; then
  log "rust-src $RUST_SRC_195 (trixie-backports)"
  trixie_apt update -qq
  (cd "$CACHE/apt-trixie" && trixie_apt download "rust-src=$RUST_SRC_195" >/dev/null)
  rm -rf "$SRC195.tmp" && mkdir -p "$SRC195.tmp"
  dpkg-deb -x "$CACHE"/apt-trixie/rust-src_*.deb "$SRC195.tmp"
  rm -rf "$SRC195" && mv "$SRC195.tmp" "$SRC195"
fi
log "rust-src 1.95.0 at $SRC195/usr/lib/rustlib/src/rust/library"

# 3b. bindgen-cli for libclang 22 (the 7.3 toolchain), beside the first one.
if [ ! -x "$CACHE/bindgen-22/bin/bindgen" ] || ! "$CACHE/bindgen-22/bin/bindgen" --version | grep -q "$BINDGEN_22_VERSION"; then
  log "cargo install bindgen-cli $BINDGEN_22_VERSION (for libclang 22)"
  cargo install --quiet --locked bindgen-cli --version "$BINDGEN_22_VERSION" --root "$CACHE/bindgen-22" \
    --target-dir "$CACHE/bindgen-build"
fi
log "$("$CACHE/bindgen-22/bin/bindgen" --version) at $CACHE/bindgen-22/bin/bindgen, clang $(clang-22 --version | head -1)"

# 4. Real kernel tree: Debian's linux-source-6.12.
K612="$CACHE/linux-6.12"
if [ ! -f "$K612/Makefile" ]; then
  log "$LINUX_612 (download and unpack)"
  tmp="$CACHE/dl-6.12"; rm -rf "$tmp"; mkdir -p "$tmp"
  (cd "$tmp" && apt-get download "$LINUX_612" >/dev/null)
  unpack_linux "$tmp"/linux-source-6.12_*.deb "$K612" && rm -rf "$tmp"
fi
log "linux $(make -s -C "$K612" kernelversion 2>/dev/null) at $K612"

# 5. rustup toolchains already on the machine (stable 1.95, nightly): only checked, never downloaded.
rustc +stable --version >/dev/null || { echo "rustup stable toolchain missing" >&2; exit 1; }
rustup component list --toolchain stable --installed | grep -q clippy || { echo "clippy (rustup) missing" >&2; exit 1; }
# rustfmt beside stable's rustc: `rkbuild fmt` is checked against the kernel's make rustfmt.
[ -x "$(dirname "$(rustup which --toolchain stable rustc)")/rustfmt" ] || { echo "rustfmt (rustup stable) missing" >&2; exit 1; }
log "$(rustc +stable --version), $(rustc +nightly --version 2>/dev/null || echo 'no nightly')"

# 6. Real kernel tree: Debian's linux-source-7.3 (7.3.4, trixie-backports), read with the same private
#    apt state as rust-src above (the system's apt is untouched). Used by the Kconfig tests and benchmark.
LINUX_73=linux-source-7.3
K73="$CACHE/linux-7.3"
if [ ! -f "$K73/Makefile" ]; then
  log "$LINUX_73 (trixie-backports; download and unpack)"
  trixie_apt update -qq
  tmp="$CACHE/dl-7.3"; rm -rf "$tmp"; mkdir -p "$tmp"
  (cd "$tmp" && trixie_apt download "$LINUX_73" >/dev/null)
  unpack_linux "$tmp"/linux-source-7.3_*.deb "$K73" && rm -rf "$tmp"
fi
log "linux $(make -s -C "$K73" kernelversion 2>/dev/null) at $K73"

# 6b. Debian's own 7.3 configuration (linux-config-7.3, same suite): a distribution kernel built
#     with GCC and Rust, for the tests that compare rkbuild with make on a real distro config.
DEBCFG="$CACHE/linux-config-7.3/config.amd64_none_amd64"
if [ ! -f "$DEBCFG" ]; then
  log "linux-config-7.3 (trixie-backports)"
  tmp="$CACHE/dl-config-7.3"
  trixie_fetch linux-config-7.3 "$tmp"
  mkdir -p "$CACHE/linux-config-7.3"
  xz -dc "$tmp"/x/usr/src/linux-config-7.3/config.amd64_none_amd64.xz > "$DEBCFG.tmp" && mv "$DEBCFG.tmp" "$DEBCFG"
  rm -rf "$tmp"
fi
log "Debian's 7.3 amd64 config at $DEBCFG"

# 7. busybox-static for arm64 (the arm64 boot test's initramfs), read with a private apt state
#     for bookworm's arm64 packages (the system's apt and architectures are untouched).
BB64="$CACHE/busybox-arm64/bin/busybox"
if [ ! -x "$BB64" ]; then
  log "busybox-static (arm64)"
  priv="$CACHE/apt-arm64"
  mkdir -p "$priv/lists/partial" "$priv/archives/partial"
  printf 'deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main\n' \
    > "$priv/sources.list"
  a64=(-o Dir::Etc::SourceList="$priv/sources.list" -o Dir::Etc::SourceParts=/dev/null
       -o Dir::State::Lists="$priv/lists" -o Dir::Cache::Archives="$priv/archives"
       -o APT::Architecture=arm64 -o APT::Architectures=arm64 -o Dir::State::status=/dev/null
       -o APT::Get::List-Cleanup=0)
  apt-get "${a64[@]}" update -qq
  (cd "$priv/archives" && apt-get "${a64[@]}" download busybox-static:arm64 >/dev/null 2>&1)
  rm -rf "$CACHE/busybox-arm64.tmp"
  dpkg-deb -x "$priv"/archives/busybox-static_*_arm64.deb "$CACHE/busybox-arm64.tmp"
  rm -rf "$CACHE/busybox-arm64" && mv "$CACHE/busybox-arm64.tmp" "$CACHE/busybox-arm64"
fi
log "busybox (arm64) at $BB64, $(qemu-system-x86_64 --version | head -1)"

# 8. The plain Linux 6.12 build of tests/wrapper_kernel612.rs is cached here (the wrapped one
#    never is).
mkdir -p "$CACHE/wrap-612-plain"
log "$(hyperfine --version) (benches); plain 6.12 build cache at $CACHE/wrap-612-plain"

# 9. BuildGrid 0.9.1 (PyPI), the real REAPI server the remote-cache tests start on 127.0.0.1: a venv
#    of the machine's pyenv Python 3.13 (BuildGrid needs >= 3.13), cached.
BGD="$CACHE/buildgrid/bin/bgd"
if [ ! -f "$CACHE/buildgrid/.installed-0.9.1" ]; then
  PY313=""
  for c in "$HOME"/.pyenv/versions/3.13*/bin/python3.13 python3.13; do
    if "$c" -c 'import sys; assert sys.version_info >= (3, 13)' 2>/dev/null; then PY313=$(command -v "$c"); break; fi
  done
  [ -n "$PY313" ] || { echo "python3.13 (pyenv) missing: BuildGrid 0.9.1 needs Python >= 3.13" >&2; exit 1; }
  log "pip install buildgrid==0.9.1 (venv of $PY313)"
  # A venv's scripts name its folder, so it is made in place; the marker says it is complete.
  rm -rf "$CACHE/buildgrid"
  "$PY313" -m venv "$CACHE/buildgrid"
  "$CACHE/buildgrid/bin/pip" install --quiet --disable-pip-version-check buildgrid==0.9.1
  touch "$CACHE/buildgrid/.installed-0.9.1"
fi
log "buildgrid $("$CACHE/buildgrid/bin/pip" show buildgrid | sed -n 's/^Version: //p') at $BGD"

# 10. cargo-fuzz (crates.io), for the short fuzz run at the end of scripts/test.sh; cached.
FUZZ="$CACHE/cargo-fuzz/bin/cargo-fuzz"
if [ ! -x "$FUZZ" ]; then
  log "cargo install cargo-fuzz (cached)"
  cargo install --quiet --locked cargo-fuzz --root "$CACHE/cargo-fuzz"
fi
log "$("$FUZZ" --version) at $FUZZ"

# 11. Debian's own 7.3 kernel and a Debian trixie root to build modules for it in
#     (tests/distro_debian.rs): trixie's rustc 1.85.1 (the one the kernel was built with),
#     rust-src, rustfmt, bindgen, gcc-14 and make, the kernel's headers package, and its source
#     (the linux-source-7.3 of step 6, the same package version, linked in). Made with
#     debootstrap and entered with chroot; the system is untouched. The kernel image is
#     unpacked from linux-binary-… (not installed). Both cached by version.
DEB_RELEASE=7.3.4+deb13-amd64
RUSTC_TRIXIE=1.85.1+dfsg1-1+deb13u1
TRIXIE_ROOT="$CACHE/trixie-root"
TRIXIE_MARK="$TRIXIE_ROOT/.rkbuild-ready-$DEB_RELEASE-$RUSTC_TRIXIE"
if [ ! -f "$TRIXIE_MARK" ]; then
  log "Debian trixie root for $DEB_RELEASE (debootstrap; rustc $RUSTC_TRIXIE, linux-headers-$DEB_RELEASE)"
  r="$TRIXIE_ROOT.tmp"; rm -rf "$r"
  debootstrap --variant=minbase trixie "$r" http://deb.debian.org/debian > "$CACHE/debootstrap.log" 2>&1 \
    || { tail -20 "$CACHE/debootstrap.log" >&2; echo "debootstrap of trixie failed (log: $CACHE/debootstrap.log)" >&2; exit 1; }
  echo "deb http://deb.debian.org/debian trixie-backports main" > "$r/etc/apt/sources.list.d/backports.list"
  unshare --mount --propagation private sh -c "mount -t proc proc '$r/proc' && chroot '$r' sh -c '
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      rustc=$RUSTC_TRIXIE rust-src=$RUSTC_TRIXIE rustfmt=$RUSTC_TRIXIE libstd-rust-dev=$RUSTC_TRIXIE \
      bindgen make gcc-14 libc6-dev linux-headers-$DEB_RELEASE && apt-get clean'" > "$CACHE/trixie-apt.log" 2>&1 \
    || { tail -20 "$CACHE/trixie-apt.log" >&2; echo "installing into the trixie root failed (log: $CACHE/trixie-apt.log)" >&2; exit 1; }
  cp -al "$K73" "$r/usr/src/linux-source-7.3"
  touch "$r/.rkbuild-ready-$DEB_RELEASE-$RUSTC_TRIXIE"
  rm -rf "$TRIXIE_ROOT" && mv "$r" "$TRIXIE_ROOT"
fi
log "trixie root at $TRIXIE_ROOT: $(chroot "$TRIXIE_ROOT" rustc --version)"
DEB_VMLINUZ="$CACHE/debian-kernel-$DEB_RELEASE/vmlinuz"
if [ ! -f "$DEB_VMLINUZ" ]; then
  log "linux-binary-$DEB_RELEASE (trixie-backports; Debian's kernel image, unpacked)"
  tmp="$CACHE/dl-debian-kernel"
  trixie_fetch "linux-binary-$DEB_RELEASE" "$tmp"
  mkdir -p "$(dirname "$DEB_VMLINUZ")"
  cp "$tmp/x/usr/lib/modules/$DEB_RELEASE/vmlinuz" "$DEB_VMLINUZ.tmp" && mv "$DEB_VMLINUZ.tmp" "$DEB_VMLINUZ"
  rm -rf "$tmp"
fi
log "Debian's kernel image at $DEB_VMLINUZ"

# 12. rust-analyzer, the real consumer of `rkbuild analyzer`'s rust-project.json: built from crates.io with the
#    nightly here (it does not compile with 1.95; Debian's package needs a newer glibc). About 11 CPU-minutes
#    (opt-level 1), so it is cached in $CACHE/rust-analyzer and rebuilt only when missing.
#    Started at the top; waited for last, so the steps after 6b run beside it too.
if [ -n "$RA_PID" ] && ! wait "$RA_PID"; then
  tail -30 "$CACHE/rust-analyzer-install.log" >&2
  echo "cargo +nightly install ra_ap_rust-analyzer $RA_VERSION failed (log: $CACHE/rust-analyzer-install.log)" >&2
  exit 1
fi
log "$("$RA" --version) at $RA"

# The environment the tests read (sourced by .ci/run).
cat > "$CACHE/env.sh" <<ENV
export RKBUILD_TEST_RUSTC_185=/usr/bin/rustc
export RKBUILD_TEST_LIB_185=/usr/src/rustc-1.85.0/library
export RKBUILD_TEST_LIB_195=$SRC195/usr/lib/rustlib/src/rust/library
export RKBUILD_TEST_BINDGEN=$CACHE/bindgen/bin/bindgen
export RKBUILD_TEST_LIBCLANG_PATH=/usr/lib/llvm-14/lib
export RKBUILD_TEST_BINDGEN_22=$CACHE/bindgen-22/bin/bindgen
export RKBUILD_TEST_LIBCLANG_22_PATH=/usr/lib/llvm-22/lib
export RKBUILD_TEST_LINUX_612=$K612
export RKBUILD_TEST_RUSTC_195=$(rustup which --toolchain stable rustc)
export RKBUILD_TEST_RUSTC_NIGHTLY=$(rustup which --toolchain nightly rustc)
export RKBUILD_TEST_LINUX_73=$K73
export RKBUILD_TEST_RUST_ANALYZER=$RA
export RKBUILD_WRAP_612_PLAIN=$CACHE/wrap-612-plain
export RKBUILD_REF_DIR=$CACHE
export RKBUILD_TEST_DEBIAN_73_CONFIG=$DEBCFG
export RKBUILD_TEST_BUSYBOX_ARM64=$BB64
export RKBUILD_TEST_BGD=$BGD
export RKBUILD_TEST_TRIXIE_ROOT=$TRIXIE_ROOT
export RKBUILD_TEST_DEBIAN_RELEASE=$DEB_RELEASE
export RKBUILD_TEST_DEBIAN_VMLINUZ=$DEB_VMLINUZ
# Tests name every tool; the toolchain file setup.sh wrote is read only where a test says so.
export RKBUILD_TOOLCHAIN=
ENV
log "environment in $CACHE/env.sh"
