"""Encoding a raw video with a real codec (FFmpeg's MPEG-4 Part 2 encoder or libx264, through
PyAV) into a stream whose every GOP can be sent, dropped or decoded on its own.

The settings are fixed so that the same input gives the same bitstream, byte for byte:

- one thread (encoder and decoder);
- a keyframe exactly every `gop_frames` frames, forced on the frame, with no scene-cut keyframes
  (libx264 `keyint` = gop_frames, `scenecut=0`; mpeg4 `sc_threshold` out of reach and its own GOP
  counter out of the way, as with B frames and closed GOPs it places keyframes 10 or 13 frames
  apart when asked for 12), and closed GOPs (libx264 `open-gop=0`, mpeg4 `+cgop`): a GOP's frames
  reference only frames of the same GOP, so each GOP decodes alone;
- the sequence headers repeated in every keyframe (libx264 `repeat-headers`; the mpeg4 encoder
  writes its VOL header before every I-VOP when it has no global header), so a GOP can also be
  decoded after a GOP of another representation;
- `b_frames` = 0 gives I P P P ...; `b_frames` = 2 gives I B B P B B P ... with a fixed pattern
  (libx264 `b-adapt=0`, mpeg4 `b_strategy=0`) in which no B frame is a reference (libx264
  `b-pyramid=none`; MPEG-4 B-VOPs never are), so B frames form a droppable enhancement layer
  (layer 1) over the I and P frames (layer 0). A GOP ends with a P frame (closed GOP), so its last
  B run may be shorter;
- with `slice_bytes` (the slice packetisation), each picture cut into slices that fit that many
  bytes: libx264's `slice-max-size` (a hard limit: x264 closes a slice before the macroblock that
  would pass it), FFmpeg mpeg4's video packets with resync markers (`ps`, the RTP payload size, set
  to half of slice_bytes: the encoder closes a video packet at the first macroblock past that size,
  so it overshoots by up to a macroblock, 458 bytes measured at 1.4 Mb/s at QCIF); without it one
  slice per picture, as before (the frame-whole packetisation). mantra.media.slices finds the units;
- rate control to a target bitrate with a VBV buffer of one GOP at that rate (maxrate = target),
  so that each GOP's size stays near the target; libx264's macroblock-tree rate control is off
  (`mbtree=0`): with a fixed B pattern it made the bytes differ from one run to the next. The
  mpeg4 encoder may use quantiser 1 (`qmin=1`, `lmin`), so that high rates are reached; its
  highest quantiser (31) still makes it overshoot low targets (at QCIF, 25 fps: 32 kb/s gives
  about 50 kb/s), which `PreparedMedia.rungs()` shows.

The result holds every frame in decode order (its packet, type, display index, layer), the
encoder's own decoded pictures (decoding the whole stream) and their per-frame PSNR and SSIM
against the source: the ceiling any delivery of this stream can reach. `encode` raises if the
structure is not the requested one: every GOP starts with an I frame at decode index
k * gop_frames, holds exactly the display indices [k * gop_frames, (k + 1) * gop_frames), and has
the same frame types as every other GOP; with no B frames, decode order is display order; and for
h264 the bitstream itself must mark every B frame's slices unreferenced (nal_ref_idc 0) and no
other frame's.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import av
import numpy as np
from av.video.frame import PictureType

from mantra.media import slices
from mantra.media.content import Content, Video
from mantra.media.decode import DECODERS, decode
from mantra.media.quality import Floats, psnr_db_frames, ssim_frames

ENCODERS: dict[str, Literal["mpeg4", "libx264"]] = {"mpeg4": "mpeg4", "h264": "libx264"}
"""The FFmpeg encoder of each codec."""
MAX_B_FRAMES = 4
_MPEG4_GOP_OFF = 1 << 30  # the mpeg4 encoder's own GOP logic is off: keyframes are forced
_QP1_LAMBDA = 118  # FFmpeg's FF_QP2LAMBDA: quantiser 1 in lambda units
MIN_SLICE_BYTES = 256
"""The smallest slice size asked for (mpeg4 is asked for half of it, a little over a macroblock)."""


@dataclass(frozen=True)
class EncodedStream:
    """One representation: every frame in decode order, and the decoded pictures in display order."""

    codec: str
    rate_bps: int  # the target
    gop_frames: int
    b_frames: int
    slice_bytes: int | None  # the slices' size asked for; None: a slice per picture
    fps: float
    settings: dict[str, str]  # what the encoder was given
    packets: tuple[bytes, ...]  # decode order
    display: tuple[int, ...]  # decode order: each frame's display index (pts in frames)
    types: str  # decode order: 'I', 'P' or 'B' per frame
    units: tuple[tuple[int, ...], ...]  # decode order: each frame's units' bytes (mantra.media.slices)
    decoded: Video  # display order: the encoder's own decoded pictures
    psnr_db: Floats  # display order: decoded against the source (Y)
    ssim: Floats  # display order

    @property
    def frames(self) -> int:
        return len(self.packets)

    @property
    def layers(self) -> tuple[int, ...]:
        """Decode order: 0 for I and P frames (the base), 1 for B frames (never references)."""
        return tuple(1 if t == "B" else 0 for t in self.types)

    @property
    def gop_starts(self) -> tuple[int, ...]:
        return tuple(range(0, self.frames, self.gop_frames))

    @property
    def frame_bytes(self) -> tuple[int, ...]:
        return tuple(len(p) for p in self.packets)

    @property
    def achieved_bps(self) -> float:
        return 8 * sum(self.frame_bytes) * self.fps / self.frames


def encoder_settings(
    codec: str, rate_bps: int, gop_frames: int, b_frames: int, fps: float, slice_bytes: int | None
) -> dict[str, str]:
    """The options the encoder is opened with (see the module's docstring)."""
    common = {
        "threads": "1",
        "b": str(rate_bps),
        "maxrate": str(rate_bps),
        "bufsize": str(round(rate_bps * gop_frames / fps)),  # one GOP
        "bf": str(b_frames),
    }
    if codec == "h264":
        x264 = f"keyint={gop_frames}:scenecut=0:open-gop=0:repeat-headers=1:b-adapt=0:b-pyramid=none:mbtree=0:threads=1"
        if slice_bytes is not None:
            x264 += f":slice-max-size={slice_bytes}"
        return {**common, "g": str(gop_frames), "x264-params": x264}
    if codec == "mpeg4":
        return {
            **common,
            "g": str(_MPEG4_GOP_OFF),
            "flags": "+cgop",
            "sc_threshold": "1000000000",
            "b_strategy": "0",
            # Quantiser 1 allowed (the default floor of 2 caps the rate at QCIF near 800 kb/s).
            "qmin": "1",
            "lmin": str(_QP1_LAMBDA),
            **({} if slice_bytes is None else {"ps": str(slice_bytes // 2)}),
        }
    raise ValueError(f"codec: {codec!r} is not one of {', '.join(ENCODERS)}")


def encode(
    content: Content, codec: str, rate_bps: int, gop_frames: int, b_frames: int, slice_bytes: int | None = None
) -> EncodedStream:
    """`content` encoded at `rate_bps` with GOPs of `gop_frames` frames and `b_frames` B frames
    between anchors, in slices of `slice_bytes` if given; its frame count must be a multiple of
    gop_frames."""
    _check_arguments(content, codec, rate_bps, gop_frames, b_frames, slice_bytes)
    settings = encoder_settings(codec, rate_bps, gop_frames, b_frames, content.fps, slice_bytes)
    ctx = av.CodecContext.create(ENCODERS[codec], "w")
    video = content.video
    ctx.width, ctx.height, ctx.pix_fmt = video.width, video.height, "yuv420p"
    ctx.framerate = _rational(content.fps)
    ctx.time_base = 1 / ctx.framerate
    ctx.options = settings
    ctx.open()
    coded: list[av.Packet[Any]] = []
    for i in range(content.frames):
        frame = av.VideoFrame.from_ndarray(
            np.concatenate([video.y[i], video.u[i].reshape(-1, video.width), video.v[i].reshape(-1, video.width)]),
            format="yuv420p",
        )
        frame.pts = i
        if i % gop_frames == 0:
            frame.pict_type = PictureType.I
        coded += ctx.encode(frame)
    coded += ctx.encode(None)
    packets = tuple(bytes(p) for p in coded)
    display = tuple(-1 if p.pts is None else int(p.pts) for p in coded)
    return stream_from_packets(content, codec, rate_bps, gop_frames, b_frames, slice_bytes, settings, packets, display)


def stream_from_packets(
    content: Content,
    codec: str,
    rate_bps: int,
    gop_frames: int,
    b_frames: int,
    slice_bytes: int | None,
    settings: dict[str, str],
    packets: tuple[bytes, ...],
    display: tuple[int, ...],
    known_quality: tuple[Floats, Floats] | None = None,
) -> EncodedStream:
    """The stream of these coded packets (decode order) of `content`: decoded whole, its structure
    checked, its pictures compared with the source (unless their PSNR and SSIM are known: a cached
    stream whose decoded pictures were checked to be the ones they were measured on)."""
    _check_arguments(content, codec, rate_bps, gop_frames, b_frames, slice_bytes)
    out = decode(codec, zip(packets, display, strict=True))
    n = content.frames
    if len(packets) != n or sorted(out) != list(range(n)):
        raise RuntimeError(
            f"{codec} at {rate_bps} b/s: {len(packets)} packets and {len(out)} decoded pictures for {n} frames"
        )
    types = "".join(out[p].type for p in display)
    _check_structure(codec, rate_bps, gop_frames, b_frames, packets, display, types)
    units = _units(codec, rate_bps, slice_bytes, packets, content.video.width, content.video.height)
    decoded = Video(
        np.stack([out[i].picture.y for i in range(n)]),
        np.stack([out[i].picture.u for i in range(n)]),
        np.stack([out[i].picture.v for i in range(n)]),
    )
    quality = known_quality or (psnr_db_frames(content.video.y, decoded.y), ssim_frames(content.video.y, decoded.y))
    return EncodedStream(
        codec=codec,
        rate_bps=rate_bps,
        gop_frames=gop_frames,
        b_frames=b_frames,
        slice_bytes=slice_bytes,
        fps=content.fps,
        settings=settings,
        packets=packets,
        display=display,
        types=types,
        units=units,
        decoded=decoded,
        psnr_db=quality[0],
        ssim=quality[1],
    )


def codec_versions() -> dict[str, Any]:
    """Provenance: PyAV's version, its FFmpeg libraries' versions, the encoders and decoders used,
    and libx264's build (from the version string it writes into its first keyframe)."""
    libs = av.library_versions
    return {
        "pyav": av.__version__,
        "ffmpeg": av.ffmpeg_version_info,
        **{name: ".".join(map(str, libs[name])) for name in ("libavcodec", "libavformat", "libavutil")},
        "encoders": dict(ENCODERS),
        "decoders": dict(DECODERS),
        "libx264": _x264_build(),
    }


def _rational(fps: float) -> Fraction:
    return Fraction(fps).limit_denominator(1001 * 1000)


def _check_arguments(
    content: Content, codec: str, rate_bps: int, gop_frames: int, b_frames: int, slice_bytes: int | None
) -> None:
    if codec not in ENCODERS:
        raise ValueError(f"codec: {codec!r} is not one of {', '.join(ENCODERS)}")
    if rate_bps <= 0:
        raise ValueError(f"rate_bps: {rate_bps} is not a positive rate")
    if not 0 <= b_frames <= MAX_B_FRAMES:
        raise ValueError(f"b_frames: {b_frames} is not in 0..{MAX_B_FRAMES}")
    if gop_frames < b_frames + 2:
        raise ValueError(f"gop_frames: {gop_frames} cannot hold an I frame, {b_frames} B frames and their P frame")
    if slice_bytes is not None and slice_bytes < MIN_SLICE_BYTES:
        raise ValueError(f"slice_bytes: {slice_bytes} is below {MIN_SLICE_BYTES}")
    if content.frames % gop_frames:
        raise ValueError(f"the content's {content.frames} frames are not a multiple of gop_frames ({gop_frames})")


def _check_structure(
    codec: str,
    rate_bps: int,
    gop_frames: int,
    b_frames: int,
    packets: tuple[bytes, ...],
    display: tuple[int, ...],
    types: str,
) -> None:
    """Raises unless the stream has the requested GOP structure (the module's docstring)."""
    what = f"{codec} at {rate_bps} b/s, GOP {gop_frames}, {b_frames} B frames"
    first_gop = types[:gop_frames]
    for start in range(0, len(types), gop_frames):
        gop = types[start : start + gop_frames]
        shown = sorted(display[start : start + gop_frames])
        if gop[0] != "I" or "I" in gop[1:]:
            raise RuntimeError(f"{what}: the GOP at decode index {start} is {gop}, not one I frame then P and B frames")
        if shown != list(range(start, start + gop_frames)):
            raise RuntimeError(f"{what}: the GOP at decode index {start} holds display indices {shown} (not closed)")
        if gop != first_gop:
            raise RuntimeError(f"{what}: the GOP at decode index {start} is {gop}, unlike the first one ({first_gop})")
    if b_frames == 0 and (display != tuple(range(len(display))) or "B" in types):
        raise RuntimeError(f"{what}: B frames or reordering in {first_gop}")
    if b_frames > 0 and "B" not in first_gop:
        raise RuntimeError(f"{what}: no B frame in {first_gop}")
    in_display_order = "".join(t for _, t in sorted(zip(display, types, strict=True)))
    if any(len(run) > b_frames for run in re.findall("B+", in_display_order)):
        raise RuntimeError(f"{what}: more than {b_frames} B frames in a row")
    if codec == "h264":
        for d, t in enumerate(types):
            refs = {ref for kind, ref in _h264_slices(packets[d])}
            if not refs or (t == "B") != (refs == {0}):
                raise RuntimeError(f"{what}: frame {d} ({t}) has slices of nal_ref_idc {sorted(refs)}")


def _units(
    codec: str, rate_bps: int, slice_bytes: int | None, packets: tuple[bytes, ...], width: int, height: int
) -> tuple[tuple[int, ...], ...]:
    """Each frame's units (mantra.media.slices; one per frame without slice_bytes). Raises unless
    every frame's slices start at macroblock 0 and in increasing order, and, for h264, every slice
    fits slice_bytes (x264's limit is a hard one): what a misread unit boundary would break."""
    if slice_bytes is None:
        return tuple((len(p),) for p in packets)
    out = []
    for d, packet in enumerate(packets):
        sizes = slices.units(codec, packet)
        starts = slices.first_macroblocks(codec, packet, width, height)
        firsts = [mb for mb in starts if mb is not None]
        if not firsts or firsts[0] != 0 or firsts != sorted(set(firsts)):
            raise RuntimeError(f"{codec} at {rate_bps} b/s: frame {d}'s slices start at macroblocks {firsts}")
        if codec == "h264" and any(mb is not None and s > slice_bytes for s, mb in zip(sizes, starts, strict=True)):
            raise RuntimeError(f"{codec} at {rate_bps} b/s: frame {d} has a slice over {slice_bytes} bytes: {sizes}")
        out.append(sizes)
    return tuple(out)


def _h264_slices(packet: bytes) -> list[tuple[int, int]]:
    """(nal_unit_type, nal_ref_idc) of each coded slice NAL unit of an Annex B packet."""
    slices = []
    for unit in packet.split(b"\x00\x00\x01")[1:]:
        if unit:
            kind, ref = unit[0] & 0x1F, (unit[0] >> 5) & 0x3
            if kind in (1, 5):
                slices.append((kind, ref))
    return slices


@functools.cache
def _x264_build() -> str:
    ctx = av.CodecContext.create(ENCODERS["h264"], "w")
    ctx.width, ctx.height, ctx.pix_fmt = 16, 16, "yuv420p"
    ctx.time_base = Fraction(1, 25)
    ctx.options = {"threads": "1"}
    ctx.open()
    frame = av.VideoFrame(16, 16, "yuv420p")
    frame.pts = 0
    data = b"".join(bytes(p) for p in [*ctx.encode(frame), *ctx.encode(None)])
    start = data.find(b"x264 - core ")
    return data[start : data.find(b" - ", start + 12)].decode("ascii", "replace") if start >= 0 else "unknown"
