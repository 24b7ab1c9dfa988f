#!/usr/bin/env bash
# Runs every test against the real tools: installs what they need (cached), then cargo test.
# With arguments (a filter, `--test NAME` …) it is one plain `cargo test` with them.
set -euo pipefail
cd "$(dirname "$0")/.."
# Every test and probe writes to /dev/null; make sure it is the device.
if [ ! -c /dev/null ]; then
  rm -f /dev/null && mknod -m 666 /dev/null c 1 3
fi
# Building the tests needs nothing install-deps.sh installs: on a fresh machine it runs beside
# the downloads (its errors, if any, show again in the run below).
BUILD_LOG=$(mktemp)
cargo test --locked --no-run "$@" > "$BUILD_LOG" 2>&1 &
BUILD=$!
bash scripts/install-deps.sh
wait "$BUILD" || true
rm -f "$BUILD_LOG"
# shellcheck disable=SC1091
source "${RKBUILD_CACHE:-/var/cache/rkbuild-ci}/env.sh"
if [ $# -gt 0 ]; then
  exec cargo test --locked "$@"
fi

# Every fuzz target briefly (scripts/fuzz.sh: its first 2,000 inputs from a fixed seed, so the
# same code always meets the same inputs; the slow Kconfig target stops at 10 s): the fuzz
# crate keeps compiling, and a crash on what the seeds reach fails the run. Its build folder
# is kept in the cache.
fuzz() {
  CARGO_TARGET_DIR="${RKBUILD_CACHE:-/var/cache/rkbuild-ci}/fuzz-target" RKBUILD_FUZZ_RUNS=2000 \
    bash scripts/fuzz.sh 10
}

# The work after the build: every test binary, the unit tests, the doc tests and the fuzz run.
# Three workers take items from one queue, longest first, so both cores stay busy to the end
# whatever is cached (cargo test itself runs one binary at a time, and most binaries keep one
# core busy for much of their run). An item's length is its time in the last run on this
# machine ($CACHE/test-times), else the estimate below (seconds on a fresh machine, measured
# there: the binaries that build kernels with make lead). Each output line is tagged with its item; a failure does not stop
# the others, and all failures are listed at the end.
CACHE=${RKBUILD_CACHE:-/var/cache/rkbuild-ci}
TIMES=$CACHE/test-times
declare -A EST=(
  [build_linux73]=2043 [wrapper_kernel612]=1875 [boot_qemu]=1417 [fuzz]=480 [target_matrix]=416
  [build_2021]=214 [build_example]=205 [distro_debian]=192 [analyzer_rust_analyzer]=71
)
items=(lib doc fuzz)
for f in tests/*.rs; do items+=("$(basename "$f" .rs)"); done
QUEUE=$(mktemp -d)
for t in "${items[@]}"; do
  s=$(awk -v t="$t" '$2 == t { s = $1 } END { print s }' "$TIMES" 2>/dev/null || true)
  echo "${s:-${EST[$t]:-100}} $t"
done | sort -rn -k1,1 | awk '{ print $2 }' > "$QUEUE/items"
echo 0 > "$QUEUE/next"
take() {
  local fd i
  exec {fd}>> "$QUEUE/lock"
  flock "$fd"
  i=$(< "$QUEUE/next"); echo $((i + 1)) > "$QUEUE/next"
  exec {fd}>&-
  sed -n "$((i + 1))p" "$QUEUE/items"
}
run_item() {
  case $1 in
    lib) cargo test --locked --lib --bins ;;
    doc) cargo test --locked --doc ;;
    fuzz) fuzz ;;
    *) cargo test --locked --test "$1" ;;
  esac
}
worker() {
  local t start rc
  while t=$(take) && [ -n "$t" ]; do
    start=$SECONDS
    set +e
    run_item "$t" 2>&1 | sed -u "s/^/[$t] /"
    rc=${PIPESTATUS[0]}
    set -e
    echo "$((SECONDS - start)) $t $rc" >> "$QUEUE/done"
  done
}
trap 'kill $(jobs -p) 2>/dev/null || true' INT TERM
for w in 1 2 3; do worker & done
wait
echo "== seconds per item (longest first)"
sort -rn "$QUEUE/done" | awk '{ printf "%6d  %s%s\n", $1, $2, ($3 == 0 ? "" : "  FAILED") }'
failed=$(awk '$3 != 0 { print $2 }' "$QUEUE/done")
# What passed is the next run's order; a missing item (cut short) keeps its last time.
{ awk '$3 == 0 { print $1, $2 }' "$QUEUE/done"; cat "$TIMES" 2>/dev/null || true; } \
  | awk '!seen[$2]++' > "$QUEUE/times" && mv "$QUEUE/times" "$TIMES" || true
ran=$(wc -l < "$QUEUE/done")
rm -rf "$QUEUE"
if [ -n "$failed" ] || [ "$ran" -ne ${#items[@]} ]; then
  echo "FAILED: $(echo $failed) (${ran} of ${#items[@]} items ran)" >&2
  exit 1
fi
echo "all ${#items[@]} items passed"
