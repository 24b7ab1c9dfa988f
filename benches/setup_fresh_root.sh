#!/usr/bin/env bash
# Times the README's first command on a fresh Debian 12 root: debootstrap (minbase + gcc, git,
# as a new machine of this kind has them), the machine's CA bundle and rustup toolchains bound
# in, an empty CARGO_HOME and package cache, then `scripts/setup.sh && cargo run --release -- build`
# of the bundled example. Needs root and Debian's debootstrap. Usage: benches/setup_fresh_root.sh
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
R=${ROOT:-/var/tmp/rkbuild-fresh-bookworm}
command -v debootstrap >/dev/null || { echo "debootstrap not found (apt-get install debootstrap)" >&2; exit 1; }
if [ ! -d "$R.pristine" ]; then
  debootstrap --variant=minbase --include=gcc,libc6-dev,ca-certificates,git,xz-utils bookworm "$R.pristine" http://deb.debian.org/debian
  cp /etc/apt/sources.list.d/debian.sources "$R.pristine/etc/apt/sources.list.d/" && rm -f "$R.pristine/etc/apt/sources.list"
  cp /etc/resolv.conf "$R.pristine/etc/resolv.conf"
fi
rm -rf "$R" && cp -a "$R.pristine" "$R"
cp /usr/local/share/ca-certificates/*.crt "$R/usr/local/share/ca-certificates/" 2>/dev/null || true
cp /etc/ssl/certs/ca-certificates.crt "$R/etc/ssl/certs/ca-certificates.crt"
mkdir -p "$R/root/.rustup" "$R/root/.cargo/bin" "$R/proc" "$R/dev" "$R/sys"
mount --bind "$HOME/.rustup" "$R/root/.rustup"
mount --bind "$HOME/.cargo/bin" "$R/root/.cargo/bin"
mount -t proc proc "$R/proc"; mount --rbind /dev "$R/dev"; mount --rbind /sys "$R/sys"
trap 'umount -l "$R/proc" "$R/dev" "$R/sys" "$R/root/.rustup" "$R/root/.cargo/bin"' EXIT
git clone -q "$REPO" "$R/root/rkbuild"
chroot "$R" /usr/bin/env -i HOME=/root PATH=/root/.cargo/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  RUSTUP_HOME=/root/.rustup CARGO_HOME=/root/.cargo-fresh SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
  bash -c 'cd /root/rkbuild
    SECONDS=0; bash scripts/setup.sh; s=$SECONDS
    cargo run --release -- build -S examples/minikernel -O /tmp/minikernel --config examples/minikernel/configs/x86_64.config
    echo "README first command: $SECONDS s (setup.sh $s s, cargo run --release $((SECONDS - s)) s)"
    test -f /tmp/minikernel/rust/kernel.o && test -f /tmp/minikernel/drivers/misc/rust_hello.o'
