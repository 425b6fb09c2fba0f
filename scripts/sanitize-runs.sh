#!/usr/bin/env bash
# Runs every spec of tests/sanitize/ through the ASan + UBSan build of mantra-sim (make sanitize
# builds it in build-sanitize/). A run fails on a non-zero exit status or on any sanitizer report
# in its stderr; each report is printed. Exit status: 0 when every run is clean.
#
#   scripts/sanitize-runs.sh [MANTRA_SIM] [SPEC.json ...]
#     default: build-sanitize/sim/mantra-sim and every tests/sanitize/*.json
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
MANTRA_ROOT="$ROOT" . scripts/sanitize-env.sh
SIM="${1:-build-sanitize/sim/mantra-sim}"
[ $# -gt 0 ] && shift
if [ $# -gt 0 ]; then specs=("$@"); else specs=(tests/sanitize/*.json); fi
[ -x "$SIM" ] || { echo "sanitize-runs: $SIM not built (make sanitize builds it)" >&2; exit 1; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
failed=0
began=$(date +%s)
for spec in "${specs[@]}"; do
  name="$(basename "$spec" .json)"
  t0=$(date +%s)
  "$SIM" "$spec" --out "$out/$name.result.json" 2>"$out/$name.err"
  status=$?
  secs=$(( $(date +%s) - t0 ))
  if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: (Address|Leak|UndefinedBehavior)Sanitizer' "$out/$name.err"; then
    echo "sanitize-runs: $name: sanitizer report (exit $status, ${secs} s):" >&2
    cat "$out/$name.err" >&2
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
echo "sanitize-runs: ${#specs[@]} runs clean in ${total} s"
