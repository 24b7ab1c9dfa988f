# Sourced by the cache benchmarks: a fresh BuildGrid (installed by scripts/install-deps.sh) on
# a free port of 127.0.0.1 with disk storage under $WORK, stopped at exit; its URL in $REMOTE.
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
BG=$WORK/bgd-$PORT
mkdir -p "$BG"
sed -e "s|@PORT@|$PORT|" -e "s|@STORAGE@|$BG/storage|" tests/fixtures/buildgrid.yml > "$BG/config.yml"
"$RKBUILD_TEST_BGD" server start "$BG/config.yml" >"$BG/log" 2>&1 &
BGD_PIDS="${BGD_PIDS:-} $!"
trap 'kill $BGD_PIDS 2>/dev/null || true' EXIT
until "$RKBUILD_TEST_BGD" capabilities --remote "http://127.0.0.1:$PORT" >/dev/null 2>&1; do sleep 0.3; done
REMOTE=grpc://127.0.0.1:$PORT

# cache_runs RUNS BASE BUILD-ARGS...: the three builds the cache benchmarks compare, each into
# a fresh object tree (a copy of BASE when it is not empty): cold with an empty cache, from the
# warm local cache ($WORK/warm), and from the server alone with an empty local cache; then
# each as a share of the cold wall. Fills the warm caches first.
cache_runs() {
    local runs=$1 base=$2; shift 2
    local args="$*" copy=""
    rm -rf "$WORK/fill" "$WORK/warm"
    if [ -n "$base" ]; then cp -a "$base" "$WORK/fill"; copy=" && cp -a $base"; fi
    # shellcheck disable=SC2086
    $RK build $args -O "$WORK/fill" -j2 -q --cache-dir "$WORK/warm" --remote "$REMOTE"
    hyperfine --runs "$runs" --export-json "$WORK/cache.json" \
        -n "cold (empty cache)" \
        --prepare "rm -rf $WORK/a $WORK/empty${copy:+$copy $WORK/a}" \
        "$RK build $args -O $WORK/a -j2 -q --cache-dir $WORK/empty" \
        -n "another tree, warm cache" \
        --prepare "rm -rf $WORK/b${copy:+$copy $WORK/b}" \
        "$RK build $args -O $WORK/b -j2 -q --cache-dir $WORK/warm" \
        -n "another machine, REAPI only" \
        --prepare "rm -rf $WORK/r $WORK/r-local${copy:+$copy $WORK/r}" \
        "$RK build $args -O $WORK/r -j2 -q --cache-dir $WORK/r-local --remote $REMOTE"
    python3 - "$WORK/cache.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
cold = r["cold (empty cache)"]["median"]
print(f"cold:                   median {cold:.1f} s")
for name in ["another tree, warm cache", "another machine, REAPI only"]:
    m = r[name]["median"]
    print(f"{name + ':':<23} median {m:.2f} s = {m / cold * 100:.1f}% of the cold wall (same run)")
PY
}
