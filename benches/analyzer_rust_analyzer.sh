#!/usr/bin/env bash
# What the real rust-analyzer makes of a rust-project.json: crates loaded and inference figures
# (`analysis-stats`, without --skip-inference), and diagnostics counted by kind (`diagnostics`):
# unresolved imports (E0432, unresolved-extern-crate), unresolved names (E0425/E0433/E0412,
# unresolved-macro-call), failed macro expansions (macro-error, unresolved-proc-macro).
# Usage: benches/analyzer_rust_analyzer.sh LABEL DIR_WITH_RUST_PROJECT_JSON...  (pairs)
# RA_PROC_MACRO_SRV: the proc-macro server matching the rustc that built libmacros.so.
set -euo pipefail
RA=${RKBUILD_TEST_RUST_ANALYZER:?source /var/cache/rkbuild-ci/env.sh}
printf '%-28s %7s %8s %10s %10s %10s %8s %9s\n' project crates load_s exprs '??ty' unres_imp unres_nm macro_fail
while [ $# -ge 2 ]; do
  label=$1 dir=$2; shift 2
  s=$(mktemp); d=$(mktemp)
  start=$(date +%s.%N)
  srv=(); [ -n "${RA_PROC_MACRO_SRV:-}" ] && srv=(--proc-macro-srv "$RA_PROC_MACRO_SRV")
  "$RA" analysis-stats "$dir" "${srv[@]}" >"$s" 2>&1 || true
  end=$(date +%s.%N)
  "$RA" diagnostics "$dir" "${srv[@]}" >"$d" 2>&1 || true
  crates=$(grep -o 'crates: [0-9]*' "$s" | head -1 | cut -d' ' -f2)
  exprs=$(grep -o 'exprs: [0-9]*, ??ty: [0-9]*' "$s" | head -1)
  imp=$(grep -c '^at crate .*\("E0432"\|unresolved-extern-crate\)' "$d" || true)
  nm=$(grep -c '^at crate .*\("E0425"\|"E0433"\|"E0412"\|unresolved-macro-call\)' "$d" || true)
  mac=$(grep -c '^at crate .*\(macro-error\|unresolved-proc-macro\)' "$d" || true)
  printf '%-28s %7s %8.1f %10s %10s %10s %8s %9s\n' "$label" "${crates:-?}" "$(echo "$end - $start" | bc)" \
    "$(echo "$exprs" | cut -d' ' -f2 | tr -d ,)" "$(echo "$exprs" | cut -d' ' -f4)" "$imp" "$nm" "$mac"
  cp "$s" "/tmp/ra-stats-$label.txt"; cp "$d" "/tmp/ra-diag-$label.txt"; rm -f "$s" "$d"
done
