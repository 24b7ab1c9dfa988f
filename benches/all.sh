#!/usr/bin/env bash
# Every benchmark of issue 20's table, one after the other, then one table: rkbuild's figure,
# the alternative's (measured in the same run by the same script) and their ratio
# (alternative / rkbuild: above 1 is rkbuild faster). Each script also prints its own detail.
#
#   benches/all.sh [--with-73]    (the 7.3 cold build adds about 10 minutes)
#
# Needs scripts/install-deps.sh done; the 6.12 rows build make-prepared object trees first.
set -euo pipefail
cd "$(dirname "$0")/.."
export BENCH_ROWS
BENCH_ROWS=$(mktemp /tmp/rkbuild-bench-rows.XXXX)
trap 'rm -f "$BENCH_ROWS"' EXIT
run() { echo "== $*"; "$@" || { echo "benchmark failed: $*" >&2; exit 1; }; }
run bash benches/config_vs_syncconfig.sh 7
RUNS=3 run bash benches/kconfig.sh
run bash benches/wrapper.sh 40
run bash benches/build.sh
run bash benches/build_cold.sh 612 3
[ "${1:-}" = "--with-73" ] && run bash benches/build_cold.sh 73 3
echo
python3 - "$BENCH_ROWS" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
w = max(len(r[0]) for r in rows)
print(f"{'what':<{w}}  {'rkbuild':>12}  {'alternative':>12}  {'ratio':>8}")
for what, rk, alt, unit in rows:
    rk, alt = float(rk), float(alt)
    print(f"{what:<{w}}  {rk:>9.3f} {unit:<2}  {alt:>9.3f} {unit:<2}  {alt / rk:>7.2f}x")
PY
