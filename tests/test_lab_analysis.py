"""Student-t intervals over seeds, claim verdicts, and the index's scalar flattening."""

import math

import numpy as np
import pandas as pd
import pytest

from mantra.lab.analysis import aggregate, t_interval
from mantra.lab.claims import BAND, MIN_SEEDS, _best, _bounds, _picked, _samples, judge
from mantra.lab.store import scalars


def test_t_interval_uses_student_t_not_1_96():
    mean, half, n = t_interval([1, 2, 3, 4, 5])
    assert (mean, n) == (3.0, 5)
    sd = math.sqrt(2.5)
    assert half == pytest.approx(2.7764451 * sd / math.sqrt(5), rel=1e-6)  # t(0.975, 4)
    assert half > 1.96 * sd / math.sqrt(5) * 1.4


def test_t_interval_edges_and_missing_values():
    assert t_interval([])[2] == 0
    mean, half, n = t_interval([4.0, None, float("nan")])
    assert (mean, n) == (4.0, 1) and math.isnan(half)


def test_aggregate_groups_over_seeds():
    frame = pd.DataFrame({"protocol": ["a", "a", "b", "b"], "seed": [1, 2, 1, 2], "x": [1.0, 3.0, 10.0, 10.0]})
    agg = aggregate(frame, "x", ["protocol"]).set_index("protocol")
    assert agg.loc["a", "mean"] == 2.0 and agg.loc["a", "n"] == 2
    assert agg.loc["a", "ci95"] == pytest.approx(12.7062047 * math.sqrt(2) / math.sqrt(2), rel=1e-6)
    assert agg.loc["b", "ci95"] == 0.0


@pytest.mark.parametrize(
    "mean,half,n,bounds,verdict",
    [
        (1.0, 0.1, 5, (0.5, 2.0), "pass"),
        (1.0, 0.6, 5, (0.5, 2.0), "inconclusive"),  # straddles the lower bound
        (3.0, 0.5, 5, (0.5, 2.0), "fail"),
        (-5.0, 1.0, 5, (None, 0.0), "pass"),  # a falling trend
        (-0.5, 1.0, 5, (None, 0.0), "inconclusive"),
        (1.0, 0.1, MIN_SEEDS - 1, (0.5, 2.0), "too few runs"),  # inside, but on too few seeds
        (3.0, 0.5, MIN_SEEDS - 1, (0.5, 2.0), "too few runs"),
        (1.0, float("nan"), 1, (0.5, 2.0), "too few runs"),  # one seed: no interval
    ],
)
def test_verdict(mean, half, n, bounds, verdict):
    assert judge(mean, half, n, bounds) == verdict


def test_a_missed_number_in_the_papers_direction_is_partly_reproduced():
    # +600 % (a ratio of 7, band 5.6 .. 8.4); ours 2.0 +- 0.5: above 1, the direction holds
    band = _bounds({"kind": "ratio", "target": 7})
    assert band == pytest.approx((7 * (1 - BAND), 7 * (1 + BAND)))
    assert judge(2.0, 0.5, 6, band, holds=(1.0, None)) == "partly"
    assert judge(0.9, 0.5, 6, band, holds=(1.0, None)) == "fail"  # the direction is not sure either
    assert judge(0.5, 0.1, 6, band, holds=(1.0, None)) == "fail"
    assert judge(7.5, 0.5, 6, band, holds=(1.0, None)) == "pass"
    assert judge(2.0, 0.5, 4, band, holds=(1.0, None)) == "too few runs"
    # a negative point number: the band is around it, on its own side
    assert _bounds({"kind": "difference", "target": -2}) == pytest.approx((-2 - 2 * BAND, -2 + 2 * BAND))


def frame():
    rows = []
    for seed, slope in ((1, -10.0), (2, -12.0), (3, -8.0)):
        for hops in (1, 2, 3):
            rows.append({"seed": seed, "protocol": "tfrc", "hops": hops, "kbps": 100 + slope * hops})
            rows.append({"seed": seed, "protocol": "tcp", "hops": hops, "kbps": (100 + slope * hops) / 2})
    return pd.DataFrame(rows)


def test_ratio_is_paired_per_seed():
    samples, _ = _samples(
        frame(), {"kind": "ratio", "metric": "kbps", "num": {"protocol": "tfrc"}, "den": {"protocol": "tcp"}}
    )
    assert samples.tolist() == pytest.approx([2.0, 2.0, 2.0])


def test_ratio_of_two_metrics_of_the_same_runs_is_paired_per_seed():
    rows = frame()
    rows["half"] = rows["kbps"] / 4
    samples, label = _samples(
        rows,
        {"kind": "ratio", "metric": "kbps", "den_metric": "half", "where": {"protocol": "tcp"}, "num": {}, "den": {}},
    )
    assert samples.tolist() == pytest.approx([4.0, 4.0, 4.0])
    assert label == "kbps / half"


def test_trend_is_a_slope_per_seed():
    samples, _ = _samples(
        frame(), {"kind": "trend", "metric": "kbps", "x": "hops", "direction": "falls", "where": {"protocol": "tfrc"}}
    )
    assert samples.tolist() == pytest.approx([-10.0, -12.0, -8.0])


