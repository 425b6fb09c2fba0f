"""Settling after an event (TF-WMFC Fig. 8): the time to stay within the band of the target,
and the overshoot, of a moving mean."""

import pytest

from mantra.lab.settling import settling


def ramp_then_flat(overshoot_at: float | None = None):
    """1 s samples from 1 to 60 s: a ramp 0 -> 100 over 10-30 s, then 100; optionally a
    120 spike of 5 s starting at `overshoot_at`."""
    t = [float(i) for i in range(1, 61)]
    y = [0.0 if s <= 10 else min(100.0, (s - 10) * 5) for s in t]
    if overshoot_at is not None:
        y = [120.0 if overshoot_at <= s < overshoot_at + 5 else v for s, v in zip(t, y, strict=True)]
    return t, y


def test_settles_when_the_moving_mean_enters_the_band_for_good():
    t, y = ramp_then_flat()
    # With no smoothing the series first reaches 90 at 28 s (18 × 5): 18 s after the event at 10 s.
    r = settling(t, y, start_s=10, end_s=60, target=100, band=0.1, smooth_s=1)
    assert r.settle_s == pytest.approx(18.0)
    assert r.overshoot == pytest.approx(0.0)
    # A 3 s trailing mean lags by a second: (85 + 90 + 95) / 3 = 90 first at 29 s.
    assert settling(t, y, 10, 60, 100, 0.1, smooth_s=3).settle_s == pytest.approx(19.0)


def test_leaving_the_band_again_moves_the_settle_time_and_counts_as_overshoot():
    t, y = ramp_then_flat(overshoot_at=40)
    r = settling(t, y, 10, 60, 100, 0.1, smooth_s=1)
    assert r.settle_s == pytest.approx(45.0 - 10)  # back within 10 % at 45 s
    assert r.overshoot == pytest.approx(0.2)


def test_never_settles_when_the_span_ends_outside_the_band():
    t, y = ramp_then_flat()
    r = settling(t, y, 10, 60, target=200, smooth_s=1)
    assert r.settle_s is None
    assert r.overshoot == pytest.approx(-0.5)  # its best is half the target


def test_only_the_span_counts():
    t, y = ramp_then_flat(overshoot_at=50)
    assert settling(t, y, 10, 49, 100, smooth_s=1).overshoot == pytest.approx(0.0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"target": 0}, "target"),
        ({"band": 1.5}, "band"),
        ({"start_s": 70, "end_s": 80}, "no sample"),
        ({"smooth_s": 30, "start_s": 10, "end_s": 20}, "shorter than the smoothing"),
    ],
)
def test_bad_arguments_name_what_is_wrong(kwargs, message):
    t, y = ramp_then_flat()
    args = {"start_s": 10, "end_s": 60, "target": 100, **kwargs}
    with pytest.raises(ValueError, match=message):
        settling(t, y, **args)
