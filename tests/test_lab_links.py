"""Which plots a claim links to (python/mantra/lab/links.py): those showing its metric whose
`where` keeps the claim's selections."""

import copy

from lab_helpers import WIRED, write_campaign
from mantra.lab.links import plots_of_claims
from mantra.lab.load import load_campaign

PLOTS = [
    {"kind": "sweep", "metric": "throughput_kbps", "x": "topology.loss", "series": "protocol"},  # 0
    {"kind": "bar", "metric": "throughput_kbps", "x": "topology.loss", "where": {"protocol": "tcp"}},  # 1
    {"kind": "scatter", "x": "delay_p95_ms", "y": "throughput_kbps", "series": "protocol"},  # 2
    {"kind": "timeseries", "series": "protocol", "seed": 1},  # 3: no metric shown
    {"kind": "ranked", "metric": "delay_p95_ms", "series": "protocol"},  # 4
    {"kind": "bar", "metric": "throughput_kbps", "x": "protocol", "where": {"topology.loss": [0.01]}},  # 5
    {"kind": "timeseries", "series": "protocol", "seed": "best", "by": "throughput_kbps"},  # 6: a best case by it
]


TREND = {"kind": "trend", "metric": "sent", "x": "topology.loss", "direction": "falls"}


def claim(**check):
    return {"claim": "c", "paper": "p", "check": {"min": 0, **check}}


CLAIMS = [
    claim(kind="value", metric="throughput_kbps", where={"protocol": "tfrc"}),
    claim(kind="ratio", metric="throughput_kbps", num={"protocol": "tfrc"}, den={"protocol": "tcp"}),
    claim(kind="ratio", metric="throughput_kbps", den_metric="delay_p95_ms", num={}, den={}),
    claim(kind="value", metric="throughput_kbps", where={"topology.loss": 0.02}),
    claim(kind="value", metric="delay_p95_ms", where={"protocol": ["tcp", "tfrc"], "topology.loss": 0.01}),
    {"claim": "c", "paper": "p", "check": TREND},
]


def test_a_claim_links_the_plots_of_its_metric_that_keep_its_selection(tmp_path):
    doc = {**copy.deepcopy(WIRED), "plots": PLOTS, "claims": CLAIMS}
    doc["metrics"] = {**doc["metrics"], "sent": "flows.0.sent_bytes"}
    links = plots_of_claims(load_campaign(write_campaign(tmp_path / "c.yaml", doc)))
    assert links == [
        [0, 2, 5, 6],  # not the bar of TCP only
        [0, 2, 5, 6],  # TCP's bar shows the denominator but not the numerator
        [0, 1, 2, 4, 5, 6],  # either metric of a den_metric ratio; it selects nothing, so every plot keeps it
        [0, 1, 2, 6],  # not the bar at 1 % loss
        [2, 4],  # a list of values: kept if one of them is
        [],  # no plot shows the metric: no link
    ]
