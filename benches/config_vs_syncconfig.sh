#!/usr/bin/env bash
# Benchmark: `rkbuild config` vs the kernel's own `make syncconfig`, side by side, on the
# oracle's x86_64 defconfig+Rust configuration in the real Debian 6.12 tree.
# Both turn .config into include/generated/rustc_cfg (make also writes auto.conf/autoconf.h
# and runs its Kconfig toolchain probes). Prints medians and the ratio.
# Usage: benches/config_vs_syncconfig.sh [RUNS]   (needs scripts/install-deps.sh done)
set -euo pipefail
RUNS=${1:-10}
here=$(cd "$(dirname "$0")/.." && pwd)
source /var/cache/rkbuild-ci/env.sh
K=$RKBUILD_TEST_LINUX_612
CFG=$here/tests/fixtures/configs/x86_64-defconfig-rust-6.12.config
work=$(mktemp -d /tmp/rkbuild-bench-config.XXXX)
trap 'rm -rf "$work"' EXIT
export LIBCLANG_PATH=$RKBUILD_TEST_LIBCLANG_PATH
M=(make -s -C "$K" O="$work/make" LLVM=-14 RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc
   BINDGEN="$RKBUILD_TEST_BINDGEN" RUST_LIB_SRC="$RKBUILD_TEST_LIB_185")
cargo build --release --quiet --manifest-path "$here/Cargo.toml"
RK="$here/target/release/rkbuild"

mkdir -p "$work/make"
cp "$CFG" "$work/make/.config"
"${M[@]}" syncconfig >/dev/null 2>&1   # builds scripts/kconfig/conf once (not timed)

# Timestamps from bash itself ($EPOCHREALTIME): a `date` process per timestamp added ~2 ms to every rkbuild figure.
# rkbuild with the tree's Kconfig checked too (its parse and probe caches warmed once, untimed).
RKS=("$RK" config -q -S "$K" --config "$CFG" --rustc /usr/bin/rustc --bindgen "$RKBUILD_TEST_BINDGEN")
"${RKS[@]}" -O "$work/rks" >/dev/null 2>&1
declare -a tm tr ts
for i in $(seq "$RUNS"); do
  touch "$work/make/.config"
  t0=$EPOCHREALTIME; "${M[@]}" syncconfig >/dev/null 2>&1; t1=$EPOCHREALTIME
  rm -rf "$work/rk"
  t2=$EPOCHREALTIME; "$RK" config -q --config "$CFG" -O "$work/rk" --rustc /usr/bin/rustc --kbuild 6.12 >/dev/null; t3=$EPOCHREALTIME
  rm -rf "$work/rks"
  t4=$EPOCHREALTIME; "${RKS[@]}" -O "$work/rks" >/dev/null 2>&1; t5=$EPOCHREALTIME
  tm+=("$(echo "$t1 - $t0" | bc -l)"); tr+=("$(echo "$t3 - $t2" | bc -l)"); ts+=("$(echo "$t5 - $t4" | bc -l)")
done
# Same content: rkbuild's rustc_cfg equals make's (as a set).
diff <(sort "$work/make/include/generated/rustc_cfg") <(sort "$work/rk/include/generated/rustc_cfg") >/dev/null \
  && same=yes || same=NO
python3 - "$same" "${tm[*]}" "${tr[*]}" "${ts[*]}" "$work/medians" <<'PY'
import statistics, sys
same = sys.argv[1]
m, r, k = ([float(x) for x in a.split()] for a in sys.argv[2:5])
mm, rr, kk = statistics.median(m), statistics.median(r), statistics.median(k)
print(f"runs: {len(m)} each; rustc_cfg identical: {same}")
print(f"make syncconfig : median {mm*1000:9.1f} ms  (min {min(m)*1000:.1f}, max {max(m)*1000:.1f})")
print(f"rkbuild config  : median {rr*1000:9.1f} ms  (min {min(r)*1000:.1f}, max {max(r)*1000:.1f})")
print(f"rkbuild config -S (Kconfig checked, warm caches): median {kk*1000:9.1f} ms")
print(f"ratio (make / rkbuild): {mm/rr:.0f}x; with the Kconfig check: {mm/kk:.1f}x")
print(f"{rr*1000:.3f} {kk*1000:.3f} {mm*1000:.3f}", file=open(sys.argv[5], "w"))
PY
read -r R S M < "$work/medians"
source "$here/benches/rows.sh"
bench_row "config, no tree (vs make syncconfig)" "$R" "$M" ms
bench_row "config -S, Kconfig checked, warm (vs make syncconfig)" "$S" "$M" ms
