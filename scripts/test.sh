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

# The test binaries in three lanes side by side. cargo test runs one binary at a time, and most
# binaries keep one of the two cores busy for much of their run; three lanes keep both busy.
# The binaries that build kernels with make lead two lanes: build_linux73 (its reference
# trees), then two that take about 6 minutes between them, and boot_qemu, then
# wrapper_kernel612 and analyzer_rust_analyzer (those two share the cached plain 6.12 tree, so
# one runs after the other). Every other binary, the doc tests and the fuzz run make the third
# lane. On a fresh machine the three lanes end within a few minutes of each other. Each line
# is tagged with its lane.
LANE_1=(build_linux73 target_matrix distro_debian)
LANE_2=(boot_qemu wrapper_kernel612 analyzer_rust_analyzer)
OTHERS=()
for f in tests/*.rs; do
  t=$(basename "$f" .rs)
  case " ${LANE_1[*]} ${LANE_2[*]} " in *" $t "*) ;; *) OTHERS+=("$t") ;; esac
done
lane() {
  local tag=$1; shift
  ( set -o pipefail; "$@" 2>&1 | sed -u "s/^/[$tag] /" )
}
tests() { cargo test --locked "${@/#/--test=}"; }
rest() { cargo test --locked --lib --bins "${OTHERS[@]/#/--test=}" && cargo test --locked --doc && fuzz; }
trap 'kill $(jobs -p) 2>/dev/null || true' INT TERM
lane 1 tests "${LANE_1[@]}" & L1=$!
lane 2 tests "${LANE_2[@]}" & L2=$!
lane 3 rest & L3=$!
failed=()
wait "$L1" || failed+=("1 (${LANE_1[*]})")
wait "$L2" || failed+=("2 (${LANE_2[*]})")
wait "$L3" || failed+=("3 (the other tests, then fuzz)")
if [ ${#failed[@]} -gt 0 ]; then
  printf 'FAILED: lane %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "all three lanes passed"
