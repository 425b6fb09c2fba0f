"""The description of a media flow's video, as a user writes it: what content, which codec, which
ladder of bitrates, the GOP, how the sender adapts (mode), the player's playout delay and the size
of the datagrams the transport sends. Every field is required; a bad one is refused with an
InputError naming its key ("media.ladder_bps: ...").

    content:         {resolution: qcif | cif, seconds: > 0, fps: > 0, seed: int}
    codec:           mpeg4 | h264
    ladder_bps:      ascending list of positive ints (one representation each)
    gop_frames:      frames per GOP (>= b_frames + 2); the video is trimmed to whole GOPs
    b_frames:        B frames between anchors, 0..4 (layered needs at least 1)
    mode:            ladder (a representation per GOP) | layered (also drop B frames)
    playout_delay_s: > 0 (as the simulator's media.playout_delay)
    packet_bytes:    datagram size, 64..1460 (a flow's packet_size)
    packetization:   slices (each picture cut into slices of at most slice_bytes = packet_bytes -
                     SLICE_RESERVE_BYTES, whole slices in each datagram: mantra.media.packetize)
                     | frames (a slice per picture, cut into datagrams by the transport; a frame
                     counts only whole: EvalVid's rule)
    partial:         what the freeze player shows for a frame of which some slices arrived in time
                     but not all: conceal (the decoder's picture, the missing slices concealed, and
                     the frames after it decoded on top; slices only) | freeze (as if none arrived;
                     with frames, the only one: a frame is one unit)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from mantra.errors import InputError
from mantra.media.content import RESOLUTIONS, frame_count
from mantra.media.encode import ENCODERS, MAX_B_FRAMES, MIN_SLICE_BYTES
from mantra.spec_check import MEDIA_FPS, PACKET_SIZE

MODES = ("ladder", "layered")
PACKETIZATIONS = ("slices", "frames")
PARTIAL_RULES = ("conceal", "freeze")
SLICE_RESERVE_BYTES = 64
"""A datagram's bytes that are not video: the largest transport data header (mantra's, 24 bytes)
and mantra-udp's application frame (34 bytes), rounded up."""


@dataclass(frozen=True)
class ContentDesc:
    resolution: str
    seconds: float
    fps: float
    seed: int

    def __post_init__(self) -> None:
        _choice(self.resolution, "content.resolution", tuple(RESOLUTIONS))
        _number(self.seconds, "content.seconds", positive=True)
        _number(self.fps, "content.fps", positive=True)
        if self.fps > MEDIA_FPS.hi:
            raise DescError("content.fps", f"{self.fps} is out of range {MEDIA_FPS.text}")
        _integer(self.seed, "content.seed")


