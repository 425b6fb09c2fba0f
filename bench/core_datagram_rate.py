"""Datagrams per second through the protocol core alone, without ns-3: one flow on the core's
in-memory test link (core/test/test_link.h; 2 Gb/s, 1 ms, a 50-packet drop-tail queue, no
random loss) for 20 simulated seconds, timed on the wall clock, for TFRC and for ADTFRC with
each ranking of its receiver (`ranking` 0: all samples, the default; 1: the window of
`window_samples`), and for ADTFRC with a passive receiver (it identifies every state but acts as
TFRC's, so the flow sends as TFRC does: its wall time per datagram less TFRC's is the detection's
cost). A datagram is a data packet delivered to the receiver. Prints each rate and
the ratio ADTFRC / TFRC, all measured in one run of mantra_core_bench (core/bench/datagram_rate.cc).

ADTFRC alone on a link overflows its queue (core/src/adtfrc/README.md, "Self-inflicted
congestion"): it sends about twice the datagrams it delivers, so its sender does about twice
TFRC's work per datagram delivered.

    make bench   (or: PYTHONPATH=python .venv/bin/python bench/core_datagram_rate.py
                      [--seconds S] [--bin PATH] [--json FILE])
"""

import argparse
import json
import re
import subprocess
from pathlib import Path

from mantra.simulator import ROOT

# "adtfrc window        1.579 M datagrams/s (4993780 in 3.162 s; 4992102 dropped at the queue)"
LINE = re.compile(
    r"^(?P<name>\w+(?: [\w-]+)?) +[0-9.]+ M datagrams/s "
    r"\((?P<datagrams>\d+) in (?P<wall>[0-9.]+) s; (?P<dropped>\d+) dropped at the queue\)"
)
BINARY = ROOT / "build" / "core" / "mantra_core_bench"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=20, help="simulated seconds per protocol (default 20)")
    ap.add_argument("--bin", type=Path, default=BINARY, help=f"the benchmark binary (default {BINARY})")
    ap.add_argument("--json", help="write the measurements here")
    args = ap.parse_args()
    if not args.bin.is_file():
        raise SystemExit(f"{args.bin}: no such binary (make build, or --bin PATH)")
    out = subprocess.run([str(args.bin), str(args.seconds)], check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        if m := LINE.match(line):
            datagrams, wall = int(m["datagrams"]), float(m["wall"])
            rows[m["name"]] = {
                "datagrams": datagrams,
                "wall_s": wall,
                "datagrams_per_s": datagrams / wall,
                "dropped_at_queue": int(m["dropped"]),
            }
    if set(rows) != {"tfrc", "adtfrc all-samples", "adtfrc window", "adtfrc passive"}:
        raise SystemExit(f"unexpected output of {args.bin}:\n{out}")
    tfrc = rows["tfrc"]["datagrams_per_s"]
    print(f"core datagram rate, one flow, 2 Gb/s, 1 ms, {args.seconds:g} s simulated:")
    for name, r in rows.items():
        rate = (
            f"{r['datagrams_per_s'] / 1e6:.2f} M datagrams/s ({r['datagrams']} delivered in {r['wall_s']:.2f} s; "
            f"{r['dropped_at_queue']} dropped at the queue)"
        )
        print(f"  {name}: {rate}" + (f", {r['datagrams_per_s'] / tfrc:.2f} x tfrc" if name != "tfrc" else ""))
    passive = rows["adtfrc passive"]
    detection_ns = (passive["wall_s"] / passive["datagrams"] - 1 / tfrc) * 1e9
    print(f"  detection per datagram (passive adtfrc against tfrc): {detection_ns:.0f} ns")
    if args.json:
        Path(args.json).write_text(json.dumps({"seconds": args.seconds, **rows}, indent=2))


if __name__ == "__main__":
    main()
