"""How far real time holds in mantra-emu (issue 30, docs/performance.md): the lag's p99 on growing
chains and mobile networks under a simulated offered load, with two endpoints attached and a ping
between them crossing the network all along. Sizes double per offered rate until the p99 passes
the bound (10 ms) or the largest size is reached; then the gap between the last size that held and
the first that did not is halved down to a few nodes. Each size also runs in mantra-sim as fast as
it goes: the share of a core the network needs, beside its lag. Needs root.

- chains (LATP Fig. 8's radio, static routes): one CBR flow of 1000-byte packets end to end at each
  offered rate;
- mobile networks (the Freeze-Probing paper's density: 30 nodes in 400 m x 800 m, the area grown
  with the nodes; nodes 0 and 1 fixed at opposite corners, the rest moving by steady-state random
  waypoint at 5 m/s; our AODV): FLOWS CBR flows between random pairs, each at the offered rate.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
from pathlib import Path
from typing import Any

from mantra.errors import InputError
from mantra.lab.emu_check import chain_spec, emu_binaries, node_address
from mantra.simulator import run_spec

RUN_S = 20.0
BOUND_MS = 10.0
CHAIN_HOPS = (4, 8, 16, 32, 64)
MANET_NODES = (30, 60, 120, 240)
MANET_FLOWS = 5
CHAIN_RESOLUTION_HOPS = 4  # the search between the last size that held and the first that did not stops here
MANET_RESOLUTION_NODES = 5
CHAIN_RATES_BPS = (100_000, 1_000_000)  # light, and beyond any chain's capacity (saturated)
MANET_RATES_BPS = (50_000, 200_000)  # per flow
DENSITY_AREA_M2 = 400 * 800 / 30  # per node


def manet_spec(nodes: int, rate_bps: int, seed: int = 1) -> dict[str, Any]:
    width = math.sqrt(DENSITY_AREA_M2 * nodes / 2)  # 1:2, as 400 m x 800 m
    height = 2 * width
    flow = {"protocol": "cbr", "src": "random", "dst": "random", "rate": rate_bps, "packet_size": 1000, "start": 1}
    return {
        "duration": RUN_S,
        "seed": seed,
        "radio": {"preset": "ns2-80211b"},
        "routing": "aodv",
        "topology": {
            "kind": "manet",
            "nodes": nodes,
            "width": round(width),
            "height": round(height),
            "fixed": [[0, 0], [round(width), round(height)]],
        },
        "mobility": {"model": "rwp", "speed": 5, "pause": 0},
        "flows": [dict(flow) for _ in range(MANET_FLOWS)],
    }


def chain_load_spec(hops: int, rate_bps: int) -> dict[str, Any]:
    """Static routes: the load crosses every hop however long the chain. (Our AODV, as ns-2's,
    finds no route beyond NET_DIAMETER, 35 hops, and on a 32-hop chain found none within 20 s.)"""
    flow = {"protocol": "cbr", "rate": rate_bps, "packet_size": 1000, "start": 1}
    return chain_spec(hops, 1, flow, duration=RUN_S, measure_from=0) | {"routing": "static"}


def measure(spec: dict[str, Any], far_node: int, stem: Path) -> dict[str, Any]:
    """One mantra-emu run of `spec`, namespaces at nodes 0 and `far_node`, pinging across; its lag,
    the simulator's event rate and what the ping saw."""
    emu, _ = emu_binaries()
    stem.parent.mkdir(parents=True, exist_ok=True)
    Path(f"{stem}-spec.json").write_text(json.dumps(spec))
    a, b = f"ml{os.getpid()}a", f"ml{os.getpid()}b"
    pings = int((RUN_S - 2) / 0.2)
    args = [str(emu), f"{stem}-spec.json", "--endpoint", f"0={a}", "--endpoint", f"{far_node}={b}"]
    args += ["--out", f"{stem}-emu.json", "--", "ping", "-q", "-c", str(pings), "-i", "0.2", node_address(far_node)]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=RUN_S + 120)
    if proc.returncode not in (0, 4, 5):  # 4: behind real time (what is measured); 5: ping lost replies
        raise InputError(f"mantra-emu {stem.name}: exit {proc.returncode}: {proc.stderr.strip()}")
    result = json.loads(Path(f"{stem}-emu.json").read_text())
    lag = result["emulation"]["lag_ms"]
    return {
        "lag_median_ms": lag["median"],
        "lag_p99_ms": lag["p99"],
        "lag_max_ms": lag["max"],
        "events_per_s": result["provenance"]["events"] / RUN_S,
        "wall_s": result["provenance"]["wall_s"],
        "delivered": result["delivery"]["ratio"],
        "ping": proc.stdout.strip().splitlines()[-2:] if proc.stdout.strip() else [],
    }


