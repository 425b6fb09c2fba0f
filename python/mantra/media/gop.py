"""What a coded video's GOP structure implies: when each frame can be sent, when it is due,
and which frames it needs.

The structure is, per frame in decode order d, its type ('I', 'P' or 'B') and its display index
(pts, in frames); GOPs are closed and start at the decode indices `gop_starts`, each with an I frame.

Times, as offsets from the video's start (the first capture), before the playout delay:

- capture_s[d] = max(display index of frames 0..d in decode order) / fps: a frame can only be
  encoded once every frame it may reference has been captured;
- due_s[d] = min(display index of frames d..end of its GOP in decode order) / fps: any frame of
  the GOP decoded after it may need it, so it is due by the earliest display time among them.

References: an I frame references nothing; a P frame the previous I or P frame of its GOP; a B
frame (never itself a reference) the I or P frames just before and just after it in display order.
A frame is decodable when it arrived and every frame it references is decodable.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]


def gop_bounds(gop_starts: Sequence[int], frames: int) -> list[tuple[int, int]]:
    """Each GOP's [first, end) decode indices."""
    ends = [*gop_starts[1:], frames]
    return list(zip(gop_starts, ends, strict=True))


def capture_due_s(display: Sequence[int], gop_starts: Sequence[int], fps: float) -> tuple[Floats, Floats]:
    """capture_s and due_s of each decode-order frame (the module's rule)."""
    shown = np.asarray(display, dtype=np.int64)
    capture = np.maximum.accumulate(shown) / fps
    due = np.empty(len(shown))
    for first, end in gop_bounds(gop_starts, len(shown)):
        due[first:end] = np.minimum.accumulate(shown[first:end][::-1])[::-1] / fps
    return capture, due


def references(types: Sequence[str], display: Sequence[int], gop_starts: Sequence[int]) -> list[tuple[int, ...]]:
    """The decode indices of the frames each decode-order frame references (the module's rule)."""
    refs: list[tuple[int, ...]] = []
    for first, end in gop_bounds(gop_starts, len(types)):
        anchors = sorted((display[d], d) for d in range(first, end) if types[d] != "B")
        for d in range(first, end):
            if types[d] == "I":
                refs.append(())
            elif types[d] == "P":
                before = [a for p, a in anchors if p < display[d]]
                refs.append((before[-1],))
            else:
                before = [a for p, a in anchors if p < display[d]]
                after = [a for p, a in anchors if p > display[d]]
                if not (before and after):
                    raise ValueError(f"B frame {d} (display {display[d]}) lacks an anchor on one side within its GOP")
                refs.append((before[-1], after[0]))
    return refs
