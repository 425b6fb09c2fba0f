#!/bin/bash
set -euo pipefail
# The safety floor through mantra-relay (issue 29; docs/udp.md, "The safety floor through the
# relay"): LATP without agents at a 2 Mb/s bottleneck and ADTFRC at 100 Mb/s, floor off and on,
# beside TFRC (its own rule, --no-floor) on the same link; 60 s each, measured from 10 s,
# 3 repetitions, loopback, a drop-tail queue of 50 packets, 20 ms each way. Each run leaves
# NAME-send.json, NAME-recv.json and NAME-relay.json in OUT (default results/udp-floor).
#   scripts/udp-floor.sh            (B=folder of the binaries, default build/udp)
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
B=${B:-$ROOT/build/udp}
OUT=${OUT:-$ROOT/results/udp-floor}
mkdir -p $OUT
run() {  # name rate_bps protocol [send options...]
  local name=$1 rate=$2 proto=$3; shift 3
  $B/mantra-relay --listen 127.0.0.1:9700 --to 127.0.0.1:9701 --rate $rate --delay-ms 20 --queue-packets 50 \
      --duration 70 --summary $OUT/$name-relay.json --quiet &
  local relay=$!
  $B/mantra-udp recv --bind 127.0.0.1:9701 --result $OUT/$name-recv.json --wait 10 --measure-from 10 --quiet &
  local recv=$!
  sleep 0.3
  $B/mantra-udp send 127.0.0.1:9700 --protocol $proto --duration 60 --result $OUT/$name-send.json --quiet "$@"
  wait $recv; kill -TERM $relay; wait $relay
}
for rep in 1 2 3; do
  for rate in 2000000 100000000; do run tfrc-$rate-r$rep $rate tfrc --no-floor; done
  run latp-off-2000000-r$rep 2000000 latp --no-floor
  run latp-on-2000000-r$rep 2000000 latp
  run adtfrc-off-100000000-r$rep 100000000 adtfrc --no-floor
  run adtfrc-on-100000000-r$rep 100000000 adtfrc
done
echo done
