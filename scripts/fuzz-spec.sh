#!/usr/bin/env bash
# Builds the run-spec fuzzer (sim/fuzz/: libFuzzer + ASan + UBSan, clang-14) and runs it
# on RUNS inputs (default 100000), starting from the seed corpus sim/fuzz/corpus/ with the
# dictionary sim/fuzz/spec.dict. Every input must parse or raise SpecError; a crash, an
# abort, a sanitizer report, a leak, an input slower than 5 s or a process above 2 GB fails
# the run (exit status non-zero) and leaves the input in build/fuzz/artifacts/.
#
#   scripts/fuzz-spec.sh [RUNS] [extra libFuzzer flags...]     e.g. scripts/fuzz-spec.sh 1000000
#   scripts/fuzz-spec.sh -max_total_time=30                   (RUNS omitted: a time-limited run)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/build/fuzz"
RUNS=100000
if [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then RUNS="$1"; shift; fi
CXX="${FUZZ_CXX:-clang++-14}"
command -v "$CXX" >/dev/null || { echo "fuzz-spec: $CXX not found (scripts/setup-system.sh installs clang-14)" >&2; exit 1; }
if [ ! -f "$OUT/build.ninja" ]; then
  cmake -S "$ROOT/sim/fuzz" -B "$OUT" -G Ninja -DCMAKE_CXX_COMPILER="$CXX" >/dev/null
fi
cmake --build "$OUT" >/dev/null
mkdir -p "$OUT/corpus" "$OUT/artifacts"
# The working corpus (build/fuzz/corpus) grows with what the fuzzer finds; the seed corpus
# in the repository is only read.
began=$(date +%s)
status=0
"$OUT/spec_fuzz" -runs="$RUNS" -timeout=5 -rss_limit_mb=2048 -dict="$ROOT/sim/fuzz/spec.dict" \
  -artifact_prefix="$OUT/artifacts/" -print_final_stats=1 "$@" "$OUT/corpus" "$ROOT/sim/fuzz/corpus" \
  >"$OUT/last-run.log" 2>&1 || status=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$OUT/last-run.log" | tail -1)
if [ "$status" -ne 0 ]; then
  tail -40 "$OUT/last-run.log" >&2
  echo "fuzz-spec: FAILED after ${runs:-?} inputs in $(( $(date +%s) - began )) s; input in $OUT/artifacts/ (log $OUT/last-run.log)" >&2
  exit 1
fi
echo "fuzz-spec: ${runs:-?} inputs in $(( $(date +%s) - began )) s, 0 crashes, 0 timeouts (log $OUT/last-run.log)"
