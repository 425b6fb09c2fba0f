"""A flow's `video`: the video a run spec's flow carries, as a user writes it, turned into the
simulator's `media` block (the encoded trace) before mantra-sim sees the spec, and, once the run
is done, the quality a viewer would have seen, added to the flow's result.

    flows:
      - protocol: tfrc
        packet_size: 1000                # the datagrams the frames are cut into
        video:
          resolution: qcif               # qcif (176x144) | cif (352x288): synthetic content
          seconds: 10                    # the content's length; it loops for as long as the flow runs
          fps: 25
          content_seed: 1                # which synthetic scene
          codec: h264                    # h264 (libx264) | mpeg4 (FFmpeg's MPEG-4 Part 2)
          ladder: [64kbps, 128kbps]      # the rates encoded, ascending
          gop: 12                        # frames per closed GOP (the sender switches per GOP)
          b_frames: 0                    # non-reference B-frames between anchors (layered: >= 1)
          mode: ladder                   # ladder: a rate per GOP | layered: also B-frames as room allows
          playout_delay: 1s              # the player's start-up delay
          packetization: slices          # slices: pictures in slices of packet_size - 64 bytes, whole
                                         #   slices per datagram | frames: a frame counts only whole
          partial: conceal               # a frame partly in time is shown concealed (conceal, slices
                                         #   only) or not at all (freeze) by the `video` player
          start: 20s                     # optional: the first capture (default: the flow's start)
          tcp_rate: delivery             # optional, TCP flows: the rung from the delivery rate
                                         #   (default) or from cwnd / sRTT alone (window: the rule
                                         #   before issue 32, to compare against)

Every key but `start` and `tcp_rate` is required. The block given to the simulator keeps the description and
the codec versions under `media.source` (echoed in the result), so the result says what was sent
and the evaluation can find the same encodings again (they are cached on disk, keyed by the
description and the codec versions: MANTRA_MEDIA_CACHE, default .cache/media in the repository).

After the run, each flow with a media block gets `video`: the summary of mantra.media.assess
(mean PSNR and SSIM, MOS, share below 25 dB, frozen and damaged shares, start-up delay, the
encoder's ceiling)
over the display slots of the run's measurement window ([measure.from, measure.to or duration]),
and `video.series` (per slot: display time, PSNR, the ceiling's PSNR) for plots; the result's
provenance gets the codec versions. That player freezes: a frame is shown only if it (whole, or
with `partial: conceal` what of it arrived) and every frame it references are shown
(mantra.media.player, concealment "freeze"). Each such flow also gets `video_ec`: the same slots
of the same run with EvalVid's concealment instead (the decoder is fed every frame, or every slice,
that arrived in time and conceals what is missing: drift, blocking; concealment "decoder"): the
same summary keys, plus `decode_errors` (the packets FFmpeg refused), and `video_ec.series` with
`t` and `psnr_db`.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from mantra.errors import SpecKeyError
from mantra.media.assess import SlotScores, VideoQuality, assess
from mantra.media.desc import ContentDesc, DescError, MediaDesc
from mantra.media.ladder import PreparedMedia, codec_versions, prepare
from mantra.media.player import Floats, Playout, play
from mantra.spec_check import MEDIA_PLAYOUT_DELAY, duration_s, rate_bps

# The user's key -> MediaDesc's field (content fields under "content.").
KEYS = {
    "resolution": "content.resolution",
    "seconds": "content.seconds",
    "fps": "content.fps",
    "content_seed": "content.seed",
    "codec": "codec",
    "ladder": "ladder_bps",
    "gop": "gop_frames",
    "b_frames": "b_frames",
    "mode": "mode",
    "playout_delay": "playout_delay_s",
    "packetization": "packetization",
    "partial": "partial",
}
OPTIONAL = ("start", "tcp_rate")
TCP_RATES = ("delivery", "window")
DEFAULT_PACKET_BYTES = 1000  # a flow's packet_size when it gives none (sim/src/spec/spec.h)

_prepared: dict[str, PreparedMedia] = {}  # by description: one encoding per process


def cache_dir() -> Path:
    """Where encoded ladders are kept between runs."""
    default = Path(__file__).resolve().parents[3] / ".cache" / "media"
    return Path(os.environ.get("MANTRA_MEDIA_CACHE", default))


def video_desc(video: Any, key: str, packet_bytes: int) -> tuple[MediaDesc, float | None]:
    """The description of a flow's `video` (at `key`, e.g. flows[0].video) and its start (None:
    the flow's start). Raises SpecKeyError naming the user's key."""
    if not isinstance(video, dict):
        raise SpecKeyError(key, "must be a mapping (resolution, seconds, fps, content_seed, codec, ladder, ...)")
    for k in video:
        if k not in KEYS and k not in OPTIONAL:
            raise SpecKeyError(f"{key}.{k}", f"unknown key (allowed: {', '.join([*KEYS, *OPTIONAL])})")
    for k in KEYS:
        if k not in video:
            raise SpecKeyError(f"{key}.{k}", "missing")
    ladder = video["ladder"]
    if not isinstance(ladder, list) or not ladder:
        raise SpecKeyError(f"{key}.ladder", "must be a non-empty list of rates (e.g. [64kbps, 128kbps])")
    start = duration_s(video["start"], f"{key}.start") if "start" in video else None
    if "tcp_rate" in video and video["tcp_rate"] not in TCP_RATES:
        raise SpecKeyError(f"{key}.tcp_rate", f"{video['tcp_rate']!r} is not one of {', '.join(TCP_RATES)}")
    try:
        desc = MediaDesc(
            content=ContentDesc(video["resolution"], video["seconds"], video["fps"], video["content_seed"]),
            codec=video["codec"],
            ladder_bps=tuple(round(rate_bps(r, f"{key}.ladder[{i}]")) for i, r in enumerate(ladder)),
            gop_frames=video["gop"],
            b_frames=video["b_frames"],
            mode=video["mode"],
            playout_delay_s=duration_s(video["playout_delay"], f"{key}.playout_delay", MEDIA_PLAYOUT_DELAY),
            packet_bytes=packet_bytes,
            packetization=video["packetization"],
            partial=video["partial"],
        )
    except DescError as e:  # named by MediaDesc's field: the user's key for it
        user = {field: k for k, field in KEYS.items()}
        where = f"{key.rsplit('.', 1)[0]}.packet_size" if e.field == "packet_bytes" else f"{key}.{user[e.field]}"
        raise SpecKeyError(where, e.what) from None
    return desc, start


def prepared(desc: MediaDesc) -> PreparedMedia:
    """The description's encoded ladder (encoded once per process, cached on disk)."""
    name = json.dumps(desc.as_dict(), sort_keys=True)
    if name not in _prepared:
        _prepared[name] = prepare(desc, cache_dir())
    return _prepared[name]


