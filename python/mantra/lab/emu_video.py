"""A live video through mantra-emu across the moving 30-node network, against simulated endpoints
(issue 30, docs/emu.md). Needs root.

The network is campaigns/video/mesh-mobile.yaml's at 5 m/s (30 nodes in 400 m x 800 m, the sender
and receiver fixed at opposite corners, the other 28 moving by steady-state random waypoint, our
AODV), carrying its TFRC video (QCIF, H.264, the 13-rung ladder, 1 s playout delay), for RUN_S.
Per seed, the same spec twice: in mantra-emu, mantra-udp carries the video between namespaces at
nodes 0 and 1 (`send --video`, each datagram as long on the wire as the simulated one), scored by
the lab's player as `./mantra video-score` does; in mantra-sim, the same flow simulated. Mean PSNR
and frozen share with Student-t 95 % intervals per half, and whether the intervals overlap.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from mantra.lab.emu_check import TRAILER_BYTES, needs_root, run_emulated
from mantra.lab.load import load_campaign
from mantra.lab.udp_parity import Flows, interval_cell
from mantra.lab.udp_video import video_rows
from mantra.media.udp_video import udp_media_result, write_video_file
from mantra.simulator import ROOT, run_spec, with_video_quality
from mantra.spec import with_media

CAMPAIGN = ROOT / "campaigns" / "video" / "mesh-mobile.yaml"
RUN_S = 60.0
MEASURE_FROM_S = 10.0
STOP_BEFORE_END_S = 5.0
NAMES = {
    "mean_psnr_db": "mean PSNR (dB)",
    "frozen_share": "frozen share",
    "throughput_kbps": "throughput (kb/s)",
    "plr": "loss rate",
}


def video_spec(seed: int) -> dict[str, Any]:
    spec = copy.deepcopy(load_campaign(CAMPAIGN).base)
    spec["seed"] = seed
    spec["duration"] = RUN_S
    spec["measure"] = {"from": MEASURE_FROM_S}
    spec["mobility"]["speed"] = 5
    # The real sender's seconds count from its data's start, after the session's handshake (a route
    # discovery across the moving network first): its stop leaves STOP_BEFORE_END_S for that and
    # its goodbye, or mantra-emu stops it at the run's end, its result unwritten.
    spec["flows"][0]["stop"] = RUN_S - STOP_BEFORE_END_S
    return spec


def markdown(rows: list[dict[str, Any]]) -> str:
    lines = ["| protocol | metric | mantra-sim | mantra-emu (mantra-udp) | verdict |", "|---|---|---|---|---|"]
    lines += [
        f"| {r['protocol']} | {NAMES[r['metric']]} | {interval_cell(r['sim'])} | {interval_cell(r['udp'])} "
        f"| {r['verdict']} |"
        for r in rows
    ]
    return "\n".join(lines) + "\n"


def per_seed_markdown(out: Path, seeds: int) -> str:
    """Each seed's two halves side by side, from the files run_emu_video left in `out`: the same
    mobility scenario both ways, so a pair shows what the intervals over seeds hide."""
    lines = [
        "| seed | PSNR sim / emu (dB) | frozen sim / emu | kb/s sim / emu | loss sim / emu | lag p99 / max (ms) |",
        "|---|---|---|---|---|---|",
    ]
    for seed in range(1, seeds + 1):
        stem = out / f"video-seed{seed}"
        sim = json.loads(Path(f"{stem}-sim.json").read_text())["flows"][0]
        emu = json.loads(Path(f"{stem}-scored.json").read_text())["flows"][0]
        lag = json.loads(Path(f"{stem}-emu.json").read_text())["emulation"]["lag_ms"]
        lines.append(
            f"| {seed} | {sim['video']['mean_psnr_db']:.2f} / {emu['video']['mean_psnr_db']:.2f} "
            f"| {sim['video']['frozen_share']:.3f} / {emu['video']['frozen_share']:.3f} "
            f"| {sim['throughput_kbps']:.1f} / {emu['throughput_kbps']:.1f} | {sim['plr']:.3f} / {emu['plr']:.3f} "
            f"| {lag['p99']:.2f} / {lag['max']:.1f} |"
        )
    return "\n".join(lines) + "\n"


def run_emu_video(seeds: int, out: Path) -> str:
    """Both halves into `out`; writes video.json and video.md; the table."""
    needs_root()
    out.mkdir(parents=True, exist_ok=True)
    base_flow = video_spec(1)["flows"][0]
    protocol = base_flow["protocol"]
    video_file = write_video_file(
        base_flow["video"], int(base_flow["packet_size"]) - TRAILER_BYTES, out / "video-file.json"
    )
    sim: Flows = {protocol: []}
    emu: Flows = {protocol: []}
    lags = []
    for seed in range(1, seeds + 1):
        spec = with_media(video_spec(seed))
        stem = out / f"video-seed{seed}"
        emulated = run_emulated(spec, stem, send=f"--video {video_file}")
        sender = json.loads(Path(f"{stem}-send.json").read_text())
        receiver = json.loads(Path(f"{stem}-recv.json").read_text())
        scored = with_video_quality(udp_media_result(sender, receiver))
        Path(f"{stem}-scored.json").write_text(json.dumps(scored, indent=1) + "\n")
        emu[protocol].append(scored["flows"][0])
        simulated = with_video_quality(run_spec(spec))
        Path(f"{stem}-sim.json").write_text(json.dumps(simulated, indent=1) + "\n")
        sim[protocol].append(simulated["flows"][0])
        lags.append(emulated["emulation"]["lag_ms"])
    rows = video_rows(sim, emu)
    (out / "video.json").write_text(json.dumps({"rows": rows, "lag_ms": lags}, indent=2) + "\n")
    worst = max(lag["p99"] for lag in lags)
    table = markdown(rows) + f"\nlag p99 (worst of {seeds} emulations): {worst:.3f} ms\n\n"
    table += per_seed_markdown(out, seeds)
    (out / "video.md").write_text(table)
    return table
