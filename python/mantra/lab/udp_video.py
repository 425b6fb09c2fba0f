"""A live video through mantra-relay against the same video in mantra-sim (issue 29; docs/udp.md,
"A live video").

The simulated half is campaigns/udp/video.yaml: one flow carrying a looped live video over a 2 Mb/s,
50 ms point-to-point link with a 50-packet drop-tail queue and 2 % random loss each way. The real
half encodes the campaign's `video` keys once (`./mantra video-encode`'s file), runs the same link
through mantra-relay (the rate, the delay, the queue both ways; the loss both ways:
`--impair-reverse`) with mantra-udp's ends on loopback carrying that video (`send --video`, the
safety floor off as in the campaign), one relay seed at a time, and scores each run with the lab's
player exactly as a simulated one (`./mantra video-score`). Per protocol it gives both halves' mean
PSNR and frozen share with Student-t 95 % intervals and whether the intervals overlap, and the
throughput and loss rate beside them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mantra.lab.load import load_campaign
from mantra.lab.udp_parity import (
    ROOT,
    Flows,
    Interval,
    compare_rows,
    interval_cell,
    overlap_verdict,
    run_udp_flow,
    simulated_flows,
)
from mantra.media.udp_video import udp_media_result, write_video_file
from mantra.simulator import with_video_quality

CAMPAIGN = ROOT / "campaigns" / "udp" / "video.yaml"
# The campaign's link for mantra-relay: 2 Mb/s, 50 ms, a 50-packet drop-tail queue, 2 % loss each way.
RELAY_LINK = ["--rate", "2000000", "--delay-ms", "50", "--queue-packets", "50", "--loss", "0.02", "--impair-reverse"]
# Compared with overlapping intervals; shown beside them.
COMPARED = {"mean_psnr_db": "mean PSNR (dB)", "frozen_share": "frozen share"}
SHOWN = {"throughput_kbps": "throughput (kb/s)", "plr": "loss rate"}


def _value(flow: dict[str, Any], name: str) -> float:
    return float(flow["video"][name] if name in COMPARED else flow[name])


def _video_verdict(name: str, s: Interval, u: Interval) -> str:
    return overlap_verdict(s[0], s[1], u[0], u[1]) if name in COMPARED else "(shown)"


def video_rows(sim: Flows, udp: Flows) -> list[dict[str, Any]]:
    """Per protocol and metric: both means with their intervals and, for the video's metrics,
    whether the intervals overlap."""
    return compare_rows(sim, udp, [*COMPARED, *SHOWN], _value, _video_verdict)


def markdown(rows: list[dict[str, Any]]) -> str:
    cell = interval_cell
    names = {**COMPARED, **SHOWN}
    lines = ["| protocol | metric | mantra-sim | mantra-udp + relay | verdict |", "|---|---|---|---|---|"]
    lines += [
        f"| {r['protocol']} | {names[r['metric']]} | {cell(r['sim'])} | {cell(r['udp'])} | {r['verdict']} |"
        for r in rows
    ]
    return "\n".join(lines) + "\n"


def run_udp_video(out: Path, seeds: int, workers: int | None) -> str:
    """Runs both halves into `out` (sim/ and udp/), writes video.json and video.md; the table."""
    camp = load_campaign(CAMPAIGN, first_seeds=seeds)
    sim = simulated_flows(camp, out / "sim", seeds, workers)
    protocols = list(sim)
    udp_dir = out / "udp"
    udp_dir.mkdir(parents=True, exist_ok=True)
    base_flow = camp.base["flows"][0]
    video_file = write_video_file(base_flow["video"], int(base_flow["packet_size"]), udp_dir / "video.json")
    udp: Flows = {p: [] for p in protocols}
    for protocol in protocols:
        for seed in range(1, seeds + 1):
            receiver = run_udp_flow(protocol, seed, udp_dir, RELAY_LINK, ["--video", str(video_file)])
            sender = json.loads((udp_dir / f"{protocol}-seed{seed}-send.json").read_text())
            scored = with_video_quality(udp_media_result(sender, receiver))
            (udp_dir / f"{protocol}-seed{seed}-scored.json").write_text(json.dumps(scored, indent=1) + "\n")
            udp[protocol].append(scored["flows"][0])
    rows = video_rows(sim, udp)
    (out / "video.json").write_text(json.dumps(rows, indent=2) + "\n")
    table = markdown(rows)
    (out / "video.md").write_text(table)
    return table
