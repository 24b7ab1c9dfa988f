#!/usr/bin/env bash
# The long fuzz campaign (issue 17): each target of fuzz/ until 10 million inputs or SECONDS
# (default 3600), whichever comes first, on JOBS processes (default 1). Built without a
# sanitizer but with debug assertions (overflow checks): the code is safe Rust, and ASAN's
# 3-10x slowdown buys nothing a panic does not already report. The corpus grows in
# $RKBUILD_FUZZ_WORK/TARGET (default /var/tmp/rkbuild-fuzz); at the end it is minimized
# (cargo fuzz cmin: the fewest inputs with the same coverage) and kept in the repository as
# fuzz/corpus/TARGET.tar.xz (text inputs compress well). Prints one line per target:
# executions, seconds, coverage (libFuzzer's `cov:` edges and `ft:` features), crashes.
#
#   bash scripts/fuzz-long.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT=${1:-3600}
shift || true
JOBS=${JOBS:-1}
WORK=${RKBUILD_FUZZ_WORK:-/var/tmp/rkbuild-fuzz}
FUZZ=${RKBUILD_CARGO_FUZZ:-${RKBUILD_CACHE:-/var/cache/rkbuild-ci}/cargo-fuzz/bin/cargo-fuzz}
export RUSTUP_TOOLCHAIN=nightly
command -v "$FUZZ" >/dev/null || { echo "cargo-fuzz not found at $FUZZ (run scripts/fuzz.sh once, or set RKBUILD_CARGO_FUZZ)" >&2; exit 1; }
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cd fuzz && "$FUZZ" fuzz list)
printf '%-15s %12s %8s %7s %8s %s\n' target executions seconds cov ft crashes
for t in "${targets[@]}"; do
  mkdir -p "$WORK/$t" "$WORK/$t-kept" fuzz/corpus
  [ -f "fuzz/corpus/$t.tar.xz" ] && tar -xJf "fuzz/corpus/$t.tar.xz" -C "$WORK/$t-kept"
  log="$WORK/$t.log"
  start=$(date +%s)
  set +e
  # -runs counts per process: split the 10 million over the jobs.
  (cd fuzz && "$FUZZ" fuzz run -s none -a "$t" "$WORK/$t" "$WORK/$t-kept" "seeds/$t" -- \
      -runs=$((10000000 / JOBS)) -max_total_time="$LIMIT" -timeout=10 -rss_limit_mb=2048 \
      -max_len=${MAX_LEN:-8192} -print_final_stats=1 \
      $([ "$JOBS" -gt 1 ] && echo "-jobs=$JOBS -workers=$JOBS")) > "$log" 2>&1
  rc=$?
  set -e
  secs=$(( $(date +%s) - start ))
  # One process writes fuzz-N.log files when there are several jobs.
  logs=("$log"); [ "$JOBS" -gt 1 ] && logs=(fuzz/fuzz-*.log)
  execs=$(grep -h '^stat::number_of_executed_units' "${logs[@]}" | awk '{s+=$2} END {print s+0}')
  cov=$(grep -hE '^#[0-9]+' "${logs[@]}" | sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\).*/\1 \2/p' | sort -n | tail -1)
  crashes=$(ls fuzz/artifacts/"$t" 2>/dev/null | grep -c . || true)
  printf '%-15s %12s %8s %7s %8s %s (rc %s)\n' "$t" "$execs" "$secs" ${cov:-? ?} "$crashes" "$rc"
  [ "$JOBS" -gt 1 ] && mkdir -p "$WORK/$t-logs" && mv fuzz/fuzz-*.log "$WORK/$t-logs/"
  # Keep the smallest corpus with the same coverage.
  (cd fuzz && "$FUZZ" fuzz cmin -s none -a "$t" "$WORK/$t" -- -max_len=${MAX_LEN:-8192} > "$WORK/$t.cmin.log" 2>&1) || true
  tar --sort=name --owner=0 --group=0 --mtime=@0 -cJf "fuzz/corpus/$t.tar.xz" -C "$WORK/$t" .
  rm -rf "$WORK/$t-kept"
done
