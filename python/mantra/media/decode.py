"""Decoding coded frames into pictures with FFmpeg's decoders (through PyAV), as a player would.

A fresh decoder (one thread, so that its output is the same on every run) takes the packets it is
given, in decode order, and returns the pictures it outputs, keyed by their display index (the
packet's pts, in frames). A packet it is not given is simply missing from the stream.

`decode` is for intact streams: the caller gives only frames whose references it also gives, so
no picture is ever concealed by the decoder, and any complaint of FFmpeg's raises.

`decode_concealed` is for damaged ones (EvalVid's way): the caller gives whatever arrived, and the
decoder conceals as it does, decoding a frame whose reference is missing against the pictures it
holds (drift). A packet FFmpeg refuses (it raises: a P frame given to a decoder that has seen no
sequence headers yet, which travel in I frames: h264 "non-existing PPS", mpeg4 no VOL header) is
counted and yields no picture. A picture the decoder does not output is simply absent: h264
decodes the P frames of a GOP whose IDR frame is lost but, with no B frames (picture order
derived from frame_num), finds them out of display order and outputs none but the last ("no
picture ooo"); mpeg4 skips a B frame whose anchors are not the two around it in time. FFmpeg's
log is silenced for the duration.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, NamedTuple

import av
import av.logging
import numpy as np
from av.video.frame import PictureType

from mantra.media.content import Picture

DECODERS: dict[str, Literal["mpeg4", "h264"]] = {"mpeg4": "mpeg4", "h264": "h264"}
"""The FFmpeg decoder of each codec."""
_TYPES = {int(PictureType.I): "I", int(PictureType.P): "P", int(PictureType.B): "B"}


class Decoded(NamedTuple):
    """A picture the decoder output, and its coding type ('I', 'P' or 'B') as the decoder saw it."""

    picture: Picture
    type: str


def decode(codec: str, packets: Iterable[tuple[bytes, int]]) -> dict[int, Decoded]:
    """What a fresh decoder outputs for these (packet bytes, display index) pairs, given in decode
    order, keyed by display index. An intact stream: a refusal or a misplaced picture raises."""
    pictures, _ = _decode(codec, packets, damaged=False)
    return pictures


def decode_concealed(codec: str, packets: Iterable[tuple[bytes, int]]) -> tuple[dict[int, Decoded], int]:
    """What one decoder outputs for these (packet bytes, display index) pairs of a damaged stream,
    given in decode order, keyed by display index; and how many packets FFmpeg refused.

    A picture with no pts, or the pts of a picture already output, is left out (it cannot be
    placed; the caller shows the previous picture in its slot)."""
    level = av.logging.get_level()
    av.logging.set_level(av.logging.PANIC)  # FFmpeg complains of every damaged packet
    try:
        return _decode(codec, packets, damaged=True)
    finally:
        av.logging.set_level(level)


def _decode(codec: str, packets: Iterable[tuple[bytes, int]], damaged: bool) -> tuple[dict[int, Decoded], int]:
    """One decoder (one thread) over the packets, then flushed; with `damaged`, FFmpeg's refusals
    are counted and pictures that cannot be placed are left out, else either raises."""
    ctx = av.CodecContext.create(DECODERS[codec], "r")
    ctx.thread_count = 1
    pictures: dict[int, Decoded] = {}
    errors = 0
    for data, pts in [*packets, (b"", -1)]:  # the empty last one flushes the decoder
        packet = padded_packet(data) if data else None
        if packet is not None:
            packet.pts = pts
        try:
            frames = ctx.decode(packet)
        except av.error.FFmpegError:
            if not damaged:
                raise
            errors += 1
            continue
        for frame in frames:
            if frame.pts is None or frame.pts in pictures:
                if damaged:
                    continue
                raise RuntimeError(f"the decoder output a picture with a missing or repeated pts ({frame.pts})")
            pictures[frame.pts] = Decoded(picture_of(frame), _TYPES.get(int(frame.pict_type), "?"))
    return pictures, errors


def padded_packet(data: bytes) -> av.Packet[Any]:
    """A packet holding a copy of `data` followed by FFmpeg's zeroed input padding.

    `av.Packet(data)` would reference the bytes object itself, without the padding that FFmpeg's
    decoders may read past the end; the mpeg4 decoder then decodes whatever lies beyond the
    object in memory, and its output changes from one run to the next."""
    packet = av.Packet(len(data))  # av_new_packet: size + AV_INPUT_BUFFER_PADDING_SIZE zeroed bytes
    memoryview(packet)[:] = data
    return packet


def picture_of(frame: av.VideoFrame) -> Picture:
    """A decoded frame's planes, copied out of the decoder's buffers."""
    if frame.format.name != "yuv420p":
        raise RuntimeError(f"the decoder output {frame.format.name}, not yuv420p")
    w, h = frame.width, frame.height
    flat = frame.to_ndarray(format="yuv420p")  # (h * 3/2, w): Y, then U, then V
    if flat.dtype != np.uint8:
        raise RuntimeError(f"the decoder output samples of {flat.dtype}, not 8-bit")
    flat = flat.astype(np.uint8, copy=False)  # no copy: only narrows the type for the checker
    y = flat[:h].copy()
    u = flat[h : h + h // 4].reshape(h // 2, w // 2).copy()
    v = flat[h + h // 4 :].reshape(h // 2, w // 2).copy()
    return Picture(y, u, v)
