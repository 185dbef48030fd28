#!/usr/bin/env bash
# Schemathesis against the running service: every check, every phase (examples, coverage,
# fuzzing and the stateful phase, which follows the document's links from a new game to the
# operations on it). Exits non-zero on any failure.
#
# Installs the pinned schemathesis (requirements.txt) into a virtual environment when it is
# missing (VENV, default target/schemathesis-venv), builds target/debug/halma-server, starts it
# with the embedded store and the rate limits off on a port the system picks, runs
# `schemathesis run` against its /openapi.json with the settings of schemathesis.toml, and
# stops the server on exit (also on failure or Ctrl-C).
#
# Settings (environment): MAX_EXAMPLES per operation and phase (default: schemathesis' own,
# 100), MAX_TIME seconds for the whole run (default: none), SEED for a reproducible run,
# OUT directory for the server log and the JUnit report (target/schemathesis).
#   MAX_EXAMPLES=10 tests/schemathesis/run.sh     # the short run of .ci/run
set -euo pipefail

cd "$(dirname "$0")/../.."
ROOT=$PWD
HERE=$ROOT/tests/schemathesis
VENV=${VENV:-$ROOT/target/schemathesis-venv}
OUT=${OUT:-$ROOT/target/schemathesis}
MAX_EXAMPLES=${MAX_EXAMPLES:-}
MAX_TIME=${MAX_TIME:-}
SEED=${SEED:-}
mkdir -p "$OUT"

wanted=$(sed -n 's/^schemathesis==//p' "$HERE/requirements.txt")
if ! "$VENV/bin/schemathesis" --version 2>/dev/null | grep -qF "$wanted"; then
  echo "installing schemathesis $wanted into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$HERE/requirements.txt"
fi

cargo build --quiet -p halma-server --bin halma-server

SERVER_PID=""
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  exit "$status"
}
trap cleanup EXIT INT TERM

# Port 0: the system picks a free port, and the server's JSON "listening" line names it.
LOG=$OUT/server.log
: >"$LOG"
# The AI's budget is capped low (HALMA_AI_MAX_MS): generated games may have several AI seats
# and ask for minutes of thinking.
env -u REDIS_URL -u REDIS_CLUSTER_URLS HALMA_BIND=127.0.0.1:0 HALMA_RATE_LIMITS=off \
  HALMA_AI_MAX_MS=${HALMA_AI_MAX_MS:-50} HALMA_LOG_FORMAT=json HALMA_LOG=${HALMA_LOG:-info} "$ROOT/target/debug/halma-server" >"$LOG" 2>&1 &
SERVER_PID=$!
PORT=""
for _ in $(seq 1 100); do
  PORT=$(sed -n 's/.*"address":"127\.0\.0\.1:\([0-9]*\)".*/\1/p' "$LOG" | head -n 1)
  [[ -n $PORT ]] && break
  kill -0 "$SERVER_PID" 2>/dev/null || { echo "the server did not start:" >&2; cat "$LOG" >&2; exit 1; }
  sleep 0.1
done
[[ -n $PORT ]] || { echo "the server did not report its port:" >&2; cat "$LOG" >&2; exit 1; }
BASE=http://127.0.0.1:$PORT
echo "server at $BASE (log: $LOG)"

args=(run "$BASE/openapi.json" --url "$BASE"
  --checks all --phases examples,coverage,fuzzing,stateful
  # An event stream stays open while its game goes on: schemathesis reads it for this long.
  --request-timeout "${REQUEST_TIMEOUT:-2}"
  --report junit --report-junit-path "$OUT/junit.xml"
  # Examples that failed before are tried first on the next run (kept out of the checkout).
  --generation-database "$OUT/examples")
[[ -n $MAX_EXAMPLES ]] && args+=(--max-examples "$MAX_EXAMPLES")
[[ -n $MAX_TIME ]] && args+=(--max-time "$MAX_TIME")
[[ -n $SEED ]] && args+=(--seed "$SEED")
# Schemathesis keeps a cache (.schemathesis/) in its working directory: run it in $OUT.
cd "$OUT"
"$VENV/bin/schemathesis" --config-file "$HERE/schemathesis.toml" "${args[@]}"
