#!/usr/bin/env bash
# Runs every fuzz target of fuzz/ for a bounded time and exits non-zero when one crashes (a
# panic, a violated invariant, a timeout or running out of memory).
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]      # default 60 s, every target
#
# Installs cargo-fuzz when it is missing (the nightly toolchain must be installed). Each target
# starts from its committed seeds (fuzz/corpus/TARGET, read only), mutates with the notation's
# words (fuzz/notation.dict), and keeps what it finds in fuzz/target/corpus/TARGET (not
# committed), so later runs go on from there. A crash's input is saved under
# fuzz/artifacts/TARGET/; replay it with
#   cargo +nightly fuzz run -a TARGET fuzz/artifacts/TARGET/crash-...
# Prints, per target, the executions, the edges covered (libFuzzer's `cov`), the features
# (`ft`), the corpus size and the crashes (libFuzzer stops at the first); the logs stay in
# fuzz/target/logs/.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]" >&2
  exit 2
fi

if ! rustup toolchain list | grep -q '^nightly'; then
  echo "the nightly toolchain is missing: rustup toolchain install nightly" >&2
  exit 2
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "cargo-fuzz missing: installing it"
  cargo install cargo-fuzz --locked
fi

if [ "$#" -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(cargo +nightly fuzz list)
fi

# One build for every target, with debug assertions and overflow checks.
cargo +nightly fuzz build -a

mkdir -p fuzz/target/logs
failed=()
summary=()
for target in "${targets[@]}"; do
  work="fuzz/target/corpus/$target"
  log="fuzz/target/logs/$target.log"
  mkdir -p "$work" "fuzz/artifacts/$target"
  echo "==> $target: $seconds s"
  status=0
  # -timeout: an input that takes longer than 10 s counts as a crash (a hang).
  cargo +nightly fuzz run -a "$target" "$work" "fuzz/corpus/$target" -- \
    -max_total_time="$seconds" -timeout=10 -max_len=4096 -dict=fuzz/notation.dict \
    -print_final_stats=1 \
    >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  units=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
  if [ "$status" -ne 0 ]; then
    failed+=("$target")
    echo "!! $target failed (exit $status): see $log" >&2
    grep -E 'panicked|SUMMARY|Test unit written to' "$log" >&2 || tail -20 "$log" >&2
  fi
  summary+=("$(printf '%-10s %12s %8s %8s %8s %8s' "$target" "${runs:-?}" "${cov:-?}" \
    "${ft:-?}" "${units:-?}" "$((status == 0 ? 0 : 1))")")
done

printf '%-10s %12s %8s %8s %8s %8s\n' target executions cov ft corpus crashes
printf '%s\n' "${summary[@]}"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "crashed: ${failed[*]}" >&2
  exit 1
fi
echo "no crash in ${#targets[@]} targets, $seconds s each"
