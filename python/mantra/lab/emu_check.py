"""mantra-emu's checks against mantra-sim (issue 30, docs/emu.md). Needs root.

Every check runs a spec twice per seed: in mantra-emu, its flow 0 carried by mantra-udp between
namespaces at the flow's two nodes, and in mantra-sim, the same spec with the flow simulated. The
real flow is the spec's flow as mantra-udp says it: its protocol and `params`, the same datagrams
on the wire (the 9-byte session trailer taken from `packet_size`), started at its `start`, sent
until its `stop`, measured from the spec's `measure.from`.

- low load (`emu-check`): ping (the route found, the TTL showing the hops), then a light CBR flow
  across a chain; verdict per seed: the mean delays within 1 ms plus that emulation's p99 lag.
- parity (`emu-parity`): TFRC and LATP (agents on) saturating a chain; verdict per protocol: mean
  throughput and mean delay over the seeds within 10 %, the lag beside them."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
from pathlib import Path
from typing import Any

from mantra.errors import InputError
from mantra.lab.analysis import t_interval
from mantra.simulator import ROOT, run_spec

TRAILER_BYTES = 9  # mantra-udp's session trailer (docs/udp.md)
PINGS = 10
PING_GAP_S = 0.2
LOW_LOAD_BYTES = 200  # a datagram on the wire (UDP payload)
LOW_LOAD_RATE_BPS = 16000  # 10 datagrams a second: the chain is idle between them
LOW_LOAD_TOLERANCE_MS = 1.0
PARITY_PROTOCOLS = ("tfrc", "latp")
PARITY_TOLERANCE = 0.10


def emu_binaries() -> tuple[Path, Path]:
    """mantra-emu and mantra-udp as `make build` leaves them."""
    emu, udp = ROOT / "build" / "emu" / "mantra-emu", ROOT / "build" / "udp" / "mantra-udp"
    for binary in (emu, udp):
        if not binary.exists():
            raise InputError(f"{binary}: not built; run 'make build'")
    return emu, udp


def chain_spec(hops: int, seed: int, flow: dict[str, Any], duration: float, measure_from: float) -> dict[str, Any]:
    """The chain of LATP's Fig. 8 (200 m apart, 802.11 at 2 Mb/s with RTS/CTS, 500 m sensing, a
    25-packet queue, our AODV) with `flow` from node 0 to node `hops`."""
    return {
        "duration": duration,
        "seed": seed,
        "measure": {"from": measure_from},
        "radio": {"preset": "ns2-80211b", "cs_range": 500, "queue": 25},
        "routing": "aodv",
        "topology": {"kind": "chain", "hops": hops, "spacing": 200},
        "flows": [{"src": 0, "dst": hops, **flow}],
    }


def node_address(node: int) -> str:
    """A radio node's address (network/scenario.cc: 10.0.0.0/16 in node order)."""
    return f"10.0.{(node + 1) // 256}.{(node + 1) % 256}"


def sender_args(flow: dict[str, Any]) -> list[str]:
    """mantra-udp send's protocol options for a spec flow: the same datagrams on the wire."""
    size = int(flow.get("packet_size", 1000))
    args = ["--protocol", flow["protocol"], "--set", f"packet_size={size - TRAILER_BYTES}", "--no-floor"]
    for key, value in flow.get("params", {}).items():
        args += ["--set", f"{key}={value}"]
    if flow["protocol"] == "cbr":  # CBR's rate counts the core's bytes: the same datagrams a second
        args += ["--rate", f"{flow['rate'] * (size - TRAILER_BYTES) / size:.0f}"]
    return args


def real_flow_script(spec: dict[str, Any], receiver_ns: str, stem: Path, before: str = "", send: str = "") -> str:
    """The shell command mantra-emu runs in the sender's namespace for the spec's flow 0: the
    receiver started in `receiver_ns`, `before` (a prelude, e.g. ping), the sender at the flow's
    start (`send`: more of its options, e.g. --video FILE)."""
    _, udp = emu_binaries()
    flow = spec["flows"][0]
    dst = node_address(flow["dst"])
    start, stop = float(flow.get("start", 0)), float(flow.get("stop", spec["duration"]))
    measure_from = max(0.0, float(spec.get("measure", {}).get("from", 0)) - start)
    receiver = (
        f"ip netns exec {receiver_ns} {udp} recv --bind {dst}:5000 --result {stem}-recv.json "
        f"--wait {start + 30:.0f} --measure-from {measure_from} --quiet & "
    )
    sender = (
        f"{udp} send {dst}:5000 {' '.join(sender_args(flow))} {send} --duration {stop - start} --quiet "
        f"--result {stem}-send.json; wait"
    )
    # The command starts at simulated time 0 (T0, within the lag and /proc/uptime's 10 ms): after
    # the prelude, sleep to the flow's start.
    until_start = f"sleep $(awk -v t0=$T0 '{{d = t0 + {start} - $1; print (d > 0 ? d : 0)}}' /proc/uptime); "
    return "T0=$(awk '{print $1}' /proc/uptime); " + receiver + before + until_start + sender


