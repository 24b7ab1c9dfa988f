#!/usr/bin/env bash
# Benchmark: rkbuild's Kconfig parse + evaluation of the whole tree (`rkbuild why --all`) against
# the kernel's own `conf --olddefconfig` (via `make olddefconfig`), which also parses the whole
# tree and runs the compiler probes. Same tree, same .config, same toolchain, same machine, same
# run; figures are medians of RUNS runs and reported as ratios.
#
#   benches/kconfig.sh [TREE] [CONFIG]     (defaults: the 7.3 tree, the 7.3 oracle's .config)
#
# rkbuild is measured three ways: cold (empty cache: the whole tree is parsed and every `$(shell)`
# probe runs, as conf does), probes cached by toolchain identity but the tree parsed again
# (RKBUILD_NO_PARSE_CACHE=1), and warm (probes and the parsed tree cached). Goal: >= 5x faster.
set -euo pipefail
cd "$(dirname "$0")/.."
source /var/cache/rkbuild-ci/env.sh
TREE=${1:-$RKBUILD_TEST_LINUX_73}
CONFIG=${2:-../shared/oracle/linux-7.3/x86_64-defconfig-rust/config}
RUNS=${RUNS:-3}
RKBUILD=${RKBUILD:-target/release/rkbuild}
[ -x "$RKBUILD" ] || cargo build --release --quiet
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
SYSROOT=$(rustc +stable --print sysroot)
# The kernel's make exports these to conf; rkbuild reads the same variables. CC is the host gcc
# (clang-14 here is older than 7.3's minimum).
export RUSTC=$SYSROOT/bin/rustc RUST_LIB_SRC=$RKBUILD_TEST_LIB_195 BINDGEN=$RKBUILD_TEST_BINDGEN \
  LIBCLANG_PATH=$RKBUILD_TEST_LIBCLANG_PATH

# Timestamps from bash itself ($EPOCHREALTIME): a `date` process per timestamp added ~2 ms to every rkbuild figure.
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

mkdir -p "$W/k" "$W/r"
# Untimed: builds scripts/kconfig/conf once.
cp "$CONFIG" "$W/k/.config"
make -s -C "$TREE" O="$W/k" olddefconfig >/dev/null 2>&1

kernel=(); cold=(); reparse=(); nomonly=(); warm=()
for i in $(seq "$RUNS"); do
  cp "$CONFIG" "$W/k/.config"
  t0=$EPOCHREALTIME; make -s -C "$TREE" O="$W/k" olddefconfig >/dev/null 2>&1; t1=$EPOCHREALTIME
  kernel+=("$(echo "$t1 - $t0" | bc)")
  cp "$CONFIG" "$W/r/.config"
  rm -rf "$W/cache"
  t0=$EPOCHREALTIME; RKBUILD_CACHE_DIR="$W/cache" "$RKBUILD" why --all -S "$TREE" -O "$W/r" >"$W/r/values" 2>"$W/r/log"; t1=$EPOCHREALTIME
  cold+=("$(echo "$t1 - $t0" | bc)")
  t0=$EPOCHREALTIME; RKBUILD_NO_PARSE_CACHE=1 RKBUILD_CACHE_DIR="$W/cache" "$RKBUILD" why --all -S "$TREE" -O "$W/r" >"$W/r/values" 2>"$W/r/log"; t1=$EPOCHREALTIME
  reparse+=("$(echo "$t1 - $t0" | bc)")
  # The same with nom-kconfig parsing alone (rkbuild's parser off): what the parser gains.
  t0=$EPOCHREALTIME; RKBUILD_KCONFIG_NOM=1 RKBUILD_NO_PARSE_CACHE=1 RKBUILD_CACHE_DIR="$W/cache" "$RKBUILD" why --all -S "$TREE" -O "$W/r" >"$W/r/values" 2>"$W/r/log"; t1=$EPOCHREALTIME
  nomonly+=("$(echo "$t1 - $t0" | bc)")
  t0=$EPOCHREALTIME; RKBUILD_CACHE_DIR="$W/cache" "$RKBUILD" why --all -S "$TREE" -O "$W/r" >"$W/r/values" 2>"$W/r/log"; t1=$EPOCHREALTIME
  warm+=("$(echo "$t1 - $t0" | bc)")
done
K=$(printf '%s\n' "${kernel[@]}" | median)
C=$(printf '%s\n' "${cold[@]}" | median)
P=$(printf '%s\n' "${reparse[@]}" | median)
N=$(printf '%s\n' "${nomonly[@]}" | median)
H=$(printf '%s\n' "${warm[@]}" | median)
# Sanity: rkbuild's values against the auto.conf conf just wrote (make olddefconfig also writes
# include/config/auto.conf? no: compare with the non-n lines of the new .config).
grep -E '^CONFIG_' "$W/k/.config" | grep -v '=n$' | sed 's/="\(.*\)"$/=\1/' | sort > "$W/k.vals"
sort "$W/r/values" > "$W/r.vals"
differ=$(comm -3 "$W/k.vals" "$W/r.vals" | wc -l)
echo "tree: $TREE ($(make -s -C "$TREE" kernelversion 2>/dev/null)), $RUNS runs, median wall seconds"
echo "  kernel make olddefconfig (conf --olddefconfig): $K s"
echo "  rkbuild why --all, cold (parse + all probes):   $C s   ($(echo "scale=1; $K / $C" | bc)x)"
echo "  rkbuild why --all, probes cached, re-parse:     $P s   ($(echo "scale=1; $K / $P" | bc)x)"
echo "  same, parsed by nom-kconfig alone:             $N s   ($(echo "scale=1; $K / $N" | bc)x)"
echo "  rkbuild why --all, probes and parse cached:     $H s   ($(echo "scale=1; $K / $H" | bc)x)"
echo "  rkbuild: $(tail -1 "$W/r/log" | sed 's/^ *//')"
echo "  values differing from conf's .config: $differ lines of $(wc -l < "$W/k.vals")"
source benches/rows.sh
bench_row "Kconfig parse + eval, cold (vs conf --olddefconfig)" "$C" "$K" s
bench_row "Kconfig, probes cached, re-parse (vs conf)" "$P" "$K" s
bench_row "Kconfig, re-parse by nom-kconfig alone (vs conf)" "$N" "$K" s
bench_row "Kconfig, rkbuild's parser vs nom-kconfig alone" "$P" "$N" s
bench_row "Kconfig, parse cache warm (vs conf)" "$H" "$K" s
