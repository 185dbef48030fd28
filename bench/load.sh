#!/usr/bin/env bash
# Load benchmark of the halma service on the Redis store.
#
# Builds the release server and the load generator (bench/loadgen), starts a private
# redis-server and the server on free local ports, measures redis-benchmark's GET rate (the
# ceiling: a bare Redis GET with no HTTP, no JSON and no game logic), then runs the scenarios
# of the load generator (by default the three of read a game, list moves, post moves) and
# prints a summary. Everything it started is stopped on exit, also on failure or Ctrl-C.
#
# Settings (environment): CONNECTIONS (32), DURATION seconds per scenario (10), WARMUP (1),
# GAMES (64), PLIES played into each read game (20), PLAYERS of every game created (2; 3, 4
# or 6 for star games of more players, so that the suggest scenario measures their AI),
# THREADS of the load generator (2),
# SCENARIOS (get,moves,play; `suggest` and `health`, the floor of a request that touches no
# store, may be added or run alone), PERF=1 to profile the server
# with `perf record` in a second pass (one pass per scenario, after the measured one), OUT
# directory (target/loadbench), SERVER_BIN to measure another build of the server (A/B
# comparisons) instead of building it.
#
# The suggest scenario asks GET /v1/games/{id}/suggestion?level=10&time_ms=SUGGEST_MS (200) on
# GAMES games with SUGGEST_PLIES (40) plies played, never plays the move, and reports how many
# answers came later than the budget + 50 ms and + 100 ms. The server's cap on the budget,
# HALMA_AI_MAX_MS (2000), is passed on from the environment like every HALMA_ setting.
# The rate limits are off (HALMA_RATE_LIMITS=off) unless set: the generator is one client
# address at full speed.
#   SCENARIOS=suggest CONNECTIONS=8 SUGGEST_MS=50 bench/load.sh
#
# The load generator runs on the same machine as the server and Redis: on a small machine they
# share the cores, so the figures are a lower bound of what the server does on its own.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD

CONNECTIONS=${CONNECTIONS:-32}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-1}
GAMES=${GAMES:-64}
PLIES=${PLIES:-20}
PLAYERS=${PLAYERS:-2}
THREADS=${THREADS:-2}
SCENARIOS=${SCENARIOS:-get,moves,play}
SUGGEST_MS=${SUGGEST_MS:-200}
SUGGEST_PLIES=${SUGGEST_PLIES:-40}
PERF=${PERF:-0}
SERVER_BIN=${SERVER_BIN:-}
OUT=${OUT:-$ROOT/target/loadbench}
mkdir -p "$OUT"
STAMP=$(date +%Y%m%d-%H%M%S)
RESULT="$OUT/result-$STAMP.md"

for tool in redis-server redis-cli redis-benchmark curl; do
  command -v "$tool" >/dev/null || { echo "load.sh: $tool is missing (apt-get install redis-server curl)" >&2; exit 1; }
done

REDIS_PORT=""
SERVER_PID=""
PERF_PID=""
LOADGEN_PID=""

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [[ -n $LOADGEN_PID ]] && kill -0 "$LOADGEN_PID" 2>/dev/null; then
    kill -TERM "$LOADGEN_PID" 2>/dev/null || true
    wait "$LOADGEN_PID" 2>/dev/null || true
  fi
  if [[ -n $PERF_PID ]] && kill -0 "$PERF_PID" 2>/dev/null; then
    kill -INT "$PERF_PID" 2>/dev/null || true
    wait "$PERF_PID" 2>/dev/null || true
  fi
  if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [[ -n $REDIS_PORT ]]; then
    redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
    if [[ -f $OUT/redis.pid ]]; then
      local pid
      pid=$(cat "$OUT/redis.pid")
      for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null || true
      rm -f "$OUT/redis.pid"
    fi
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

