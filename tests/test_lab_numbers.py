"""How the report writes numbers (python/mantra/lab/numbers.py): digits from the interval,
units from the metric's name."""

import math

import numpy as np
import pytest

from mantra.lab.claims import format_bounds
from mantra.lab.numbers import KBPS, PERCENT, PLAIN, Unit, interval, label, number, unit_of

NAN = math.nan
GROUP = "\u202f"  # narrow no-break space
MINUS = "\u2212"


@pytest.mark.parametrize(
    "mean,half,n,unit,text",
    [
        # the half-width keeps one significant digit; the mean is rounded where it ends
        (1372.4, 2.5, 3, KBPS, "1372 ± 3 kb/s"),
        (0.18437, 0.0461, 3, PLAIN, "0.18 ± 0.05"),
        (2.5, 0.5, 3, Unit("ms"), "2.5 ± 0.5 ms"),
        # two digits when the first is 1: 0.11 is not rounded to 0.1
        (0.14, 0.11, 2, PLAIN, "0.14 ± 0.11"),
        (6.82, 13.0, 2, PLAIN, "6.8 ± 13"),
        # big numbers: no power of ten, groups of three digits from 10 000 on
        (13702.0, 340.0, 5, PLAIN, f"13{GROUP}700 ± 300"),
        (5300.0, 49000.0, 2, PLAIN, f"5300 ± 50{GROUP}000"),
        # an interval wider than the mean does not round the mean away: two digits stay
        (38.5, 370.0, 2, PLAIN, "39 ± 400"),
        (0.243, 0.62, 2, PLAIN, "0.24 ± 0.6"),
        # negative numbers take a minus sign; a mean rounded to zero has none
        (-0.53, 0.12, 3, PLAIN, f"{MINUS}0.53 ± 0.12"),
        (-52.3, 4.1, 3, KBPS, f"{MINUS}52 ± 4 kb/s"),
        (-0.0004, 0.05, 3, PLAIN, f"{MINUS}0.0004 ± 0.05"),  # at most two decimals past the half-width's
        # zero
        (0.0, 0.05, 3, PLAIN, "0.00 ± 0.05"),
        (0.0, 0.0, 3, PLAIN, "0 ± 0"),
        (0.0891, 0.0, 3, PLAIN, "0.0891 ± 0"),
        # half up, not to even
        (0.125, 0.5, 3, PLAIN, "0.13 ± 0.5"),
        # a share is shown in %
        (0.18437, 0.0461, 3, PERCENT, "18 ± 5 %"),
    ],
)
def test_interval_digits_follow_the_half_width(mean, half, n, unit, text):
    assert interval(mean, half, n, unit) == text


def test_one_seed_gives_the_mean_alone_marked():
    assert interval(1372.4, NAN, 1, KBPS) == "1372 kb/s (n=1)"
    assert interval(0.0, NAN, 1) == "0 (n=1)"
    assert interval(NAN, NAN, 0) == "no data" and interval(3.0, 1.0, 0) == "no data"


def test_extreme_magnitudes_take_a_power_of_ten():
    assert interval(1e20, 1e19, 3) == "(1.00 ± 0.10)×10²⁰"  # one power for both
    assert interval(7.54e-5, 5.9e-6, 3, KBPS) == "(7.5 ± 0.6)×10⁻⁵ kb/s"
    assert interval(0.000754, 5.9e-5, 3) == "0.00075 ± 0.00006"  # still ordinary
    assert number(-0.000012) == f"{MINUS}1.20×10⁻⁵"
    assert number(1e16, KBPS) == "1.00×10¹⁶ kb/s"


@pytest.mark.parametrize(
    "value,text",
    [
        (1372.4, "1372"),  # every digit before the point
        (38.5, "38.5"),
        (0.18437, "0.184"),
        (0.25, "0.250"),  # three significant digits, trailing zeros kept
        (0.99996, "1.00"),  # rounding up to the next power of ten keeps three digits
        (999.6, "1000"),
        (123456.7, f"123{GROUP}457"),
        (243, "243"),  # a count: whole
        (np.int64(1288), "1288"),
        (12345, f"12{GROUP}345"),
        (0, "0"),
        (0.0, "0"),
        (-3.25, f"{MINUS}3.25"),
        (None, "-"),
        (NAN, "-"),
        (math.inf, "∞"),
    ],
)
def test_a_value_alone_keeps_three_significant_digits(value, text):
    assert number(value) == text


def test_units_and_shares():
    assert number(0.0543, PERCENT) == "5.43 %"
    assert number(1.0, PERCENT) == "100 %"
    assert number(58.46, KBPS) == "58.5 kb/s"
    assert number(NAN, KBPS) == "-"


@pytest.mark.parametrize(
    "names,symbol,scale",
    [
        (("throughput_kbps",), "kb/s", 1),
        (("delay_p95_ms",), "ms", 1),
        (("flows.0.delay_ms.p95",), "ms", 1),  # a result path: the last word naming a unit
        (("startup_s",), "s", 1),
        (("psnr_db",), "dB", 1),
        (("sent_bytes",), "B", 1),
        (("frozen_share",), "%", 100),
        (("below_25db_share",), "%", 100),  # the last word decides
        (("inaccurate_ratio", "flows.0.detection.x_kbps"), "", 1),  # ratio: plain, the path is not read
        (("fig5_adtfrc", "flows.0.throughput_kbps"), "kb/s", 1),  # the name says nothing: the path
        (("fairness_jain",), "", 1),
        (("plr",), "", 1),
    ],
)
def test_unit_from_the_metric_name(names, symbol, scale):
    unit = unit_of(*names)
    assert (unit.symbol, unit.scale) == (symbol, scale)


def test_bounds_take_the_unit_and_its_scale():
    # a bound is given, not measured: its own digits
    assert format_bounds((None, 0.02), PERCENT) == "≤ 2 %"
    assert format_bounds((None, 0.07), PERCENT) == "≤ 7 %"  # not 7.000000000000001
    assert format_bounds((1, None)) == "≥ 1"
    assert format_bounds((0.1, 0.3)) == "in [0.1, 0.3]"
    assert format_bounds((100.0, 20000.0), KBPS) == "in [100, 20000] kb/s"


def test_a_given_value_keeps_its_digits():
    assert (label(10.0), label(0.01), label(0.1), label(-2.0), label(NAN)) == ("10", "0.01", "0.1", f"{MINUS}2", "-")
    assert label(0.25, PERCENT) == "25 %"


def test_numpy_scalars_are_written_as_the_floats_they_hold() -> None:
    db = unit_of("psnr_db")
    assert interval(np.float64(38.123), np.float64(0.52), 3, db) == interval(38.123, 0.52, 3, db) == "38.1 ± 0.5 dB"
