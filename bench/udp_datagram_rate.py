"""mantra-udp's datagram rate on loopback against a plain recvmmsg/sendmmsg loop, in one run.

CBR offered far above what the machine carries (10 Gb/s of 1200-byte datagrams) from
`mantra-udp send` to `mantra-udp recv` for S seconds, with UDP GSO and without it (`--no-gso`),
against udp_plain_loop (udp/bench/plain_loop.cc: one thread blasting sendmmsg batches of 32, one
receiving with recvmmsg, no protocol, no pacing) for the same time. For each: datagrams delivered
per second, and CPU per datagram (both ends' user + system time over the datagrams delivered; the
driver's two processes, the loop's two threads). Prints the driver / loop ratios. The core's own
CPU per datagram is bench/core_datagram_rate.py's.

    PYTHONPATH=python .venv/bin/python bench/udp_datagram_rate.py [--seconds S] [--json FILE]
"""

import argparse
import json
import resource
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from mantra.simulator import ROOT

BUILD = ROOT / "build" / "udp"
SIZE = 1200


def children_cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def driver(seconds: float, gso: bool, folder: Path) -> dict[str, float]:
    at = f"127.0.0.1:{free_port()}"
    cpu0 = children_cpu_s()
    recv = subprocess.Popen(
        [str(BUILD / "mantra-udp"), "recv", "--bind", at, "--result", str(folder / "recv.json"), "--quiet"]
    )
    time.sleep(0.2)
    send = [str(BUILD / "mantra-udp"), "send", at, "--protocol", "cbr", "--rate", "10000000000"]
    send += ["--set", f"packet_size={SIZE}", "--duration", str(seconds), "--quiet"]
    send += ["--result", str(folder / "send.json")] + ([] if gso else ["--no-gso"])
    subprocess.run(send, check=True)
    recv.wait(timeout=30)
    cpu = children_cpu_s() - cpu0
    result = json.loads((folder / "recv.json").read_text())
    sent = json.loads((folder / "send.json").read_text())
    delivered = result["flows"][0]["received"]
    wall = sent["flow"]["duration_s"]
    return {
        "delivered": delivered,
        "wall_s": wall,
        "per_s": delivered / wall,
        "cpu_us_per_datagram": cpu / delivered * 1e6,
    }


def plain_loop(seconds: float) -> dict[str, float]:
    out = subprocess.run(
        [str(BUILD / "udp_plain_loop"), str(SIZE), str(seconds)], check=True, capture_output=True, text=True
    ).stdout
    r = json.loads(out)
    cpu = r["sender_cpu_s"] + r["receiver_cpu_s"]
    return {
        "delivered": r["received"],
        "wall_s": r["wall_s"],
        "per_s": r["received"] / r["wall_s"],
        "cpu_us_per_datagram": cpu / r["received"] * 1e6,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=5, help="seconds per measurement (default 5)")
    ap.add_argument("--json", help="write the measurements here")
    args = ap.parse_args()
    for binary in ("mantra-udp", "udp_plain_loop"):
        if not (BUILD / binary).is_file():
            raise SystemExit(f"{BUILD / binary}: not built (make build)")
    with tempfile.TemporaryDirectory() as tmp:
        rows = {
            "plain loop": plain_loop(args.seconds),
            "mantra-udp, GSO": driver(args.seconds, True, Path(tmp)),
            "mantra-udp, no GSO": driver(args.seconds, False, Path(tmp)),
        }
    plain = rows["plain loop"]
    print(f"datagrams of {SIZE} bytes on loopback, CBR offered at 10 Gb/s, {args.seconds:g} s each:")
    for name, r in rows.items():
        rate_ratio = r["per_s"] / plain["per_s"]
        cpu_ratio = r["cpu_us_per_datagram"] / plain["cpu_us_per_datagram"]
        print(
            f"  {name:20s} {r['per_s'] / 1e3:8.1f} k datagrams/s delivered, "
            f"{r['cpu_us_per_datagram']:.2f} us CPU per datagram; "
            f"/ plain loop: rate {rate_ratio:.2f}, CPU {cpu_ratio:.2f}"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
