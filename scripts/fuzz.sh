#!/usr/bin/env bash
# Builds the fuzzers (sim/fuzz/: libFuzzer + ASan + UBSan, clang-14) and runs one of them on
# RUNS inputs (default 100000), from its seed corpus:
#
#   spec        the run-spec reader: every input parses or raises SpecError
#               (seed corpus sim/fuzz/corpus/, dictionary sim/fuzz/spec.dict)
#   dsr-header  our DSR's header decoder: every input is read, and comes back the same
#               through encode, or is refused with a reason (seed corpus sim/fuzz/dsr-corpus/)
#   aodv-messages  our AODV's message decoder, the same check (seed corpus sim/fuzz/aodv-corpus/)
#   tfrc-wire, adtfrc-wire, latp-wire, tfwmfc-wire, knee-wire
#               each protocol's wire decoders (knee: mantra's own) (data, feedback, reports, probes): every input is
#               read or refused with a reason, and what is read round-trips through encode
#               (seed corpora sim/fuzz/wire-corpus/PROTOCOL/)
#   session-wire mantra-udp's trailer, session messages and application frame, the same check
#               (seed corpus sim/fuzz/wire-corpus/session/)
#   endpoint-pairs every registered protocol's sender and receiver, talking over a channel the
#               input controls (delays, changed or cut datagrams, bytes of its own); nothing may
#               crash and the endpoints' counters only grow (seed corpus sim/fuzz/endpoint-corpus/)
#
# A crash, an abort, a sanitizer report, a leak, an input slower than 5 s or a process above
# 2 GB fails the run (exit status non-zero) and leaves the input in build/fuzz/artifacts/TARGET/.
#
#   scripts/fuzz.sh TARGET [RUNS] [extra libFuzzer flags...]     e.g. scripts/fuzz.sh spec 1000000
#   scripts/fuzz.sh TARGET -max_total_time=30                   (RUNS omitted: a time-limited run)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/build/fuzz"
TARGET="${1:-}"
case "$TARGET" in
  spec) BINARY=spec_fuzz; SEEDS="$ROOT/sim/fuzz/corpus"; EXTRA=(-dict="$ROOT/sim/fuzz/spec.dict") ;;
  dsr-header) BINARY=dsr_header_fuzz; SEEDS="$ROOT/sim/fuzz/dsr-corpus"; EXTRA=() ;;
  aodv-messages) BINARY=aodv_messages_fuzz; SEEDS="$ROOT/sim/fuzz/aodv-corpus"; EXTRA=() ;;
  endpoint-pairs) BINARY=endpoint_pair_fuzz; SEEDS="$ROOT/sim/fuzz/endpoint-corpus"; EXTRA=() ;;
  tfrc-wire|adtfrc-wire|latp-wire|tfwmfc-wire|knee-wire|session-wire)
    BINARY="${TARGET%-wire}_wire_fuzz"; SEEDS="$ROOT/sim/fuzz/wire-corpus/${TARGET%-wire}"; EXTRA=() ;;
  *) echo "fuzz: TARGET must be spec, dsr-header, aodv-messages, tfrc-wire, adtfrc-wire, latp-wire, tfwmfc-wire, knee-wire, session-wire or endpoint-pairs, not '${TARGET}'" >&2; exit 2 ;;
esac
shift
RUNS=100000
if [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then RUNS="$1"; shift; fi
CXX="${FUZZ_CXX:-clang++-14}"
command -v "$CXX" >/dev/null || { echo "fuzz: $CXX not found (scripts/setup-system.sh installs clang-14)" >&2; exit 1; }
if [ ! -f "$OUT/build.ninja" ]; then
  cmake -S "$ROOT/sim/fuzz" -B "$OUT" -G Ninja -DCMAKE_CXX_COMPILER="$CXX" >/dev/null
fi
cmake --build "$OUT" --target "$BINARY" >/dev/null
# The working corpus (build/fuzz/corpus/TARGET) grows with what the fuzzer finds; the seed
# corpus in the repository is only read.
mkdir -p "$OUT/corpus/$TARGET" "$OUT/artifacts/$TARGET"
LOG="$OUT/last-$TARGET.log"
began=$(date +%s)
status=0
"$OUT/$BINARY" -runs="$RUNS" -timeout=5 -rss_limit_mb=2048 "${EXTRA[@]}" \
  -artifact_prefix="$OUT/artifacts/$TARGET/" -print_final_stats=1 "$@" "$OUT/corpus/$TARGET" "$SEEDS" \
  >"$LOG" 2>&1 || status=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$LOG" | tail -1)
# With -jobs=N libFuzzer's jobs write fuzz-K.log in the working directory: count them all.
if printf '%s\n' "$@" | grep -q '^-jobs='; then
  runs=$(find . -maxdepth 1 -name 'fuzz-*.log' -newermt "@$began" -exec sed -n 's/^stat::number_of_executed_units: *//p' {} + |
    awk '{ n += $1 } END { print n }')
fi
if [ "$status" -ne 0 ]; then
  tail -40 "$LOG" >&2
  echo "fuzz $TARGET: FAILED after ${runs:-?} inputs in $(( $(date +%s) - began )) s; input in $OUT/artifacts/$TARGET/ (log $LOG)" >&2
  exit 1
fi
echo "fuzz $TARGET: ${runs:-?} inputs in $(( $(date +%s) - began )) s, 0 crashes, 0 timeouts (log $LOG)"
