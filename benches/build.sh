#!/usr/bin/env bash
# Benchmarks of `rkbuild build` (figures are ratios measured in the same run):
#  1. cold build of the bundled example tree with -j2: wall time vs the sum and the critical
#     path of the steps' own times (goal: wall <= 1.05 x critical path);
#  2. no-op rebuild of the real Debian 6.12 tree: `rkbuild build` vs the kernel's
#     `make prepare samples/rust/` with nothing to do (goal: rkbuild >= 20x faster).
#     Part 2 needs a 6.12 object tree prepared by make (3-4 minutes on 2 cores); the script
#     makes one under $WORK unless PREPARED_O points to one (made with the recipe in
#     ../shared/oracle/README.md). It also checks that rkbuild ran make's exact commands and
#     produced objects with the same defined symbols.
# Usage: benches/build.sh [--skip-612]
set -euo pipefail
source "$(dirname "$0")/setup-185.sh"
# The 6.12 tree's C side is built with clang-14 (helpers.o), as make built the reference.
export LLVM=-14
WORK=${WORK:-/tmp/rkbuild-bench-build}
mkdir -p "$WORK"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# Timestamps from bash itself ($EPOCHREALTIME): a `date` process per timestamp added ~2 ms to every rkbuild figure.

echo "== 1. cold build of examples/minikernel (x86_64, -j2)"
rm -rf "$WORK/mk"
$RK build -S examples/minikernel -O "$WORK/mk" --config examples/minikernel/configs/x86_64.config \
    -j2 --message-format json > "$WORK/cold.json"
python3 - "$WORK/cold.json" <<'PY'
import json, sys
f = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
s = [m for m in f if m.get("reason") == "build-finished"][0]
w, c, t = s["wall_ms"], s["critical_path_ms"], s["sum_ms"]
print(f"wall {w} ms, critical path {c} ms, sum of steps {t} ms")
print(f"wall / critical path = {w / c:.3f} (goal <= 1.05); sum / wall = {t / w:.2f} (parallelism)")
PY
for i in 1 2 3 4 5; do
    t0=$EPOCHREALTIME; $RK build -S examples/minikernel -O "$WORK/mk" \
        --config examples/minikernel/configs/x86_64.config -q >/dev/null; t1=$EPOCHREALTIME
    echo "$t1 - $t0" | bc
done | median | xargs printf "example tree no-op: %.3f s (median of 5)\n"

[ "${1:-}" = "--skip-612" ] && exit 0

echo "== 2. the real 6.12 tree"
S=$RKBUILD_TEST_LINUX_612
O=${PREPARED_O:-$WORK/612-make}
M="make -s -C $S O=$O LLVM=-14 RUSTC=$RUSTC RUSTDOC=/usr/bin/rustdoc BINDGEN=$BINDGEN RUST_LIB_SRC=$RUST_LIB_SRC"
if [ ! -f "$O/rust/kernel.o" ]; then
    mkdir -p "$O"
    cp ../shared/oracle/linux-6.12/x86_64-defconfig-rust/config "$O/.config"
    $M olddefconfig
    $M -j2 prepare
    $M -j2 samples/rust/
fi
O2=$WORK/612-rkbuild
rm -rf "$O2"; cp -a "$O" "$O2"; rm -rf "$O2/rust" "$O2/samples"
t0=$EPOCHREALTIME
$RK build -S "$S" -O "$O2" --hostcc clang-14 -j2 --message-format json > "$WORK/612.json"
t1=$EPOCHREALTIME
echo "rkbuild cold build of the 6.12 Rust side: $(echo "$t1 - $t0" | bc) s"
$RK plan -S "$S" -O "$O2" --hostcc clang-14 --message-format json > "$WORK/612-plan.json"
python3 - "$WORK/612-plan.json" "$O" "$O2" <<'PY'
import json, os, shlex, subprocess, sys
plan = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])["plan"]
O, O2 = sys.argv[2], sys.argv[3]
same = diff = 0
for st in plan["steps"]:
    c = st["command"]
    d, f = os.path.split(st["id"])
    if c and not os.path.exists(f"{O}/{d}/.{f}.cmd"):
        print(f"(make's tree has no {st['id']}: not compared)")
        continue
    if c:
        line = [l for l in open(f"{O}/{d}/.{f}.cmd") if l.startswith("savedcmd_")][0].split(" := ", 1)[1]
        w = shlex.split(line)
        w = w[: next((i for i, x in enumerate(w) if x.startswith(";")), len(w))]
        env = []
        while "=" in w[0] and w[0].split("=")[0].isupper():
            env.append(w.pop(0))
        w.pop(0)
        ok = [a.replace(O2, O) for a in c["args"]] == w and \
             [f"{k}={v.replace(O2, O)}" for k, v in c["env"]] == env
    else:
        ok = open(f"{O}/{st['id']}").read() == open(f"{O2}/{st['id']}").read()
    if st["id"].endswith(".o"):
        nm = lambda p: sorted(subprocess.run(["llvm-nm-14", "-p", "--defined-only", p],
                                             capture_output=True, text=True).stdout.splitlines())
        ok = ok and nm(f"{O}/{st['id']}") == nm(f"{O2}/{st['id']}")
    same += ok; diff += not ok
    print(("same " if ok else "DIFF ") + st["id"])
print(f"{same} steps identical to make's (command line, defined symbols, exports), {diff} differ")
PY
for i in 1 2 3; do
    t0=$EPOCHREALTIME; $M -j2 prepare samples/rust/ >/dev/null; t1=$EPOCHREALTIME; echo "$t1 - $t0" | bc
done | median > "$WORK/make-noop"
for i in 1 2 3 4 5; do
    t0=$EPOCHREALTIME; $RK build -S "$S" -O "$O2" --hostcc clang-14 -q >/dev/null; t1=$EPOCHREALTIME; echo "$t1 - $t0" | bc
done | median > "$WORK/rk-noop"
python3 -c "
m=float(open('$WORK/make-noop').read()); r=float(open('$WORK/rk-noop').read())
print(f'no-op: make prepare samples/rust/ {m:.3f} s, rkbuild build {r:.3f} s: {m/r:.1f}x faster (goal >= 20x)')"
source benches/rows.sh
bench_row "no-op build, 6.12 (vs make prepare samples/rust/)" "$(cat "$WORK/rk-noop")" "$(cat "$WORK/make-noop")" s
