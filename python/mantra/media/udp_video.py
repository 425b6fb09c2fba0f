"""A live video over mantra-udp (docs/udp.md, "A live video"): the file `mantra-udp send --video`
reads, written from the run spec's `video` keys, and the result the lab's player scores, put
together from the two ends' results.

The file is `{"media": <the simulator's flows[i].media block>, "bytes": "NAME.bin"}` with NAME.bin
beside it: every frame's encoded bytes (the encoder's packets), rung after rung, each rung in decode
order. The sender cuts each frame into datagrams exactly as mantra-sim does (MediaFeed) and writes,
per frame, its rung and how many datagrams it went in (`media.frame_datagrams`); the receiver writes
the first arrival of each datagram (`media_arrivals`: [application id, seconds since the sender's
hello]). Each frame's entry gets each datagram's arrival, and is complete when every one of its
datagrams arrived, at the last one's arrival: MediaLog's rule in mantra-sim. The sender's schedule
starts at its data's start, which its result gives on the receiver's clock (`clock.data_start_us`),
the receiver's origin being `clock.origin_us`.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from mantra.errors import InputError
from mantra.media.encode import codec_versions
from mantra.media.flow_video import prepared, video_desc

CHUNK_BITS = 24  # MediaSchedule::kChunkBits: an application id is (frame << 24) | chunk


def write_video_file(video: Any, packet_bytes: int, out: Path) -> Path:
    """Encodes (or finds in the cache) the video of the run spec's `video` keys for datagrams of
    `packet_bytes`, and writes `out` (JSON) and its bytes beside it (`out` with suffix .bin)."""
    if isinstance(video, dict) and "tcp_rate" in video:
        raise InputError("video.tcp_rate: mantra-udp carries the video over a core protocol, not TCP")
    desc, start = video_desc(video, "video", packet_bytes)
    media = prepared(desc)
    block = media.sim_block(start)
    block["source"] = {"video": video, "desc": desc.as_dict(), "codecs": codec_versions(), "rungs": media.rungs()}
    bin_path = out.with_suffix(".bin")
    with bin_path.open("wb") as f:
        for rep in media.reps:
            for packet in rep.packets:
                f.write(packet)
    out.write_text(json.dumps({"media": block, "bytes": bin_path.name}) + "\n")
    return out


def udp_media_result(sender: dict[str, Any], receiver: dict[str, Any]) -> dict[str, Any]:
    """The receiver's result with `flows[0].media` as mantra-sim writes it: the sender's media
    report with each frame's completion from the receiver's arrivals, on the receiver's clock."""
    media_sent = sender.get("media")
    if not isinstance(media_sent, dict):
        raise InputError("sender result: no media (was it run with --video?)")
    if "media_arrivals" not in receiver:
        raise InputError("receiver result: no media_arrivals (did its sender run with --video?)")
    media = copy.deepcopy(media_sent)
    datagrams: list[int] = media.pop("frame_datagrams")
    arrivals = [[-1.0] * count for count in datagrams]
    for app_id, t_s in receiver["media_arrivals"]:
        g, chunk = int(app_id) >> CHUNK_BITS, int(app_id) & ((1 << CHUNK_BITS) - 1)
        if 0 <= g < len(datagrams) and chunk < datagrams[g] and arrivals[g][chunk] < 0:
            arrivals[g][chunk] = float(t_s)
    for g, frame in enumerate(media["frames"]):
        whole = datagrams[g] > 0 and min(arrivals[g]) >= 0
        frame[1:] = [max(arrivals[g]) if whole else -1, arrivals[g]]
    shift_s = (sender["clock"]["data_start_us"] - receiver["clock"]["origin_us"]) / 1e6
    media["video_start"] = float(media["video_start"]) + shift_s
    result = copy.deepcopy(receiver)
    result.pop("media_arrivals")
    result["flows"][0]["media"] = media
    return result
