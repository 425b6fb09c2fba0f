"""mantra-udp against mantra-sim on one link (issue 29; docs/udp.md, "Parity with the simulator").

The simulated half is campaigns/udp/parity.yaml: one flow over a 2 Mb/s, 50 ms point-to-point link
whose queues are RED with ECN at the TF-WMFC paper's Table 1 parameters. The real half runs the same
link through mantra-relay (both directions: the rate, the delay and the RED queue) with mantra-udp's
receiver and sender at its ends on loopback, the safety floor as in every campaign (`--no-floor`:
mantra-udp sets no `safety_floor`, so each protocol has its default, off but for mantra's), one
seed at a time (the relay's seed; its queue depends on real arrival times, so the
runs differ in more than the seed). Per protocol and metric it gives both means with Student-t 95 %
intervals and a verdict: throughput and delay within 10 % of the simulator's mean, loss rates with
overlapping intervals.
"""

from __future__ import annotations

import json
import math
import os
import signal
import socket
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mantra.errors import InputError
from mantra.lab.analysis import t_interval
from mantra.lab.campaign import Campaign
from mantra.lab.load import load_campaign
from mantra.lab.runner import run_campaigns

ROOT = Path(__file__).resolve().parents[3]
CAMPAIGN = ROOT / "campaigns" / "udp" / "parity.yaml"
# The campaign's link for mantra-relay: 2 Mb/s, 50 ms, RED limit 50, min_th 0.625, max_th 6.25,
# max_p 1.0 (w_q 0.002, gentle, hard drop: the defaults of both), marking ECN-capable packets.
RELAY_LINK = ["--rate", "2000000", "--delay-ms", "50", "--red", "50,0.625,6.25,1.0", "--ecn"]
FLOW_S = 59.0  # the campaign's flow: from 1 s to 60 s
MEASURE_FROM_S = 9.0  # the campaign measures from 10 s, 9 s into the flow
METRICS = {"throughput_kbps": "throughput (kb/s)", "delay_ms": "mean delay (ms)", "plr": "loss rate"}


def udp_binaries() -> tuple[Path, Path]:
    """mantra-udp and mantra-relay as `make build` leaves them (override the folder with MANTRA_UDP_DIR)."""
    folder = Path(os.environ.get("MANTRA_UDP_DIR", ROOT / "build" / "udp"))
    udp, relay = folder / "mantra-udp", folder / "mantra-relay"
    for binary in (udp, relay):
        if not binary.exists():
            raise InputError(f"{binary}: not built; run 'make build'")
    return udp, relay


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def run_udp_flow(
    protocol: str,
    seed: int,
    out: Path,
    link: Sequence[str] = RELAY_LINK,
    send_args: Sequence[str] = (),
) -> dict[str, Any]:
    """One flow of FLOW_S through the relay set as `link` (its options), measured from
    MEASURE_FROM_S, the sender given `send_args` too; the receiver's result (mantra-sim's form, one
    flow). Each end's and the relay's results are kept in `out` as PROTOCOL-seedSEED-{recv,send,relay}.json."""
    udp, relay = udp_binaries()
    listen, to = f"127.0.0.1:{_free_port()}", f"127.0.0.1:{_free_port()}"
    stem = out / f"{protocol}-seed{seed}"
    relay_proc = subprocess.Popen(
        [str(relay), "--listen", listen, "--to", to, *link, "--seed", str(seed), "--quiet"]
        + ["--summary", f"{stem}-relay.json"]
    )
    recv = subprocess.Popen(
        [str(udp), "recv", "--bind", to, "--result", f"{stem}-recv.json", "--wait", "20", "--quiet"]
        + ["--measure-from", str(MEASURE_FROM_S)]
    )
    try:
        sent = subprocess.run(
            [str(udp), "send", listen, "--protocol", protocol, "--duration", str(FLOW_S), "--quiet"]
            + ["--no-floor", "--result", f"{stem}-send.json", *send_args],  # as in the campaigns: the default floor
            capture_output=True,
            text=True,
            timeout=FLOW_S + 60,
        )
        if sent.returncode != 0:
            raise InputError(f"mantra-udp send {protocol} seed {seed}: {sent.stderr.strip()}")
        if recv.wait(timeout=30) != 0:
            raise InputError(f"mantra-udp recv {protocol} seed {seed} failed")
    finally:
        for proc in (recv, relay_proc):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=30)
    result: dict[str, Any] = json.loads(Path(f"{stem}-recv.json").read_text())
    return result


def _metric(flow: dict[str, Any], name: str) -> float:
    value = flow["delay_ms"]["mean"] if name == "delay_ms" else flow[name]
    return math.nan if value is None else float(value)