def run_emulated(spec: dict[str, Any], stem: Path, before: str = "", send: str = "") -> dict[str, Any]:
    """The spec through mantra-emu, its flow 0 real (real_flow_script); the emulation's result
    with the receiver's flow added as `real_flow`. The two ends' results stay beside it, as
    STEM-recv.json and STEM-send.json."""
    emu, _ = emu_binaries()
    stem.parent.mkdir(parents=True, exist_ok=True)
    Path(f"{stem}-spec.json").write_text(json.dumps(spec))
    flow = spec["flows"][0]
    a, b = f"me{os.getpid()}a", f"me{os.getpid()}b"
    script = real_flow_script(spec, b, stem, before, send)
    args = [str(emu), f"{stem}-spec.json", "--endpoint", f"{flow['src']}={a}", "--endpoint", f"{flow['dst']}={b}"]
    proc = subprocess.run(
        [*args, "--real-flow", "0", "--out", f"{stem}-emu.json", "--", "sh", "-c", script],
        capture_output=True,
        text=True,
        timeout=spec["duration"] + 60,
    )
    if proc.returncode not in (0, 4):  # 4: written, but behind real time (the tables show the lag)
        raise InputError(f"mantra-emu {stem.name}: exit {proc.returncode}: {proc.stderr.strip()}")
    result: dict[str, Any] = json.loads(Path(f"{stem}-emu.json").read_text())
    result["real_flow"] = json.loads(Path(f"{stem}-recv.json").read_text())["flows"][0]
    return result


def low_load_rows(hops: int, seeds: int, out: Path) -> list[dict[str, Any]]:
    """One row per seed: both mean delays, the emulation's lag and the ping's TTL, and the verdict."""
    rows = []
    flow_start = 0.3 + PINGS * PING_GAP_S + 0.7  # after the pings
    cbr = {"protocol": "cbr", "rate": LOW_LOAD_RATE_BPS, "packet_size": LOW_LOAD_BYTES}
    for seed in range(1, seeds + 1):
        flow = {**cbr, "start": flow_start, "stop": flow_start + 20}
        spec = chain_spec(hops, seed, flow, duration=flow_start + 22, measure_from=flow_start + 2)
        stem = out / f"low-load-chain{hops}-seed{seed}"
        ping = f"ping -c {PINGS} -i {PING_GAP_S} {node_address(hops)} > {stem}-ping.txt; "
        emulated = run_emulated(spec, stem, before=ping)
        simulated = run_spec(spec)["flows"][0]
        replies = Path(f"{stem}-ping.txt").read_text()
        rtts = [float(t) for t in re.findall(r"time=([\d.]+) ms", replies)][1:]  # the first waited for the route
        sim_ms, emu_ms = simulated["delay_ms"]["mean"], emulated["real_flow"]["delay_ms"]["mean"]
        lag = emulated["emulation"]["lag_ms"]
        rows.append(
            {
                "seed": seed,
                "hops": hops,
                "ttl": sorted({int(t) for t in re.findall(r"ttl=(\d+)", replies)}),
                "ping_rtt_ms": sum(rtts) / len(rtts) if rtts else math.nan,
                "sim_delay_ms": sim_ms,
                "emu_delay_ms": emu_ms,
                "difference_ms": emu_ms - sim_ms,
                "lag_p99_ms": lag["p99"],
                "lag_max_ms": lag["max"],
                "within": abs(emu_ms - sim_ms) <= LOW_LOAD_TOLERANCE_MS + lag["p99"],
            }
        )
    return rows


