# Sourced by the benchmarks: `bench_row WHAT RKBUILD ALTERNATIVE UNIT` records one row of
# benches/all.sh's table (rkbuild's figure and the alternative's, measured in the same run) in
# the file $BENCH_ROWS names; without BENCH_ROWS it does nothing.
bench_row() {
  [ -n "${BENCH_ROWS:-}" ] || return 0
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >> "$BENCH_ROWS"
}
