#!/usr/bin/env bash
# Benchmark: `rkbuild analyzer` vs the kernel's `make rust-analyzer` on the 6.12 tree, same run,
# same objtree; also checks that both wrote the same crates (drivers compared as a set, since the
# kernel lists them in filesystem order). Usage:
#   source /var/cache/rkbuild-ci/env.sh; benches/analyzer.sh [RUNS]
# Needs an objtree configured by the kernel (created on first use in $OBJ, ~1 min).
set -euo pipefail
RUNS=${1:-10}
S=${RKBUILD_TEST_LINUX_612:?source /var/cache/rkbuild-ci/env.sh}
OBJ=${RKBUILD_BENCH_OBJTREE:-/tmp/rkbuild-bench-612}
RUSTC=${RKBUILD_TEST_RUSTC_185:-/usr/bin/rustc}
LIB=${RKBUILD_TEST_LIB_185:-/usr/src/rustc-1.85.0/library}
export LIBCLANG_PATH=${RKBUILD_TEST_LIBCLANG_PATH:-/usr/lib/llvm-14/lib}
M=(make -s -C "$S" O="$OBJ" LLVM=-14 RUSTC="$RUSTC" RUSTDOC="${RUSTC%c}doc" BINDGEN="${RKBUILD_TEST_BINDGEN:-bindgen}" RUST_LIB_SRC="$LIB")
here=$(cd "$(dirname "$0")/.." && pwd)

if [ ! -f "$OBJ/include/generated/rustc_cfg" ]; then
  echo "preparing $OBJ (defconfig + Rust samples, as in the oracle README)"
  mkdir -p "$OBJ"
  "${M[@]}" defconfig >/dev/null
  "$S/scripts/config" --file "$OBJ/.config" --enable RUST --disable MODVERSIONS \
    --enable SAMPLES --enable SAMPLES_RUST --module SAMPLE_RUST_MINIMAL --enable SAMPLE_RUST_PRINT
  "${M[@]}" olddefconfig >/dev/null
  "${M[@]}" syncconfig >/dev/null
fi

cargo build -q --release --bin rkbuild --manifest-path "$here/Cargo.toml"
RK="$here/target/release/rkbuild"
ours="$OBJ/rkbuild-rust-project.json"

now() { date +%s%N; }
t_make=0; t_rk=0
for _ in $(seq "$RUNS"); do
  a=$(now); "${M[@]}" rust-analyzer; b=$(now)
  RUSTC="$RUSTC" RUST_LIB_SRC="$LIB" "$RK" -q analyzer -S "$S" -O "$OBJ" -o "$ours"; c=$(now)
  t_make=$((t_make + b - a)); t_rk=$((t_rk + c - b))
done

python3 - "$OBJ/rust-project.json" "$ours" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
# rkbuild's one addition: drivers carry Kbuild's -Zcrate-attr=no_std as crate_attrs.
for c in b["crates"]:
    c.pop("crate_attrs", None)
key = lambda c: json.dumps(c, sort_keys=True)
fixed = [c for c in a["crates"] if "/samples/" not in c["root_module"] and "/drivers/" not in c["root_module"] and "/scripts/" not in c["root_module"]]
n = len(fixed)
same = (a["sysroot"] == b["sysroot"] and a["crates"][:n] == b["crates"][:n]
        and sorted(map(key, a["crates"][n:])) == sorted(map(key, b["crates"][n:])))
print(f"content: {'same' if same else 'DIFFERENT'} ({len(a['crates'])} vs {len(b['crates'])} crates)")
sys.exit(0 if same else 1)
PY
ms() { echo "scale=1; $1 / $RUNS / 1000000" | bc; }
echo "make rust-analyzer: $(ms $t_make) ms/run"
echo "rkbuild analyzer:   $(ms $t_rk) ms/run"
echo "ratio: $(echo "scale=1; $t_make / $t_rk" | bc)x faster (goal >= 20x), $RUNS runs each"
