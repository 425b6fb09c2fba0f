"""How a frame's units (mantra.media.slices) go into datagrams: whole units, never one across two.

A frame's units are taken in order; a datagram takes the next units while their bytes together fit
`budget_bytes` of video (RFC 6184's aggregation of NAL units, within one frame). A unit larger than
the budget (an MPEG-4 video packet can overshoot the size asked for by a macroblock) is the one
exception: it is cut into datagrams of the budget (the last one the rest), like RFC 6184's
fragmentation units, and is usable only if all of them arrive. Datagrams never mix frames.

A datagram is described by its video bytes and the units it covers, [first_unit, end_unit): every
unit it holds, or the one unit it holds a fragment of. A unit arrived when every datagram covering
it arrived.

The frame-whole packetisation (EvalVid's rule, `packetization: frames`) is the same with one unit
per frame: the frame is cut into datagrams of the budget and is usable only whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Datagram(NamedTuple):
    """One datagram of a frame: its bytes of video and the units it covers, [first_unit, end_unit)."""

    bytes: int
    first_unit: int
    end_unit: int


def packetize(unit_bytes: Sequence[int], budget_bytes: int) -> tuple[Datagram, ...]:
    """The datagrams of a frame of these units (the module's rule)."""
    if budget_bytes <= 0:
        raise ValueError(f"budget_bytes: {budget_bytes} is not positive")
    out: list[Datagram] = []
    first, held = 0, 0
    for u, size in enumerate(unit_bytes):
        if size <= 0:
            raise ValueError(f"unit {u}: {size} bytes")
        if held and held + size > budget_bytes:
            out.append(Datagram(held, first, u))
            first, held = u, 0
        if size > budget_bytes:
            out.extend(Datagram(min(budget_bytes, size - at), u, u + 1) for at in range(0, size, budget_bytes))
            first = u + 1
            continue
        held += size
    if held:
        out.append(Datagram(held, first, len(unit_bytes)))
    return tuple(out)


def units_arrived(datagrams: Sequence[Datagram], arrived: Sequence[bool], units: int) -> tuple[bool, ...]:
    """Per unit of the frame: whether every datagram covering it arrived."""
    if len(datagrams) != len(arrived):
        raise ValueError(f"{len(arrived)} arrivals for {len(datagrams)} datagrams")
    came = [True] * units
    covered = [False] * units
    for d, ok in zip(datagrams, arrived, strict=True):
        for u in range(d.first_unit, d.end_unit):
            covered[u] = True
            came[u] = came[u] and ok
    return tuple(c and v for c, v in zip(came, covered, strict=True))