echo "== build (release)"
if [[ -z $SERVER_BIN ]]; then
  cargo build --release -p halma-server
  SERVER_BIN=$ROOT/target/release/halma-server
fi
cargo build --release -p halma-loadgen
LOADGEN_BIN=$ROOT/target/release/loadgen

echo "== private redis-server"
REDIS_PORT=$(free_port)
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
  --pidfile "$OUT/redis.pid" --logfile "$OUT/redis.log" --dir "$OUT"
for _ in $(seq 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
redis-cli -p "$REDIS_PORT" ping >/dev/null

echo "== server"
HTTP_PORT=$(free_port)
BASE=http://127.0.0.1:$HTTP_PORT
REDIS_URL=redis://127.0.0.1:$REDIS_PORT HALMA_BIND=127.0.0.1:$HTTP_PORT HALMA_LOG=warn HALMA_RATE_LIMITS="${HALMA_RATE_LIMITS:-off}" \
  "$SERVER_BIN" >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 100); do
  curl -fsS "$BASE/readyz" >/dev/null 2>&1 && break
  kill -0 "$SERVER_PID" 2>/dev/null || { echo "load.sh: the server exited:" >&2; cat "$OUT/server.log" >&2; exit 1; }
  sleep 0.1
done
curl -fsS "$BASE/readyz" >/dev/null

{
  echo "# halma load benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo
  echo "- machine: $(nproc) cores, $(uname -sr); load generator, server and Redis on the same cores"
  echo "- settings: $CONNECTIONS connections, $DURATION s per scenario after $WARMUP s warm-up, $GAMES games of $PLAYERS players with $PLIES plies for the reads, $THREADS load generator threads"
  if [[ ,$SCENARIOS, == *,suggest,* ]]; then
    echo "- suggest: level 10, time_ms=$SUGGEST_MS, $GAMES games of $PLAYERS players with $SUGGEST_PLIES plies, HALMA_AI_MAX_MS=${HALMA_AI_MAX_MS:-2000 (default)}"
  fi
  echo "- uptime before: $(uptime)"
} | tee "$RESULT"

echo "== redis-benchmark GET (the ceiling)"
REDIS_BENCH=$(redis-benchmark -p "$REDIS_PORT" -t get -n 200000 -q 2>&1 | tr '\r' '\n' | grep -E '^GET: .*requests per second' | tail -1)
echo "$REDIS_BENCH"

REDIS_PID=$(cat "$OUT/redis.pid")
# A suggestion may wait for a search slot: leave it twice its budget and a second (5 s at least).
TIMEOUT_MS=$(( SUGGEST_MS * 2 + 1000 > 5000 ? SUGGEST_MS * 2 + 1000 : 5000 ))
LOADGEN_ARGS=(--url "$BASE" --connections "$CONNECTIONS" --duration "$DURATION" --warmup "$WARMUP"
  --games "$GAMES" --plies "$PLIES" --players "$PLAYERS" --threads "$THREADS" --watch "server=$SERVER_PID" --watch "redis=$REDIS_PID"
  --suggest-ms "$SUGGEST_MS" --suggest-plies "$SUGGEST_PLIES" --timeout-ms "$TIMEOUT_MS")

echo "== load generator (about $(( (WARMUP + DURATION) * $(tr ',' '\n' <<<"$SCENARIOS" | wc -l) )) s of load)"
# In the background, so that a signal stops it at once (the trap kills it).
"$LOADGEN_BIN" "${LOADGEN_ARGS[@]}" --scenarios "$SCENARIOS" --json >"$OUT/loadgen-$STAMP.txt" 2>&1 &
LOADGEN_PID=$!
if ! wait "$LOADGEN_PID"; then
  LOADGEN_PID=""
  echo "load.sh: the load generator failed:" >&2
  cat "$OUT/loadgen-$STAMP.txt" >&2
  exit 1