def probe(network: str, size: int, rate: int, out: Path) -> dict[str, Any]:
    """One size of one network at one offered rate, in mantra-emu and, for the simulator's own
    speed, in mantra-sim (as fast as it goes: `sim_share` is its wall time over the simulated
    time, the share of a core the network needs on average)."""
    if network == "chain":
        spec, far = chain_load_spec(size, rate), size
    else:
        spec, far = manet_spec(size, rate), 1
    row: dict[str, Any] = {"network": network, "size": size, "offered_bps": rate}
    if network == "manet":
        row["flows"] = MANET_FLOWS
    row |= measure(spec, far, out / f"{network}{size}-{rate}")
    row["sim_share"] = run_spec(spec)["provenance"]["wall_s"] / RUN_S
    return row


def series(network: str, sizes: tuple[int, ...], resolution: int, rate: int, out: Path) -> list[dict[str, Any]]:
    """Sizes doubling until the bound is passed, then halving the gap between the last size that
    held and the first that did not, down to `resolution`."""
    rows = []
    held, failed = None, None
    for size in sizes:
        rows.append(probe(network, size, rate, out))
        if rows[-1]["lag_p99_ms"] > BOUND_MS:
            failed = size
            break
        held = size
    while held is not None and failed is not None and failed - held > resolution:
        middle = (held + failed) // 2
        rows.append(probe(network, middle, rate, out))
        if rows[-1]["lag_p99_ms"] > BOUND_MS:
            failed = middle
        else:
            held = middle
    return sorted(rows, key=lambda r: int(r["size"]))


def sweep(out: Path) -> list[dict[str, Any]]:
    rows = []
    for rate in CHAIN_RATES_BPS:
        rows += series("chain", CHAIN_HOPS, CHAIN_RESOLUTION_HOPS, rate, out)
    for rate in MANET_RATES_BPS:
        rows += series("manet", MANET_NODES, MANET_RESOLUTION_NODES, rate, out)
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| network | nodes | offered (kb/s) | lag median / p99 / max (ms) | under 10 ms | ns-3 events/s "
        "| mantra-sim's share of a core | delivered |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        nodes = r["size"] + 1 if r["network"] == "chain" else r["size"]
        offered = f"{r['offered_bps'] / 1000:g}" + (f" x {r['flows']}" if r["network"] == "manet" else "")
        lines.append(
            f"| {r['network']} | {nodes} | {offered} | {r['lag_median_ms']:.3f} / {r['lag_p99_ms']:.2f} / "
            f"{r['lag_max_ms']:.1f} | {'yes' if r['lag_p99_ms'] <= BOUND_MS else 'no'} | {r['events_per_s']:.0f} "
            f"| {r['sim_share']:.2f} "
            f"| {r['delivered'] if r['delivered'] is None else round(r['delivered'], 3)} |"
        )
    return "\n".join(lines) + "\n"


def run_limits(out: Path) -> str:
    if os.geteuid() != 0:
        raise InputError("mantra-emu makes network namespaces and TAPs: run this as root (sudo)")
    rows = sweep(out)
    (out / "limits.json").write_text(json.dumps(rows, indent=2) + "\n")
    table = markdown(rows)
    (out / "limits.md").write_text(table)
    return table
