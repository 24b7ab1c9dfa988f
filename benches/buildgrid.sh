# Sourced by the cache benchmarks: a fresh BuildGrid (installed by scripts/install-deps.sh) on
# a free port of 127.0.0.1 with disk storage under $WORK, stopped at exit; its URL in $REMOTE.
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
BG=$WORK/bgd-$PORT
mkdir -p "$BG"
cat > "$BG/config.yml" <<YML
server:
  - !channel
    address: "127.0.0.1:$PORT"
    insecure-mode: true
storages:
  - !disk-storage &cas
    path: $BG/storage
caches:
  - !lru-action-cache &ac
    storage: *cas
    max-cached-refs: 100000
    allow-updates: true
    cache-failed-actions: false
instances:
  - name: ""
    services:
      - !action-cache
        cache: *ac
      - !cas
        storage: *cas
      - !bytestream
        storage: *cas
YML
"$RKBUILD_TEST_BGD" server start "$BG/config.yml" >"$BG/log" 2>&1 &
BGD_PIDS="${BGD_PIDS:-} $!"
trap 'kill $BGD_PIDS 2>/dev/null || true' EXIT
until "$RKBUILD_TEST_BGD" capabilities --remote "http://127.0.0.1:$PORT" >/dev/null 2>&1; do sleep 0.3; done
REMOTE=grpc://127.0.0.1:$PORT
