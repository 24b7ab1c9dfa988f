#!/usr/bin/env bash
# Overhead of the rustc wrapper (rkbuild-rustc) against running rustc directly, side by side in
# one hyperfine run each: `rustc -vV` (a Kbuild probe) and compiling a small crate, without a
# log (the wrapper execs rustc) and with RKBUILD_LOG (it waits, times and appends a line).
# Goal (issue 6): <= 1 ms per call, ratio <= 1.02 on -vV.
#
#   benches/wrapper.sh [RUNS]      (default 40 runs per command; needs hyperfine, python3)
set -euo pipefail
RUNS=${1:-40}
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "hyperfine is needed (scripts/install-deps.sh installs it)" >&2; exit 1; }
REAL=${RKBUILD_TEST_RUSTC_185:-/usr/bin/rustc}
cargo build --release -q --bin rkbuild
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
ln -s "$PWD/target/release/rkbuild" "$W/rkbuild-rustc"
export RKBUILD_RUSTC=$REAL
unset RKBUILD_LOG RKBUILD_CLIPPY CLIPPY KBUILD_CLIPPY

# A small no_std crate: a few generic functions and a trait, ~0.2 s to compile.
cat > "$W/small.rs" <<'RS'
#![no_std]
pub trait Shape { fn area(&self) -> u64; fn name(&self) -> &'static str; }
pub struct Sq(pub u64); pub struct Rect(pub u64, pub u64);
impl Shape for Sq { fn area(&self) -> u64 { self.0 * self.0 } fn name(&self) -> &'static str { "sq" } }
impl Shape for Rect { fn area(&self) -> u64 { self.0 * self.1 } fn name(&self) -> &'static str { "rect" } }
pub fn total<S: Shape>(s: &[S]) -> u64 { s.iter().map(Shape::area).sum() }
pub fn fib(n: u32) -> u64 { let (mut a, mut b) = (0u64, 1u64); for _ in 0..n { let t = a.wrapping_add(b); a = b; b = t; } a }
pub fn crc(data: &[u8]) -> u32 { let mut c = !0u32; for &b in data { c ^= b as u32; for _ in 0..8 { c = if c & 1 != 0 { (c >> 1) ^ 0xEDB8_8320 } else { c >> 1 }; } } !c }
RS
SMALL="--edition=2021 --crate-type=rlib --crate-name=small -Copt-level=2 --out-dir $W/out $W/small.rs"
mkdir -p "$W/out"

run() { # name, extra env, then the two commands
  local name=$1; shift
  hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$W/$name.json" \
    -n rustc "$1" -n rkbuild-rustc "$2" >/dev/null
}
run vV          "$REAL -vV"     "$W/rkbuild-rustc -vV"
run small       "$REAL $SMALL"  "$W/rkbuild-rustc $SMALL"
export RKBUILD_LOG=$W/calls.jsonl
run vV-log      "$REAL -vV"     "$W/rkbuild-rustc -vV"
run small-log   "$REAL $SMALL"  "$W/rkbuild-rustc $SMALL"
unset RKBUILD_LOG

python3 - "$W" "$RUNS" <<'PY'
import json, sys, statistics as st
w, runs = sys.argv[1], sys.argv[2]
print(f"rkbuild-rustc overhead ({runs} runs each, hyperfine -N, same run side by side)")
print(f"{'case':<22}{'rustc ms':>10}{'wrapper ms':>12}{'ratio':>8}{'overhead ms':>13}{'median ratio':>14}")
for name, label in [("vV", "-vV"), ("small", "small crate"), ("vV-log", "-vV, RKBUILD_LOG"), ("small-log", "small crate, LOG")]:
    r = {x["command"]: x for x in json.load(open(f"{w}/{name}.json"))["results"]}
    a, b = r["rustc"], r["rkbuild-rustc"]
    ma, mb = a["mean"] * 1e3, b["mean"] * 1e3
    meda, medb = st.median(a["times"]), st.median(b["times"])
    print(f"{label:<22}{ma:>10.2f}{mb:>12.2f}{mb/ma:>8.3f}{mb-ma:>13.2f}{medb/meda:>14.3f}")
lines = sum(1 for _ in open(f"{w}/calls.jsonl"))
print(f"log lines written: {lines}")
PY