def expand_video(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec with every flow's `video` replaced by the simulator's `media` block (a copy; the
    spec itself is left as it is). A spec without video comes back unchanged."""
    flows = spec.get("flows")
    if not isinstance(flows, list) or not any(isinstance(f, dict) and "video" in f for f in flows):
        return spec
    out = copy.deepcopy(spec)
    for i, flow in enumerate(out["flows"]):
        if not isinstance(flow, dict) or "video" not in flow:
            continue
        key = f"flows[{i}].video"
        if "media" in flow:
            raise SpecKeyError(key, "a flow gives `video` or the simulator's `media`, not both")
        packet = flow.get("packet_size", DEFAULT_PACKET_BYTES)
        if isinstance(packet, float) and packet.is_integer():  # YAML's 1000.0 is the simulator's 1000
            packet = int(packet)
        video = flow.pop("video")
        desc, start = video_desc(video, key, packet)
        ladder = prepared(desc)
        block = ladder.sim_block(start)
        if "tcp_rate" in video:
            block["tcp_rate"] = video["tcp_rate"]
        # What was sent, as written and whole, the codecs, and each rung's achieved rate and quality.
        block["source"] = {"video": video, "desc": desc.as_dict(), "codecs": codec_versions(), "rungs": ladder.rungs()}
        flow["media"] = block
    return out


def _window_s(spec: dict[str, Any]) -> tuple[float, float]:
    """The run's measurement window, as the simulator reads it."""
    measure = spec.get("measure") or {}
    duration = duration_s(spec.get("duration", 0), "duration")
    start = duration_s(measure.get("from", 0), "measure.from")
    end = duration_s(measure["to"], "measure.to") if "to" in measure else duration
    return start, end


def flow_playout(result: dict[str, Any], flow: int, concealment: str = "freeze") -> tuple[PreparedMedia, Playout]:
    """The video flow `flow` carried and what its player (with this concealment, "freeze" or
    "decoder": mantra.media.player) showed over the measurement window."""
    media = result["flows"][flow]["media"]
    video = prepared(MediaDesc.from_dict(media["source"]["desc"]))
    start, end = _window_s(result["spec"])
    return video, play(video, media, start, end, concealment)


def flow_quality(result: dict[str, Any], flow: int, concealment: str = "freeze") -> VideoQuality:
    """The quality a viewer of flow `flow` saw over the run's measurement window."""
    return assess(*flow_playout(result, flow, concealment))


def add_video_quality(result: dict[str, Any]) -> dict[str, Any]:
    """The result with `video` and `video_ec` added to every flow that carried video (in place;
    returned)."""
    carried = False
    for i, flow in enumerate(result.get("flows", [])):
        if not isinstance(flow.get("media"), dict) or "source" not in flow["media"]:
            continue
        video, playout = flow_playout(result, i)
        scores = SlotScores(video)  # the two players' pictures scored once
        q = assess(video, playout, scores)
        top = len(video.reps) - 1
        flow["video"] = {
            **q.summary(),
            # The rung of each evaluated slot's GOP: how often the sender sat at the ladder's ends
            # (at the bottom: the ladder did not reach low enough for what the transport allowed).
            "gops_at_bottom_share": float(np.mean(playout.sender_rep == 0)),
            "gops_at_top_share": float(np.mean(playout.sender_rep == top)),
            "series": {
                "t": _rounded(q.time_s, 3),
                "psnr_db": _rounded(q.psnr_db, 2),
                "encoder_psnr_db": _rounded(q.slot_encoder_psnr_db, 2),
            },
        }
        ec = assess(*flow_playout(result, i, "decoder"), scores)
        flow["video_ec"] = {**ec.summary(), "series": {"t": _rounded(ec.time_s, 3), "psnr_db": _rounded(ec.psnr_db, 2)}}
        carried = True
    if carried:
        result.setdefault("provenance", {})["codecs"] = codec_versions()
    return result


def _rounded(values: Floats, digits: int) -> list[float]:
    return [round(float(v), digits) for v in values]