def test_ratio_trend_is_the_slope_of_the_paired_ratio_per_seed():
    rows = frame()
    # tcp loses 5 % more of tfrc's rate with each hop: tfrc/tcp = 2 / (1 - 0.05 hops)
    rows.loc[rows["protocol"] == "tcp", "kbps"] *= 1 - 0.05 * rows["hops"]
    check = {"kind": "ratio_trend", "metric": "kbps", "num": {"protocol": "tfrc"}, "den": {"protocol": "tcp"}}
    samples, label = _samples(rows, {**check, "x": "hops", "direction": "rises"})
    expected = np.polyfit([1, 2, 3], [2 / (1 - 0.05 * h) for h in (1, 2, 3)], 1)[0]
    assert samples.tolist() == pytest.approx([expected] * 3)
    assert label == "slope of kbps ratio tfrc/tcp per unit of hops"
    assert _bounds({**check, "x": "hops", "direction": "rises"}) == (0.0, None)
    # the same loss for both: the ratio does not move
    flat, _ = _samples(frame(), {**check, "x": "hops", "direction": "rises"})
    assert flat.tolist() == pytest.approx([0.0] * 3)


def test_where_with_a_list_takes_any_of_its_values():
    # Seed 1: at hops 2 and 3, tfrc 80 and 70 -> mean 75; tcp half of that.
    samples, _ = _samples(
        frame(), {"kind": "value", "metric": "kbps", "where": {"protocol": "tfrc", "hops": [2, 3]}, "min": 0}
    )
    assert samples.tolist() == pytest.approx([75.0, 70.0, 80.0])


def test_scalars_flatten_flows_but_not_series():
    result = {
        "spec": {"duration": 1},
        "flows": [
            {
                "throughput_kbps": 5.0,
                "delay_ms": {"p95": None},
                "series": {"t": [1]},
                "protocol": "tfrc",
                "delay_cdf_ms": [1, 2],
            }
        ],
        "drops": {"ifq": 3},
        "queue_drops": [1, 2],
        "fairness_jain": None,
        "provenance": {"seed": 1},
    }
    assert scalars(result) == {
        "flows.0.throughput_kbps": 5.0,
        "flows.0.delay_ms.p95": None,
        "drops.ifq": 3,
        "fairness_jain": None,
    }


def test_pick_takes_the_run_ranked_at_q_and_reports_its_own_metric():
    # Three seeds; the run with the highest throughput is seed 2, whose delay is 50.
    runs = pd.DataFrame(
        {
            "seed": [1, 2, 3, 1, 2, 3],
            "receiver": ["rsc", "rsc", "rsc", "nr", "nr", "nr"],
            "kbps": [40.0, 250.0, 60.0, 180.0, 200.0, 190.0],
            "delay": [10.0, 50.0, 30.0, 5.0, 6.0, 7.0],
        }
    )
    best = {"metric": "delay", "q": 1, "by": "kbps", "where": {"receiver": "rsc"}}
    assert _picked(runs, best)[:2] == (50.0, 3)
    worst = {"metric": "kbps", "q": 0, "where": {"receiver": "rsc"}}
    assert _picked(runs, worst)[:2] == (40.0, 3)
    median = {"metric": "kbps", "q": 0.5, "where": {"receiver": "nr"}}
    assert _picked(runs, median)[0] == 190.0
    # Each side picked on its own: the best rsc run over the best nr run.
    ratio = {"metric": "kbps", "q": 1, "num": {"receiver": "rsc"}, "den": {"receiver": "nr"}}
    assert _picked(runs, ratio)[:2] == (250.0 / 200.0, 3)


def test_the_same_value_at_every_seed_is_exactly_it_with_no_spread():
    # 1.48 three times: the float mean is 1.4799999999999998 and the sample deviation 2.7e-16
    assert t_interval([1.48, 1.48, 1.48]) == (1.48, 0.0, 3)


def video_frame():
    """PSNR and frozen share of three transports over five seeds: latp best on PSNR (39 +- 0.5),
    mantra 0.3 dB below it, tfrc 5 dB below it; tfrc freezes least."""
    rows = []
    for seed, wobble in zip(range(1, 6), (-0.4, -0.2, 0.0, 0.2, 0.4), strict=True):
        for transport, psnr, frozen in (("latp", 39.0, 0.02), ("mantra", 38.7, 0.01), ("tfrc", 34.0, 0.0)):
            rows.append({"seed": seed, "transport": transport, "psnr": psnr + wobble, "frozen": frozen})
    return pd.DataFrame(rows)


def test_best_compares_the_subject_with_the_best_other_within_its_interval():
    check = {"kind": "best", "metric": "psnr", "axis": "transport", "subject": "mantra", "direction": "max"}
    samples, best_half, label = _best(video_frame(), check)
    assert samples.tolist() == pytest.approx([-0.3] * 5)  # paired: the wobble cancels
    _, latp_half, _ = t_interval([38.6, 38.8, 39.0, 39.2, 39.4])
    assert best_half == pytest.approx(latp_half)
    assert label == "psnr: mantra against the best other transport, latp"
    assert judge(-0.3, 0.0, 5, (-best_half, None)) == "pass"  # 0.3 dB below, inside latp's +-0.39
    # 0.5 dB below: outside the best's interval
    rows = video_frame()
    rows.loc[rows["transport"] == "mantra", "psnr"] -= 0.2
    samples, best_half, _ = _best(rows, check)
    assert judge(float(samples.mean()), 0.0, 5, (-best_half, None)) == "fail"


def test_best_by_another_metric_picks_the_reference_by_it():
    # The frozen share against the best transport by PSNR (latp), lower is better: mantra's 0.01
    # beats latp's 0.02 although tfrc, the least frozen, is not the reference.
    check = {
        "kind": "best",
        "metric": "frozen",
        "axis": "transport",
        "subject": "mantra",
        "direction": "min",
        "by": {"metric": "psnr", "direction": "max"},
    }
    samples, _, label = _best(video_frame(), check)
    assert samples.tolist() == pytest.approx([0.01] * 5)  # above 0: better
    assert label.endswith("latp")