@dataclass(frozen=True)
class MediaDesc:
    content: ContentDesc
    codec: str
    ladder_bps: tuple[int, ...]
    gop_frames: int
    b_frames: int
    mode: str
    playout_delay_s: float
    packet_bytes: int
    packetization: str
    partial: str

    def __post_init__(self) -> None:
        if not isinstance(self.content, ContentDesc):
            raise DescError("content", f"{self.content!r} is not a content description")
        _choice(self.codec, "codec", tuple(ENCODERS))
        if not isinstance(self.ladder_bps, tuple) or not self.ladder_bps:
            raise DescError("ladder_bps", f"{self.ladder_bps!r} is not a non-empty list of bitrates")
        for rate in self.ladder_bps:
            _integer(rate, "ladder_bps", minimum=1)
        if any(a >= b for a, b in zip(self.ladder_bps, self.ladder_bps[1:], strict=False)):
            raise DescError("ladder_bps", f"{list(self.ladder_bps)} is not strictly ascending")
        _integer(self.b_frames, "b_frames", minimum=0, maximum=MAX_B_FRAMES)
        _choice(self.mode, "mode", MODES)
        if self.mode == "layered" and self.b_frames == 0:
            raise DescError("b_frames", "layered mode needs B frames (its enhancement layer), not 0")
        _integer(self.gop_frames, "gop_frames", minimum=self.b_frames + 2)
        if self.frames < self.gop_frames:
            raise DescError(
                "content.seconds",
                f"{self.content.seconds} s at {self.content.fps} fps is"
                f" {frame_count(self.content.seconds, self.content.fps)} frames, less than one GOP ({self.gop_frames})",
            )
        _number(self.playout_delay_s, "playout_delay_s", positive=True)  # as the simulator's media.playout_delay
        _integer(self.packet_bytes, "packet_bytes", minimum=int(PACKET_SIZE.lo), maximum=int(PACKET_SIZE.hi))
        _choice(self.packetization, "packetization", PACKETIZATIONS)
        _choice(self.partial, "partial", PARTIAL_RULES)
        if self.packetization == "frames":
            if self.partial == "conceal":
                raise DescError("partial", "conceal needs packetization slices (with frames a frame counts only whole)")
            return
        if self.packet_bytes - SLICE_RESERVE_BYTES < MIN_SLICE_BYTES:
            raise DescError(
                "packet_bytes",
                f"{self.packet_bytes} leaves {self.packet_bytes - SLICE_RESERVE_BYTES} bytes for slices, below"
                f" {MIN_SLICE_BYTES} (packetization slices needs at least {MIN_SLICE_BYTES + SLICE_RESERVE_BYTES})",
            )

    @property
    def slice_bytes(self) -> int | None:
        """The slices' size and each datagram's video bytes at most (slices); None: frames."""
        return self.packet_bytes - SLICE_RESERVE_BYTES if self.packetization == "slices" else None

    @property
    def frames(self) -> int:
        """The video's frame count: the content's, trimmed to a whole number of GOPs."""
        n = frame_count(self.content.seconds, self.content.fps)
        return n - n % self.gop_frames

    @staticmethod
    def from_dict(d: object) -> MediaDesc:
        """The description in `d` (parsed JSON or YAML)."""
        m = _mapping(d, _WHERE, _FIELDS)
        c = _mapping(m["content"], f"{_WHERE}.content", _CONTENT_FIELDS)
        ladder = m["ladder_bps"]
        return MediaDesc(
            content=ContentDesc(**c),
            codec=m["codec"],
            ladder_bps=tuple(ladder) if isinstance(ladder, list) else ladder,
            gop_frames=m["gop_frames"],
            b_frames=m["b_frames"],
            mode=m["mode"],
            playout_delay_s=m["playout_delay_s"],
            packet_bytes=m["packet_bytes"],
            packetization=m["packetization"],
            partial=m["partial"],
        )

    def as_dict(self) -> dict[str, Any]:
        """The description as from_dict reads it."""
        return {**asdict(self), "ladder_bps": list(self.ladder_bps)}


_WHERE = "media"


class DescError(InputError):
    """A field of the description refused: `field` (as MediaDesc names it: "content.fps",
    "ladder_bps") and what is wrong, apart, so a caller can name its own key."""

    def __init__(self, field: str, what: str):
        super().__init__(f"{_WHERE}.{field}: {what}")
        self.field = field
        self.what = what


_FIELDS = tuple(f.name for f in fields(MediaDesc))
_CONTENT_FIELDS = tuple(f.name for f in fields(ContentDesc))


def _mapping(d: object, where: str, names: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(d, Mapping):
        raise InputError(f"{where}: {d!r} is not a mapping")
    missing = [n for n in names if n not in d]
    if missing:
        raise InputError(f"{where}.{missing[0]}: missing")
    unknown = [k for k in d if k not in names]
    if unknown:
        raise InputError(f"{where}.{unknown[0]}: unknown key (expected {', '.join(names)})")
    return d


def _integer(v: object, key: str, minimum: int | None = None, maximum: int | None = None) -> None:
    if isinstance(v, bool) or not isinstance(v, int):
        raise DescError(key, f"{v!r} is not an integer")
    if (minimum is not None and v < minimum) or (maximum is not None and v > maximum):
        bounds = f"{minimum if minimum is not None else '-inf'}..{maximum if maximum is not None else 'inf'}"
        raise DescError(key, f"{v} is out of range ({bounds})")


def _number(v: object, key: str, positive: bool) -> None:
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
        raise DescError(key, f"{v!r} is not a finite number")
    if v < 0 or (positive and v == 0):
        raise DescError(key, f"{v} is not {'positive' if positive else 'non-negative'}")


def _choice(v: object, key: str, choices: tuple[str, ...]) -> None:
    if v not in choices:
        raise DescError(key, f"{v!r} is not one of {', '.join(choices)}")