def low_load_markdown(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| seed | hops | TTL seen | ping RTT (ms) | mantra-sim delay (ms) | mantra-emu delay (ms) | difference (ms) "
        "| lag p99 / max (ms) | within 1 ms + p99 lag |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['seed']} | {r['hops']} | {', '.join(map(str, r['ttl']))} | {r['ping_rtt_ms']:.2f} "
            f"| {r['sim_delay_ms']:.3f} | {r['emu_delay_ms']:.3f} | {r['difference_ms']:+.3f} "
            f"| {r['lag_p99_ms']:.3f} / {r['lag_max_ms']:.2f} | {'yes' if r['within'] else 'no'} |"
        )
    sim, emu = (t_interval([r[k] for r in rows]) for k in ("sim_delay_ms", "emu_delay_ms"))
    lines.append(
        f"\nmeans over {len(rows)} seeds: mantra-sim {sim[0]:.3f} ± {sim[1]:.3f} ms, "
        f"mantra-emu {emu[0]:.3f} ± {emu[1]:.3f} ms (Student-t 95 %)"
    )
    return "\n".join(lines) + "\n"


def parity_rows(hops: int, seeds: int, flow_s: float, out: Path) -> list[dict[str, Any]]:
    """Per protocol: mean throughput and delay over the seeds both ways, their ratio and verdict,
    and the emulations' lag."""
    rows = []
    start, settle = 2.0, 10.0
    for protocol in PARITY_PROTOCOLS:
        sims, emus, lags = [], [], []
        for seed in range(1, seeds + 1):
            flow = {"protocol": protocol, "packet_size": 1000, "start": start, "stop": start + flow_s}
            spec = chain_spec(hops, seed, flow, duration=start + flow_s + 1, measure_from=start + settle)
            emulated = run_emulated(spec, out / f"parity-{protocol}-chain{hops}-seed{seed}")
            emus.append(emulated["real_flow"])
            sims.append(run_spec(spec)["flows"][0])
            lags.append(emulated["emulation"]["lag_ms"])
        for metric in ("throughput_kbps", "delay_ms"):

            def value(f: dict[str, Any], m: str = metric) -> float:
                v = f["delay_ms"]["mean"] if m == "delay_ms" else f[m]
                return math.nan if v is None else float(v)

            s, e = t_interval([value(f) for f in sims]), t_interval([value(f) for f in emus])
            ratio = e[0] / s[0] if s[0] else math.nan
            rows.append(
                {
                    "protocol": protocol,
                    "metric": metric,
                    "sim": s,
                    "emu": e,
                    "ratio": ratio,
                    "within_10_percent": abs(ratio - 1) <= PARITY_TOLERANCE,
                    "lag_p99_ms": max(lag["p99"] for lag in lags),
                    "lag_max_ms": max(lag["max"] for lag in lags),
                    "seeds": seeds,
                }
            )
    return rows


def parity_markdown(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| protocol | metric | mantra-sim | mantra-emu | emu / sim | within 10 % | lag p99 / max (ms, worst run) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        s, e = r["sim"], r["emu"]
        lines.append(
            f"| {r['protocol']} | {r['metric']} | {s[0]:.2f} ± {s[1]:.2f} | {e[0]:.2f} ± {e[1]:.2f} "
            f"| {r['ratio']:.3f} | {'yes' if r['within_10_percent'] else 'no'} "
            f"| {r['lag_p99_ms']:.3f} / {r['lag_max_ms']:.2f} |"
        )
    return "\n".join(lines) + "\n"


def needs_root() -> None:
    if os.geteuid() != 0:
        raise InputError("mantra-emu makes network namespaces and TAPs: run this as root (sudo)")


def run_low_load(hops: int, seeds: int, out: Path) -> str:
    """The low-load check into `out` (low-load.json, low-load.md); the table."""
    needs_root()
    rows = low_load_rows(hops, seeds, out)
    (out / "low-load.json").write_text(json.dumps(rows, indent=2) + "\n")
    table = low_load_markdown(rows)
    (out / "low-load.md").write_text(table)
    return table


def run_parity(hops: int, seeds: int, flow_s: float, out: Path) -> str:
    """The parity check into `out` (parity.json, parity.md); the table."""
    needs_root()
    rows = parity_rows(hops, seeds, flow_s, out)
    (out / "parity.json").write_text(json.dumps(rows, indent=2) + "\n")
    table = parity_markdown(rows)
    (out / "parity.md").write_text(table)
    return table
