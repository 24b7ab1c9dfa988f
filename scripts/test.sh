#!/usr/bin/env bash
# Runs every test against the real tools: installs what they need (cached), then cargo test.
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
cargo test --locked "$@"
# Every fuzz target briefly (scripts/fuzz.sh: its first 2,000 inputs from a fixed seed, so the
# same code always meets the same inputs; the slow Kconfig target stops at 10 s): the fuzz
# crate keeps compiling, and a crash on what the seeds reach fails the run. Its build folder
# is kept in the cache.
CARGO_TARGET_DIR="${RKBUILD_CACHE:-/var/cache/rkbuild-ci}/fuzz-target" RKBUILD_FUZZ_RUNS=2000 \
  bash scripts/fuzz.sh 10
