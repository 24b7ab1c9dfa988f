#!/usr/bin/env bash
# Overhead of the rustc wrapper (rkbuild-rustc) against running rustc directly, side by side in
# one hyperfine run each: `rustc -vV` (a Kbuild probe) and compiling a small crate, without a
# log (the wrapper execs rustc) and with RKBUILD_LOG (it waits, times and appends a line).
# Goal (issue 6): <= 1 ms per call, ratio <= 1.02 on -vV; issue 20: own cost <= 0.3 ms.
# Then, by `perf stat -r PERF_RUNS` (default 500), `true` run directly and through each form
# of the wrapper: the link to rkbuild, the program rkbuild-rustc (cargo's build, and the same
# source built static by rustc), and the floor: a static C program that only execs (gcc).
#
#   benches/wrapper.sh [RUNS] [--hyperfine]   (default 40 runs per command; python3; hyperfine
#   for the optional second view; perf and gcc for the last part)
set -euo pipefail
RUNS=${1:-40}
cd "$(dirname "$0")/.."
REAL=${RKBUILD_TEST_RUSTC_185:-/usr/bin/rustc}
cargo build --release -q --bin rkbuild --bin rkbuild-rustc
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
ln -s "$PWD/target/release/rkbuild" "$W/rkbuild-rustc"
mkdir -p "$W/bin"
cp target/release/rkbuild-rustc "$W/bin/"
ln -s "$PWD/target/release/rkbuild" "$W/bin/rkbuild"
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

if [ "${2:-}" = "--hyperfine" ]; then
  # Hyperfine's view (all runs of one command, then the other: drifts on a busy machine).
  run() { # name, then the two commands
    local name=$1; shift
    hyperfine -N --warmup 3 --runs "$RUNS" -n rustc "$1" -n rkbuild-rustc "$2"
  }
  run vV        "$REAL -vV"     "$W/rkbuild-rustc -vV"
  run small     "$REAL $SMALL"  "$W/rkbuild-rustc $SMALL"
  RKBUILD_LOG=$W/calls.jsonl run vV-log "$REAL -vV" "$W/rkbuild-rustc -vV"
fi

# Interleaved pairs (rustc, wrapper, rustc, wrapper, ...) so that load on a shared machine hits
# both alike; the figure is the median of the per-pair differences.
python3 - "$W" "$RUNS" "$REAL" "$SMALL" <<'PY'
import os, statistics as st, subprocess, sys, time
w, runs, real, small = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4].split()
wrap = f"{w}/bin/rkbuild-rustc"  # the program, as cargo install puts it beside rkbuild
def t(cmd, env):
    s = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - s) * 1e3
base = dict(os.environ)
logged = dict(base, RKBUILD_LOG=f"{w}/calls.jsonl")
rows = []
print(f"rkbuild-rustc vs rustc: {runs} interleaved pairs per case (+3 warm-up), times in ms")
print(f"{'case':<24}{'rustc med':>10}{'wrapper med':>12}{'ratio':>8}{'overhead med':>14}{'p25..p75':>16}")
for label, args, env in [("-vV", ["-vV"], base), ("small crate", small, base),
                         ("-vV, RKBUILD_LOG", ["-vV"], logged), ("small crate, RKBUILD_LOG", small, logged)]:
    a, b = [], []
    for i in range(runs + 3):
        x, y = t([real] + args, env), t([wrap] + args, env)
        if i >= 3:
            a.append(x); b.append(y)
    d = sorted(y - x for x, y in zip(a, b))
    q = st.quantiles(d, n=4)
    ma, mb = st.median(a), st.median(b)
    print(f"{label:<24}{ma:>10.2f}{mb:>12.2f}{mb/ma:>8.3f}{st.median(d):>14.2f}{q[0]:>8.2f}..{q[2]:.2f}")
    if label == "-vV":
        rows.append(("RUSTC wrapper on rustc -vV (vs rustc directly)", mb, ma))
# The wrapper's own cost, without rustc's noise: `true` directly vs through the wrapper.
tru = "/bin/true" if os.path.exists("/bin/true") else "/usr/bin/true"
for label, env in [("own cost (exec)", dict(base, RKBUILD_RUSTC=tru)),
                   ("own cost (RKBUILD_LOG)", dict(logged, RKBUILD_RUSTC=tru))]:
    a, b = [], []
    for i in range(max(runs, 200) + 10):
        x, y = t([tru, "-vV"], env), t([wrap, "-vV"], env)
        if i >= 10:
            a.append(x); b.append(y)
    d = sorted(y - x for x, y in zip(a, b))
    q = st.quantiles(d, n=4)
    print(f"{label:<24}{st.median(a):>10.2f}{st.median(b):>12.2f}{'':>8}{st.median(d):>14.2f}{q[0]:>8.2f}..{q[2]:.2f}")
    if label == "own cost (exec)":
        rows.append(("RUSTC wrapper running true (vs true directly)", st.median(b), st.median(a)))
print(f"log lines written: {sum(1 for _ in open(f'{w}/calls.jsonl'))}")
if os.environ.get("BENCH_ROWS"):
    with open(os.environ["BENCH_ROWS"], "a") as f:
        for what, rk, alt in rows:
            f.write(f"{what}\t{rk:.3f}\t{alt:.3f}\tms\n")
PY

command -v perf >/dev/null || { echo "perf not found (Debian's linux-perf): own cost by perf stat not measured" >&2; exit 1; }
command -v gcc >/dev/null || { echo "gcc not found: the floor (a static C exec) not measured" >&2; exit 1; }
printf '#include <stdlib.h>\n#include <unistd.h>\nint main(int c, char **v) { v[0] = getenv("RKBUILD_RUSTC"); execv(v[0], v); return 127; }\n' > "$W/floor.c"
gcc -O2 -static -o "$W/floor" "$W/floor.c"
mkdir -p "$W/static"
rustc --edition=2021 -O -C panic=abort -C target-feature=+crt-static \
  -o "$W/static/rkbuild-rustc" src/bin/rkbuild-rustc.rs
ln -s "$PWD/target/release/rkbuild" "$W/static/rkbuild"
TRUE=/bin/true; [ -x "$TRUE" ] || TRUE=/usr/bin/true
export RKBUILD_RUSTC=$TRUE
unset RKBUILD_LOG
N=${PERF_RUNS:-500}
ms() { perf stat -r "$N" "$@" -vV 2>&1 >/dev/null | awk '/seconds time elapsed/ {printf "%.3f", $1 * 1000}'; }
echo "own cost by perf stat -r $N (ms per call; true as the compiler)"
printf '%-44s %9s %9s\n' form "ms" "own cost"
t0=$(ms "$TRUE")
printf '%-44s %9s %9s\n' "true, directly" "$t0" ""
for f in "floor: static C execv|$W/floor" "rkbuild-rustc, static (rustc crt-static)|$W/static/rkbuild-rustc" \
         "rkbuild-rustc (cargo build --release)|$W/bin/rkbuild-rustc" "link rkbuild-rustc -> rkbuild|$W/rkbuild-rustc"; do
  t=$(ms "${f#*|}")
  printf '%-44s %9s %9s\n' "${f%%|*}" "$t" "$(awk -v a="$t" -v b="$t0" 'BEGIN {printf "%.3f", a - b}')"
done
