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
          start: 20s                     # optional: the first capture (default: the flow's start)

Every key but `start` is required. The block given to the simulator keeps the description and
the codec versions under `media.source` (echoed in the result), so the result says what was sent
and the evaluation can find the same encodings again (they are cached on disk, keyed by the
description and the codec versions: MANTRA_MEDIA_CACHE, default .cache/media in the repository).

After the run, each flow with a media block gets `video`: the summary of mantra.media.assess
(mean PSNR and SSIM, MOS, share below 25 dB, frozen share, start-up delay, the encoder's ceiling)
over the display slots of the run's measurement window ([measure.from, measure.to or duration]),
and `video.series` (per slot: display time, PSNR, the ceiling's PSNR) for plots; the result's
provenance gets the codec versions. That player freezes: a frame is shown only if it and every
frame it references arrived in time (mantra.media.player, concealment "freeze"). Each such flow
also gets `video_ec`: the same slots of the same run with EvalVid's concealment instead (the
decoder is fed every frame that arrived in time and conceals what is missing: drift, blocking;
concealment "decoder"): the same summary keys, plus `decode_errors` (the packets FFmpeg refused),
and `video_ec.series` with `t` and `psnr_db`.
"""

from __future__ import annotations

import copy
import json
import os
import re
from pathlib import Path
from typing import Any

from mantra.errors import InputError, SpecKeyError
from mantra.media.assess import VideoQuality, assess
from mantra.media.desc import MediaDesc
from mantra.media.ladder import PreparedMedia, codec_versions, prepare
from mantra.media.player import Floats, Playout, play
from mantra.spec_check import duration_s, rate_bps

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
}
OPTIONAL = ("start",)
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
    fields: dict[str, Any] = {field: video[k] for k, field in KEYS.items()}
    fields["ladder_bps"] = [round(rate_bps(r, f"{key}.ladder[{i}]")) for i, r in enumerate(ladder)]
    fields["playout_delay_s"] = duration_s(video["playout_delay"], f"{key}.playout_delay")
    content = {f.split(".")[1]: fields.pop(f) for f in list(fields) if f.startswith("content.")}
    start = duration_s(video["start"], f"{key}.start") if "start" in video else None
    try:
        desc = MediaDesc.from_dict({**fields, "content": content, "packet_bytes": packet_bytes})
    except InputError as e:
        raise _user_key_error(str(e), key) from None
    return desc, start


def _user_key_error(message: str, key: str) -> SpecKeyError:
    """MediaDesc's 'media.FIELD: what' as the user's 'KEY.key: what'."""
    m = re.match(r"media\.([a-z_.]+): (.*)", message)
    if not m:
        return SpecKeyError(key, message)
    field, what = m.groups()
    user = {v: k for k, v in KEYS.items()} | {"packet_bytes": "packet_size"}
    name = user.get(field, field)
    return SpecKeyError(key.rsplit(".", 1)[0] + ".packet_size" if name == "packet_size" else f"{key}.{name}", what)


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
        if isinstance(packet, bool) or not isinstance(packet, int):
            raise SpecKeyError(f"flows[{i}].packet_size", "must be an integer (64 .. 1460 bytes)")
        video = flow.pop("video")
        desc, start = video_desc(video, key, packet)
        block = prepared(desc).sim_block(start)
        block["source"] = {"video": video, "desc": desc.as_dict(), "codecs": codec_versions()}
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
        q = flow_quality(result, i)
        flow["video"] = {
            **q.summary(),
            **_rung_extremes(result, i),
            "series": {
                "t": _rounded(q.time_s, 3),
                "psnr_db": _rounded(q.psnr_db, 2),
                "encoder_psnr_db": _rounded(q.slot_encoder_psnr_db, 2),
            },
        }
        ec = flow_quality(result, i, "decoder")
        flow["video_ec"] = {**ec.summary(), "series": {"t": _rounded(ec.time_s, 3), "psnr_db": _rounded(ec.psnr_db, 2)}}
        carried = True
    if carried:
        result.setdefault("provenance", {})["codecs"] = codec_versions()
    return result


def _rung_extremes(result: dict[str, Any], flow: int) -> dict[str, float | None]:
    """How often the sender sat at the ladder's ends, over the GOPs begun within the measurement
    window: a share at the bottom says the ladder did not reach low enough for the rate the
    transport allowed (or the rate was unknown), at the top that the transport allowed more."""
    media = result["flows"][flow]["media"]
    desc = MediaDesc.from_dict(media["source"]["desc"])
    start, end = _window_s(result["spec"])
    gop_s = desc.gop_frames / desc.content.fps
    reps = [r for g, r in enumerate(media["gop_reps"]) if start <= media["video_start"] + g * gop_s <= end]
    top = len(desc.ladder_bps) - 1
    if not reps:
        return {"gops_at_bottom_share": None, "gops_at_top_share": None}
    return {
        "gops_at_bottom_share": sum(r == 0 for r in reps) / len(reps),
        "gops_at_top_share": sum(r == top for r in reps) / len(reps),
    }


def _rounded(values: Floats, digits: int) -> list[float]:
    return [round(float(v), digits) for v in values]
