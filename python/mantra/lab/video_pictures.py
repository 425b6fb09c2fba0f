"""The pictures of a video campaign (picture maker `video`): per-frame PSNR over time of one run
per scheme, and the same frame as each scheme's viewer saw it, beside the source.

    plots:
      - {kind: pictures, maker: video, where: {scenario: chain7}, options: {series: transport, seed: 1}}

options: `series` (required) the axis whose values are compared, one run each; `seed` (default:
the campaign's first) the run of each; `flow` (default: the first flow that carried video). The
frame shown is the one where the schemes' PSNRs are furthest apart (the largest max - min over
the slots they all displayed), where the difference is easiest to see. The dashed line is the
encoder's top rung with no network: the best the ladder can show.
"""

from __future__ import annotations

from functools import reduce
from typing import Any

import numpy as np

from mantra.lab.pictures import PictureRequest, register
from mantra.media.assess import SlotTrace
from mantra.media.content import Picture
from mantra.media.figures import frame_strip_png, psnr_trace_png
from mantra.media.flow_video import flow_playout
from mantra.media.ladder import PreparedMedia
from mantra.media.player import Floats, Playout

SPAN_S = 10.0  # the display time the PSNR trace shows


def _video_flow(result: dict[str, Any], flow: int | None) -> int:
    flows = result.get("flows", [])
    if flow is not None:
        return flow
    for i, f in enumerate(flows):
        if isinstance(f.get("media"), dict) and "source" in f["media"]:
            return i
    raise ValueError("no flow of the run carried video")


def video_pictures(request: PictureRequest) -> list[tuple[str, str]]:
    options = request.options
    series = options.get("series")
    if not isinstance(series, str) or series not in request.runs.columns:
        raise ValueError(f"{request.name}: options.series must name an axis of the campaign, not {series!r}")
    seed = options.get("seed", request.campaign.seeds[0])
    axis = request.campaign.axis(series)
    order = axis.labels if axis is not None else sorted(set(request.runs[series]))
    played: dict[str, tuple[PreparedMedia, Playout]] = {}
    psnr_db: dict[str, Floats] = {}  # per slot, as the run's evaluation stored it (`video.series`)
    for label in order:
        runs = request.runs[(request.runs[series] == label) & (request.runs["seed"] == seed)]
        if runs.empty:
            continue
        result = request.store.result(str(runs.iloc[0]["key"]))
        flow = _video_flow(result, options.get("flow"))
        played[str(label)] = flow_playout(result, flow)  # for its pictures
        psnr_db[str(label)] = np.asarray(result["flows"][flow]["video"]["series"]["psnr_db"], dtype=float)
    if not played:
        return []
    video, first = next(iter(played.values()))
    out_dir = request.out_dir / "pictures"
    out_dir.mkdir(parents=True, exist_ok=True)
    # The slot where the schemes differ most (the widest spread of PSNR), among those all displayed.
    common = reduce(np.intersect1d, (p.slots for _, p in played.values()))
    at = {label: np.searchsorted(p.slots, common) for label, (_, p) in played.items()}
    stacked = np.stack([psnr_db[label][at[label]] for label in played])
    slot = int(common[int(np.argmax(np.ptp(stacked, axis=0)))])
    time_s = float(first.time_s[int(np.searchsorted(first.slots, slot))])
    # The trace over SPAN_S around that frame: at 25 frames/s a whole run is a blur of lines.
    lo, hi = time_s - SPAN_S / 2, time_s + SPAN_S / 2

    def near(times: Floats, values: Floats) -> SlotTrace:
        keep = (times >= lo) & (times <= hi)
        return SlotTrace(times[keep], values[keep])

    trace_name = f"{request.name}-psnr.png"
    psnr_trace_png(
        out_dir / trace_name,
        {label: near(p.time_s, psnr_db[label]) for label, (_, p) in played.items()},
        near(first.time_s, video.reps[-1].psnr_db[first.source_frame]),
        f"per-frame PSNR around t = {time_s:.1f} s, seed {seed}",
    )
    shown: dict[str, Picture] = {}
    for label, (_, playout) in played.items():
        shown[label] = playout.picture(int(np.searchsorted(playout.slots, slot)))
    frame = slot % video.frames
    strip_name = f"{request.name}-frame.png"
    frame_strip_png(out_dir / strip_name, shown, video.content.video.picture(frame), slot)
    return [
        (
            f"pictures/{trace_name}",
            f"Per-frame PSNR of Y over the {SPAN_S:g} s of display time around the frame below, seed {seed}, "
            f"one run per {series}; dashed: the encoder's top rung with no network. The whole run's means are "
            "in the table above.",
        ),
        (
            f"pictures/{strip_name}",
            f"Display slot {slot} (t = {time_s:.2f} s, source frame {frame}) as each {series}'s viewer saw it, "
            "beside the source: the slot where their PSNRs differ most.",
        ),
    ]


register("video", video_pictures)
