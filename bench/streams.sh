#!/usr/bin/env bash
# Event-stream benchmark of the halma service: the memory an idle stream holds, and the time
# from a move's acknowledgement to its event at 1, 100 and 1000 listeners of one game.
#
# Builds the release server and the `streams` binary of bench/loadgen, starts the server on a
# free local port (STORE=memory, the default, or STORE=redis with a private redis-server), runs
# the measurements and stops everything it started on exit.
#
# Settings (environment): STORE (memory), IDLE streams (2000) over IDLE_GAMES games (20),
# LISTENERS (1,100,1000), MOVES per listener count (20), SERVER_BIN to measure another build.
set -euo pipefail

cd "$(dirname "$0")/.."
STORE=${STORE:-memory}
IDLE=${IDLE:-2000}
IDLE_GAMES=${IDLE_GAMES:-20}
LISTENERS=${LISTENERS:-1,100,1000}
MOVES=${MOVES:-20}
SERVER_BIN=${SERVER_BIN:-}

# Every stream is a connection on both ends.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

SERVER_PID=""
REDIS_PORT=""
cleanup() {
  trap - EXIT INT TERM
  if [[ -n $SERVER_PID ]]; then kill -TERM "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  if [[ -n $REDIS_PORT ]]; then redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT INT TERM

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

if [[ -z $SERVER_BIN ]]; then
  cargo build --release -q -p halma-server
  SERVER_BIN=target/release/halma-server
fi
cargo build --release -q -p halma-loadgen --bin streams

ENV=()
if [[ $STORE == redis ]]; then
  REDIS_PORT=$(free_port)
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --logfile /dev/null
  ENV+=("REDIS_URL=redis://127.0.0.1:$REDIS_PORT")
fi
HTTP_PORT=$(free_port)
env "${ENV[@]}" HALMA_BIND="127.0.0.1:$HTTP_PORT" HALMA_LOG=warn HALMA_MAX_STREAMS=100000 HALMA_RATE_LIMITS="${HALMA_RATE_LIMITS:-off}" \
  "$SERVER_BIN" &
SERVER_PID=$!
BASE="http://127.0.0.1:$HTTP_PORT"
for _ in $(seq 100); do curl -fsS "$BASE/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fsS "$BASE/readyz" >/dev/null

echo "store: $STORE, server $SERVER_BIN (pid $SERVER_PID)"
target/release/streams --url "$BASE" --server-pid "$SERVER_PID" --idle "$IDLE" \
  --idle-games "$IDLE_GAMES" --listeners "$LISTENERS" --moves "$MOVES"
