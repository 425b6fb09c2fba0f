"""Shared by the media tests: small prepared videos (encoded once per test session, in a
temporary cache), and the simulator's outcome of a flow that delivered every frame on time."""

import functools
import tempfile
from pathlib import Path
from typing import Any

from mantra.media.desc import ContentDesc, MediaDesc
from mantra.media.ladder import PreparedMedia, prepare

_CACHE = tempfile.TemporaryDirectory(prefix="mantra-media-tests-")
CACHE_DIR = Path(_CACHE.name)
START_S = 10.0  # the video's first capture, absolute seconds
LATENCY_S = 0.01  # capture to complete arrival, in on_time deliveries


def desc(
    codec="h264",
    b_frames=0,
    mode="ladder",
    ladder=(64000, 192000),
    seconds=2.4,
    gop=12,
    delay_s=0.5,
    seed=7,
    packetization="frames",
    partial="freeze",
):
    return MediaDesc(
        content=ContentDesc(resolution="qcif", seconds=seconds, fps=25.0, seed=seed),
        codec=codec,
        ladder_bps=tuple(ladder),
        gop_frames=gop,
        b_frames=b_frames,
        mode=mode,
        playout_delay_s=delay_s,
        packet_bytes=1000,
        packetization=packetization,
        partial=partial,
    )


@functools.cache
def prepared(*args: Any, **keys: Any) -> PreparedMedia:
    """The video `desc(*args, **keys)` describes, encoded once per test session."""
    return prepare(desc(*args, **keys), CACHE_DIR)


def on_time(p: PreparedMedia, loops=1, gop_reps=None) -> dict[str, Any]:
    """CONTRACT B for a flow that sent `loops` loops, every frame complete LATENCY_S after its
    capture; GOPs alternate between the rungs unless `gop_reps` is given."""
    n, gops = p.frames, len(p.gop_starts)
    if gop_reps is None:
        gop_reps = [k % len(p.reps) for k in range(loops * gops)]
    frames = []
    for g in range(loops * n):
        loop, d = divmod(g, n)
        rep = gop_reps[g // p.desc.gop_frames]
        t = START_S + loop * n / p.fps + p.capture_s[d] + LATENCY_S
        frames.append([rep, t, [t] * (len(p.datagrams[rep][d]) if p.datagrams else 1)])
    return {"frames": frames, "gop_reps": list(gop_reps), "video_start": START_S}


def set_arrival(media: dict[str, Any], g: int, t: float) -> None:
    """Every datagram of global frame g arrived at t (-1: none arrived)."""
    entry = media["frames"][g]
    entry[1] = t
    entry[2] = [t] * len(entry[2])


def lose_datagram(media: dict[str, Any], g: int, k: int) -> None:
    """Datagram k of global frame g never arrived (the frame is then never whole)."""
    entry = media["frames"][g]
    entry[1] = -1.0
    entry[2][k] = -1.0


def deadline_s(p: PreparedMedia, g: int) -> float:
    """Global frame g's deadline, by the player's rule."""
    loop, d = divmod(g, p.frames)
    return START_S + loop * p.frames / p.fps + p.desc.playout_delay_s + float(p.due_s[d])


def decode_index(p: PreparedMedia, display: int) -> int:
    """The decode index of the frame with this display index (within one loop)."""
    return p.display.index(display)


def window(p: PreparedMedia, loops=1) -> tuple[float, float]:
    """The absolute times of every slot of the first `loops` loops."""
    first = START_S + p.desc.playout_delay_s
    return first, first + (loops * p.frames - 1) / p.fps
