#!/usr/bin/env bash
# Runs every cargo-fuzz target of fuzz/ for SECONDS each (default 20): the nightly toolchain,
# cargo-fuzz from crates.io (installed on first use, cached), the seeds in fuzz/seeds/TARGET
# and the corpus kept from the long campaign (fuzz/corpus/TARGET.tar.xz, scripts/fuzz-long.sh),
# both read only; what a short run finds goes to a scratch folder and is dropped. A crash fails it;
# the input is left in fuzz/artifacts/TARGET and becomes a regression test (tests/fuzz_regressions.rs).
# Built as the long campaign builds (scripts/fuzz-long.sh): no sanitizer, debug assertions on.
# The code is safe Rust, so ASAN finds nothing a panic does not; without it the build takes
# 1.38x less CPU (363 against 500 CPU-s from scratch).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-20}
# RKBUILD_FUZZ_RUNS=N: also stop after N inputs, from a fixed seed, so that a run (CI's) finds
# the same inputs every time for the same code; fast targets stop at N, slow ones at SECONDS.
EXTRA=()
if [ -n "${RKBUILD_FUZZ_RUNS:-}" ]; then EXTRA=(-runs="$RKBUILD_FUZZ_RUNS" -seed=1); fi
FUZZ=${RKBUILD_CARGO_FUZZ:-${RKBUILD_CACHE:-/var/cache/rkbuild-ci}/cargo-fuzz/bin/cargo-fuzz}
export RUSTUP_TOOLCHAIN=nightly
if [ ! -x "$FUZZ" ] && [ -z "${RKBUILD_CARGO_FUZZ:-}" ]; then
  printf '  FUZZ    cargo install cargo-fuzz (cached)\n'
  RUSTUP_TOOLCHAIN=stable cargo install --quiet --locked cargo-fuzz --root "$(dirname "$(dirname "$FUZZ")")"
fi
command -v "$FUZZ" >/dev/null || { echo "cargo-fuzz not found at $FUZZ (set RKBUILD_CARGO_FUZZ)" >&2; exit 1; }
rustc +nightly --version >/dev/null || { echo "the nightly toolchain (rustup) is needed for cargo-fuzz" >&2; exit 1; }
targets=$(cd fuzz && "$FUZZ" fuzz list)
for t in $targets; do
  scratch=$(mktemp -d)
  mkdir -p "$scratch/new" "$scratch/kept"
  [ -f "fuzz/corpus/$t.tar.xz" ] && tar -xJf "fuzz/corpus/$t.tar.xz" -C "$scratch/kept"
  printf '  FUZZ    %s (%ss)\n' "$t" "$SECONDS_EACH"
  log=$(mktemp)
  if ! (cd fuzz && "$FUZZ" fuzz run -s none -a "$t" "$scratch/new" "$scratch/kept" "seeds/$t" -- \
      -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "${EXTRA[@]}") > "$log" 2>&1; then
    tail -40 "$log" >&2
    echo "fuzz target $t failed (a crash is kept in fuzz/artifacts/$t; a build error is above)" >&2
    exit 1
  fi
  grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' "$log" || true
  rm -rf "$log" "$scratch"
done
