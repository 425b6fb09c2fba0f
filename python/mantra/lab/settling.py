"""How a rate settles after an event: the time it takes a group's rate to reach a target
and stay near it, and how far it overshoots on the way (TF-WMFC Fig. 8).

A series of per-interval rates is smoothed by a moving mean over `smooth_s` (a 1 s series
of a group of flows still swings with each flow's report cycle). Within a span [start,
end) that begins with an event (flows join or leave):

    settle_s   the time from `start` to the first smoothed sample after which every sample
               up to `end` lies within ±band of the target; None if the last one does not
    overshoot  the largest smoothed sample in the span over the target, minus 1
               (negative: it never reached the target)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Settling:
    settle_s: float | None
    overshoot: float


def settling(
    t_s: Sequence[float],
    rate: Sequence[float],
    start_s: float,
    end_s: float,
    target: float,
    band: float = 0.10,
    smooth_s: float = 5.0,
) -> Settling:
    """The settling of `rate` (sampled at the interval ends `t_s`) in [start_s, end_s)
    towards `target`."""
    if not target > 0:
        raise ValueError(f"target: {target} is not a positive rate")
    if not 0 < band < 1:
        raise ValueError(f"band: {band} is not in (0, 1)")
    t = np.asarray(t_s, dtype=float)
    y = np.asarray(rate, dtype=float)
    inside = (t > start_s) & (t <= end_s)
    t, y = t[inside], y[inside]
    if t.size == 0:
        raise ValueError(f"the series has no sample in ({start_s}, {end_s}]")
    step = float(np.median(np.diff(t))) if t.size > 1 else end_s - start_s
    width = max(1, round(smooth_s / step))
    if width > y.size:
        raise ValueError(f"the span ({start_s}, {end_s}] is shorter than the smoothing ({smooth_s} s)")
    smooth = np.convolve(y, np.ones(width) / width, mode="valid")  # trailing means
    t_smooth = t[width - 1 :]
    outside = np.abs(smooth / target - 1) > band
    settle_s: float | None
    if outside[-1]:
        settle_s = None
    else:
        last_out = np.flatnonzero(outside)
        first_in = 0 if last_out.size == 0 else int(last_out[-1]) + 1
        settle_s = float(t_smooth[first_in] - start_s)
    return Settling(settle_s, float(smooth.max() / target - 1))
