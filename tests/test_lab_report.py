"""The report: every plot kind and a claims table, rendered by headless Chromium; and the
status and reproduce commands around it."""

import copy
import re
import shutil
import subprocess

import pytest

from conftest import ROOT, mantra
from lab_helpers import WIRED, write_campaign

CAMPAIGN = copy.deepcopy(WIRED)
CAMPAIGN["plots"] = [
    {"kind": "sweep", "metric": "throughput_kbps", "x": "topology.loss", "series": "protocol"},
    {"kind": "timeseries", "series": "protocol", "seed": 1, "where": {"topology.loss": 0.01}},
    {"kind": "timeseries", "series": "protocol", "seed": "best", "by": "throughput_kbps", "y": "series.rx_kbps"},
    {"kind": "ranked", "metric": "throughput_kbps", "series": "protocol"},
    {"kind": "cdf", "series": "protocol", "where": {"topology.loss": 0.01}},
    {"kind": "scatter", "x": "delay_p95_ms", "y": "throughput_kbps", "series": "protocol"},
    {"kind": "bar", "metric": "throughput_kbps", "x": "protocol"},
    {"kind": "groups", "groups": ["tfrc", "tcp"], "seed": 1, "where": {"topology.loss": 0.01}},
    {
        "kind": "settling",
        "group": "tfrc",
        "spans": [{"from": 1, "to": 8, "target": "throughput_kbps"}],
        "smooth_s": 2,
        "where": {"protocol": "tfrc"},
    },
]
# A metric may be the ratio of two paths within each run.
CAMPAIGN["metrics"] = {**CAMPAIGN["metrics"], "sent_per_delivered": "flows.0.sent_bytes / flows.0.delivered_bytes"}
CAMPAIGN["claims"] = [
    {
        "claim": "A flow sends at least the bytes it delivers.",
        "paper": "ratio at least 1",
        "check": {"kind": "value", "metric": "sent_per_delivered", "min": 1},
    },
    {
        "claim": "TFRC gets at least a tenth of TCP's throughput.",
        "paper": "fair",
        "source": "test",
        "check": {
            "kind": "ratio",
            "metric": "throughput_kbps",
            "num": {"protocol": "tfrc"},
            "den": {"protocol": "tcp"},
            "min": 0.1,
        },
    },
    {
        "claim": "Throughput falls as loss grows (TCP).",
        "paper": "falls",
        "check": {
            "kind": "trend",
            "metric": "throughput_kbps",
            "x": "topology.loss",
            "direction": "falls",
            "where": {"protocol": "tcp"},
        },
    },
    {
        "claim": "TCP's best run gets at least a tenth of TFRC's best.",
        "paper": "a good case",
        "check": {
            "kind": "pick",
            "metric": "throughput_kbps",
            "q": 1,
            "num": {"protocol": "tcp"},
            "den": {"protocol": "tfrc"},
            "min": 0.1,
        },
    },
]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("report")
    path = write_campaign(tmp / "c.yaml", CAMPAIGN)
    out = tmp / "results"
    mantra("run", str(path), "--out", str(out))
    page = mantra("report", str(out)).stdout.strip()
    return out, page


def test_chromium_renders_plots_and_tables(report):
    out, page = report
    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium is missing: run 'make setup'"
    dom = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", f"file://{page}"],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    check = re.search(
        r'id="render-check" data-expected-plots="(\d+)" data-drawn-plots="(\d+)" data-tables="(\d+)"', dom
    )
    assert check, "the page's render check did not run"
    expected, drawn, tables = map(int, check.groups())
    assert expected == drawn == 9
    assert tables >= 1 + 9  # the claims table and one per plot
    assert dom.count('class="pass"') + dom.count('class="fail"') + dom.count('class="inconclusive"') == 4
    assert "A flow sends at least the bytes it delivers." in dom
    assert "TFRC gets at least a tenth of TCP" in dom
    assert "./mantra run" in dom and str(out) in dom
    assert len(list((out / "plots").glob("*.png"))) == 9


def test_status_counts_runs(report):
    out, _ = report
    text = mantra("status", str(out)).stdout
    assert "wired-small: 8 runs, 8 finished, 0 failed, 0 missing" in text


def test_reproduce_unknown_paper_lists_what_exists():
    proc = mantra("reproduce", "nosuch", check=False)
    assert proc.returncode == 2
    assert "no campaigns under campaigns/nosuch/" in proc.stderr and "demo" in proc.stderr


def test_report_of_a_directory_without_results():
    proc = mantra("report", str(ROOT / "docs"), check=False)
    assert proc.returncode == 2 and "not a results directory" in proc.stderr