def overlap_verdict(s_mean: float, s_ci: float, u_mean: float, u_ci: float) -> str:
    """Whether two Student-t intervals (mean, half-width; NaN half-width: none) overlap."""
    widths = (0.0 if math.isnan(ci) else ci for ci in (s_ci, u_ci))
    return "intervals overlap" if abs(u_mean - s_mean) <= sum(widths) else "intervals apart"


Flows = dict[str, list[dict[str, Any]]]  # by protocol: each run's flows[0]
Interval = tuple[float, float, int]  # mean, Student-t 95 % half-width, n


def compare_rows(
    sim: Flows,
    udp: Flows,
    metrics: Sequence[str],
    value: Callable[[dict[str, Any], str], float],
    verdict: Callable[[str, Interval, Interval], str],
) -> list[dict[str, Any]]:
    """Per protocol and metric: both halves' means with their intervals, their ratio and the verdict."""
    rows = []
    for protocol in sim:
        for name in metrics:
            s = t_interval([value(f, name) for f in sim[protocol]])
            u = t_interval([value(f, name) for f in udp.get(protocol, [])])
            ratio = u[0] / s[0] if s[0] else math.nan
            rows.append(
                {
                    "protocol": protocol,
                    "metric": name,
                    "sim": list(s),
                    "udp": list(u),
                    "ratio": ratio,
                    "verdict": verdict(name, s, u),
                }
            )
    return rows


def _parity_verdict(name: str, s: Interval, u: Interval) -> str:
    if math.isnan(s[0]) or math.isnan(u[0]):
        return "no value"  # a half without a single value (no delays: nothing arrived)
    if name == "plr":
        return overlap_verdict(s[0], s[1], u[0], u[1])
    ratio = u[0] / s[0] if s[0] else math.nan
    return "within 10 %" if abs(ratio - 1) <= 0.10 else f"off by {100 * (ratio - 1):+.0f} %"


def parity_rows(sim: Flows, udp: Flows) -> list[dict[str, Any]]:
    """Per protocol and metric: both means with their intervals, the ratio and the verdict."""
    return compare_rows(sim, udp, list(METRICS), _metric, _parity_verdict)


def interval_cell(m: list[float]) -> str:
    """A table cell for [mean, half-width, n]."""
    return f"{m[0]:.4g} ± {m[1]:.2g} (n={m[2]})"


def markdown(rows: list[dict[str, Any]]) -> str:
    cell = interval_cell
    lines = [
        "| protocol | metric | mantra-sim | mantra-udp + relay | udp / sim | verdict |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['protocol']} | {METRICS[r['metric']]} | {cell(r['sim'])} | {cell(r['udp'])} | "
            f"{r['ratio']:.3f} | {r['verdict']} |"
        )
    return "\n".join(lines) + "\n"


def simulated_flows(camp: Campaign, out: Path, seeds: int, workers: int | None) -> Flows:
    """Runs what is missing of the campaign (its first `seeds` seeds) into `out`; flows[0] of each
    run, by its protocol (the campaign's `protocol` axis)."""
    axis = camp.axis("protocol")
    if axis is None:
        raise InputError(f"{camp.source}: grid.protocol: missing (the protocols to compare)")
    tally = run_campaigns([camp], out, workers=workers, scheduler=None)
    if tally.failed:
        raise InputError(f"{out}: {tally.failed} simulated runs failed")
    sim: Flows = {str(p): [] for p in axis.labels}
    for path in sorted((out / "runs").glob("*.json")):
        result = json.loads(path.read_text())
        flow = result["flows"][0]
        if flow["protocol"] in sim and result["provenance"]["seed"] <= seeds:
            sim[flow["protocol"]].append(flow)
    return sim


def run_parity(out: Path, seeds: int, workers: int | None) -> str:
    """Runs both halves into `out` (sim/ and udp/), writes parity.json and parity.md; the table."""
    sim = simulated_flows(load_campaign(CAMPAIGN, first_seeds=seeds), out / "sim", seeds, workers)
    (out / "udp").mkdir(parents=True, exist_ok=True)
    udp: Flows = {p: [] for p in sim}
    for protocol in sim:
        for seed in range(1, seeds + 1):
            udp[protocol].append(run_udp_flow(protocol, seed, out / "udp")["flows"][0])
    rows = parity_rows(sim, udp)
    (out / "parity.json").write_text(json.dumps(rows, indent=2) + "\n")
    table = markdown(rows)
    (out / "parity.md").write_text(table)
    return table