fi
LOADGEN_PID=""
grep -v '^{' "$OUT/loadgen-$STAMP.txt"
UPTIME_AFTER=$(uptime)
SERVER_HWM=$(awk '/^VmHWM/ {print $2, $3}' "/proc/$SERVER_PID/status" 2>/dev/null || echo unknown)

{
  echo
  echo "## Figures"
  echo
  grep -E '^\|' "$OUT/loadgen-$STAMP.txt"
  echo
  grep -E '^\[play\] games' "$OUT/loadgen-$STAMP.txt" || true
  grep -E '^\[suggest\] (budget|search|first failed)' "$OUT/loadgen-$STAMP.txt" | sed 's/^/- /' || true
  grep -E '^setup: .* suggest scenario' "$OUT/loadgen-$STAMP.txt" | sed 's/^/- /' || true
  echo
  echo "CPU during each measured phase (cores busy; CPU time per answered request):"
  echo
  grep -E '^\[[a-z]+\] CPU' "$OUT/loadgen-$STAMP.txt" | sed 's/^/- /' || true
  echo
  echo "Ceiling, redis-benchmark -t get -n 200000 (50 clients) on the same Redis in the same run:"
  echo "\`$REDIS_BENCH\`"
  echo
  echo "- server's peak resident memory (VmHWM): $SERVER_HWM"
  echo "- uptime after: $UPTIME_AFTER"
} | tee -a "$RESULT"

if [[ $PERF == 1 ]]; then
  command -v perf >/dev/null || { echo "load.sh: perf is missing" >&2; exit 1; }
  echo "== profile pass (perf record on the server, one scenario at a time)"
  IFS=, read -r -a LIST <<<"$SCENARIOS"
  for scenario in "${LIST[@]}"; do
    data=$OUT/perf-$scenario.data
    log=$OUT/loadgen-perf-$scenario.txt
    "$LOADGEN_BIN" "${LOADGEN_ARGS[@]}" --scenarios "$scenario" >"$log" 2>&1 &
    LOADGEN_PID=$!
    # The read scenarios first create their games: profile only the warm-up and measured time.
    if [[ $scenario != play ]]; then
      for _ in $(seq 1200); do
        grep -q '^setup:' "$log" && break
        kill -0 "$LOADGEN_PID" 2>/dev/null || break
        sleep 0.1
      done
    fi
    perf record -q -e cpu-clock -F 499 --call-graph dwarf,16384 -p "$SERVER_PID" -o "$data" \
      -- sleep "$((WARMUP + DURATION))" >"$OUT/perf-$scenario.log" 2>&1 &
    PERF_PID=$!
    wait "$PERF_PID" || true
    PERF_PID=""
    wait "$LOADGEN_PID" || { echo "load.sh: the load generator failed:" >&2; cat "$log" >&2; exit 1; }
    LOADGEN_PID=""
    perf report -i "$data" --no-children --sort dso,symbol --percent-limit 1 --stdio -g none \
      >"$OUT/perf-$scenario-self.txt" 2>/dev/null || true
    perf report -i "$data" --children --sort symbol --percent-limit 3 --stdio -g none \
      >"$OUT/perf-$scenario-children.txt" 2>/dev/null || true
    echo "-- $scenario: top self time (full reports in $OUT/perf-$scenario-*.txt)"
    grep -E '^ +[0-9]' "$OUT/perf-$scenario-self.txt" | awk '{$1 = $1; print}' | sed 's/ - -$//' | head -15 || true
    echo "-- $scenario: the service's own functions, time including callees"
    grep -E '^ +[0-9]' "$OUT/perf-$scenario-children.txt" | awk '{$1 = $1; print}' | sed 's/ - -$//' \
      | grep -E 'halma_(server|rules)::|actix_router::router|serde_json::(ser::to_|de::from_)|redis::cmd::Cmd::query_async|redis::script' \
      | grep -vE 'halma_server::main|log_request' | head -20 || true
  done
fi

echo
echo "Summary written to $RESULT"
