#!/usr/bin/env bash
# Runs every spec of tests/sanitize/ through the ASan + UBSan build of mantra-sim (make sanitize
# builds it in build-sanitize/), SANITIZE_JOBS at a time (default 2). A run fails on a non-zero
# exit status, on a missing result or on any sanitizer report in its stderr (the report is
# printed). A run still going after RUN_TIMEOUT seconds (default 600; the longest takes about
# 2 min of CPU) is killed and fails. Exit status: 0 when every run is clean.
#
#   scripts/sanitize-runs.sh [MANTRA_SIM] [SPEC.json ...]
#     default: build-sanitize/sim/mantra-sim and every tests/sanitize/*.json
# Results and stderr of each run are kept in build-sanitize/sanitize-runs/.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
MANTRA_ROOT="$ROOT" . scripts/sanitize-env.sh
SIM="${1:-build-sanitize/sim/mantra-sim}"
[ $# -gt 0 ] && shift
if [ $# -gt 0 ]; then specs=("$@"); else specs=(tests/sanitize/*.json); fi
[ -x "$SIM" ] || { echo "sanitize-runs: $SIM not built (make sanitize builds it)" >&2; exit 1; }
RUN_TIMEOUT="${RUN_TIMEOUT:-600}"
JOBS="${SANITIZE_JOBS:-2}"
out="$ROOT/build-sanitize/sanitize-runs"
mkdir -p "$out"

# One run: its exit status and seconds go to $out/NAME.status.
run_one() {
  local spec="$1" name t0 status
  name="$(basename "$spec" .json)"
  rm -f "$out/$name.result.json" "$out/$name.status"
  t0=$(date +%s)
  timeout -k 10 "$RUN_TIMEOUT" "$SIM" "$spec" --out "$out/$name.result.json" 2>"$out/$name.err"
  status=$?
  echo "$status $(( $(date +%s) - t0 ))" >"$out/$name.status"
}

began=$(date +%s)
for spec in "${specs[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
  run_one "$spec" &
done
wait

failed=0
for spec in "${specs[@]}"; do
  name="$(basename "$spec" .json)"
  read -r status secs <"$out/$name.status" || { status=1; secs=0; }
  if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: (Address|Leak|UndefinedBehavior)Sanitizer' "$out/$name.err"; then
    echo "sanitize-runs: $name: sanitizer report (exit $status, ${secs} s):" >&2
    head -150 "$out/$name.err" >&2
    echo "sanitize-runs: (whole report in $out/$name.err)" >&2
    failed=1
  elif [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "sanitize-runs: $name: killed after ${RUN_TIMEOUT} s" >&2
    tail -20 "$out/$name.err" >&2
    failed=1
  elif [ "$status" -ne 0 ] || [ ! -s "$out/$name.result.json" ]; then
    echo "sanitize-runs: $name: exit $status, ${secs} s:" >&2
    tail -20 "$out/$name.err" >&2
    failed=1
  else
    echo "sanitize-runs: $name: clean (${secs} s)"
  fi
done
total=$(( $(date +%s) - began ))
if [ "$failed" -ne 0 ]; then
  echo "sanitize-runs: FAILED (${#specs[@]} runs, ${total} s)" >&2
  exit 1
fi
echo "sanitize-runs: ${#specs[@]} runs clean in ${total} s ($JOBS at a time)"
