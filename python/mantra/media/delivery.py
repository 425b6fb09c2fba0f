"""What reached the player, and in time: the simulator's media result of a flow (result["flows"][i]
["media"], docs/result-schema.md) read against the prepared video, down to each frame's units
(mantra.media.slices).

The result lists, per global decode-order frame reached, [rep, complete_s, arrivals]: the
representation it was sent in (-1: not sent), when it was whole at the sink (-1: never), and per
datagram of it (over TCP per chunk of the stream) when it arrived (-1: never). With packetization
slices a frame's datagrams are the prepared ones (mantra.media.packetize), so each covers known
units; with frames the frame is one unit that every datagram covers.

Time line. The video starts (its first capture) at `video_start` and loops: global frame g in
decode order is frame g % N of loop g // N, due by its deadline,
video_start + (g // N) * N / fps + playout_delay + due_s[g % N] (mantra.media.gop). A unit arrived
in time if every datagram covering it arrived by the frame's deadline. A frame is

- whole: every unit arrived in time (frames past the simulator's list were never reached);
- usable: a decoder can make something of it: it is whole or, with slices, a unit arrived in time
  and, for MPEG-4, its first unit did (its VOP header: mantra.media.slices.needs_first_unit).

`frame_bytes` gives the bytes a player hands the decoder: the units that arrived in time, in order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from mantra.media.ladder import PreparedMedia
from mantra.media.packetize import Datagram, units_arrived
from mantra.media.slices import needs_first_unit

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Delivery:
    """The simulator's media outcome of one flow, checked against the prepared media."""

    rep: Ints  # per global decode-order frame reached: its representation, -1 if not sent
    complete_s: Floats  # per global frame reached: when it was whole at the sink, -1 if never
    arrivals: tuple[tuple[float, ...], ...]  # per global frame reached: each datagram's arrival, -1 if never
    gop_reps: Ints  # per global GOP: the representation chosen
    video_start_s: float

    @staticmethod
    def from_result(media: Mapping[str, Any], prepared: PreparedMedia) -> Delivery:
        try:
            entries = list(media["frames"])
            chosen = np.array(media["gop_reps"], dtype=np.float64)
            start = float(media["video_start"])
            if not all(isinstance(e, list) and len(e) == 3 and isinstance(e[2], list) for e in entries):
                raise ValueError("not a list of [rep, complete_s, [arrival_s, ...]]")
            rep_f = np.array([e[0] for e in entries], dtype=np.float64)
            complete = np.array([e[1] for e in entries], dtype=np.float64)
            arrivals = tuple(tuple(float(t) for t in e[2]) for e in entries)
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"the simulator's media result is malformed: {e}") from e
        reps = len(prepared.reps)
        rep = rep_f.astype(np.int64)
        if not np.array_equal(rep, rep_f) or np.any((rep < -1) | (rep >= reps)):
            raise ValueError(f"media frames: a representation index is not an integer in -1..{reps - 1}")
        gop_reps = chosen.astype(np.int64)
        if chosen.ndim != 1 or not np.array_equal(gop_reps, chosen) or np.any((gop_reps < 0) | (gop_reps >= reps)):
            raise ValueError(f"media gop_reps: not a list of representation indices in 0..{reps - 1}")
        times = np.array([t for a in arrivals for t in a] + list(complete), dtype=np.float64)
        if np.any((times < 0) & (times != -1)) or not np.all(np.isfinite(times)):
            raise ValueError("media frames: a time is neither -1 nor a finite time")
        sent = np.flatnonzero(rep >= 0)
        gop_of = sent // prepared.desc.gop_frames
        if np.any(gop_of >= len(gop_reps)):
            raise ValueError(f"media frames: frame {sent[gop_of >= len(gop_reps)][0]} was sent in a GOP past gop_reps")
        wrong = sent[rep[sent] != gop_reps[gop_of]]
        if wrong.size:
            g = int(wrong[0])
            raise ValueError(
                f"media frames: frame {g} was sent in representation {rep[g]}, its GOP's is"
                f" {gop_reps[g // prepared.desc.gop_frames]}"
            )
        for g in sent.tolist():
            expected = _datagrams(prepared, int(rep[g]), g % prepared.frames)
            if not arrivals[g] or (expected is not None and len(arrivals[g]) != len(expected)):
                raise ValueError(
                    f"media frames: frame {g} lists {len(arrivals[g])} arrivals, it went in"
                    f" {'some' if expected is None else len(expected)} datagrams"
                )
        return Delivery(rep, complete, arrivals, gop_reps, start)


@dataclass(frozen=True)
class Received:
    """Per global decode-order frame of the loops evaluated: what of it arrived in time."""

    units: tuple[tuple[bool, ...], ...]  # per unit of the frame (at the rung it was sent in): arrived in time
    whole: Bools
    usable: Bools


def received(prepared: PreparedMedia, delivery: Delivery, loops: int) -> Received:
    """What of each global frame of the first `loops` loops arrived by its deadline (the module's rule)."""
    n, fps = prepared.frames, prepared.fps
    total = loops * n
    first_needed = needs_first_unit(prepared.desc.codec)
    units: list[tuple[bool, ...]] = []
    whole = np.zeros(total, dtype=bool)
    usable = np.zeros(total, dtype=bool)
    for g in range(total):
        r = int(delivery.rep[g]) if g < len(delivery.rep) else -1
        if r < 0:
            units.append(())
            continue
        d = g % n
        deadline = delivery.video_start_s + (g - d) / fps + prepared.desc.playout_delay_s + prepared.due_s[d]
        in_time = [0 <= t <= deadline for t in delivery.arrivals[g]]
        datagrams = _datagrams(prepared, r, d)
        if datagrams is None:  # frames: one unit, every datagram's
            ok: tuple[bool, ...] = (all(in_time),)
        else:
            ok = units_arrived(datagrams, in_time, len(prepared.reps[r].units[d]))
        units.append(ok)
        whole[g] = all(ok)
        usable[g] = whole[g] or (any(ok) and (ok[0] or not first_needed))
    return Received(tuple(units), whole, usable)


def frame_bytes(prepared: PreparedMedia, rep: int, d: int, units_ok: Sequence[bool]) -> bytes:
    """The bytes of frame d (decode order, within the loop) at rung `rep` that arrived: its units
    that did, in order."""
    packet = prepared.reps[rep].packets[d]
    if all(units_ok):
        return packet
    sizes = prepared.reps[rep].units[d]
    ends = np.cumsum(sizes).tolist()
    return b"".join(packet[e - s : e] for s, e, ok in zip(sizes, ends, units_ok, strict=True) if ok)


def _datagrams(prepared: PreparedMedia, rep: int, d: int) -> tuple[Datagram, ...] | None:
    """Frame d's datagrams at rung `rep` with slices; None with frames (the transport cut them)."""
    return prepared.datagrams[rep][d] if prepared.datagrams else None
