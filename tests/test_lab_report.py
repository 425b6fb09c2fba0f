"""The report: every plot kind, pictures and a claims table, rendered by headless Chromium
(every image loaded, every link of the page resolving); and the status and reproduce commands
around it."""

import copy
import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

from conftest import ROOT, mantra
from lab_helpers import WIRED, synthetic_store, write_campaign  # lab_helpers registers the picture maker "test-frames"
from mantra.lab.report import write_report

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
    {"kind": "pictures", "maker": "test-frames", "where": {"topology.loss": 0.01}, "metric": "throughput_kbps"},
]
PLOTS, PICTURES = 9, 4  # the pictures: one per run at 1 % loss (2 protocols x 2 seeds)
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
    # In this process, where the picture maker is registered (`./mantra report` has none).
    return out, write_report(out)


class Page(HTMLParser):
    """What the tests read of a rendered page: every element's id, the in-page links of the
    contents (the <nav>) and of the rest, and the render check's attributes."""

    def __init__(self, dom):
        super().__init__()
        self.ids, self.contents, self.links, self.check, self._in_nav = set(), [], [], None, False
        self.feed(dom)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.ids |= {attrs["id"]} if "id" in attrs else set()
        self.check = attrs if attrs.get("id") == "render-check" else self.check
        self._in_nav = self._in_nav or tag == "nav"
        href = attrs.get("href") or ""
        if tag == "a" and href.startswith("#"):
            (self.contents if self._in_nav else self.links).append(href[1:])

    def handle_endtag(self, tag):
        self._in_nav = self._in_nav and tag != "nav"


def render(page):
    """The page as headless Chromium leaves it once loaded (images drawn or failed)."""
    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium is missing: run 'make setup'"
    dom = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", f"file://{page}"],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    parsed = Page(dom)
    assert parsed.check and "data-images-loaded" in parsed.check, "the page's render check did not run"
    return dom, parsed


def assert_every_image_loaded(page):
    check = page.check
    loaded, shown = map(int, check["data-images-loaded"].split("/"))
    expected = int(check["data-expected-images"])
    assert loaded == shown == expected, (
        f"{loaded} of {shown} images loaded ({expected} expected); not loaded: {check['data-broken-images']}"
    )


def test_chromium_renders_plots_pictures_and_tables(report):
    out, page = report
    dom, parsed = render(page)
    assert_every_image_loaded(parsed)
    assert parsed.check["data-images-loaded"] == f"{PLOTS + PICTURES}/{PLOTS + PICTURES}"
    assert int(parsed.check["data-tables"]) >= 1 + PLOTS  # the claims table and one per plot
    # two seeds: below the minimum for a verdict; the pick is reported, not judged
    assert dom.count('<td class="too few runs">') == 3 and dom.count('<td class="reported">') == 1
    assert "A flow sends at least the bytes it delivers." in dom
    assert "TFRC gets at least a tenth of TCP" in dom
    assert "./mantra run" in dom and str(out) in dom
    assert len(list((out / "plots").glob("*.png"))) == PLOTS
    assert len(list((out / "pictures").glob("*.png"))) == PICTURES
    # numbers with units and without powers of ten (base64 images aside)
    text = re.sub(r'src="data:[^"]*"', "", dom)
    assert " kb/s" in text and " ms" in text and not re.search(r"\de[+-]\d", text)


def test_every_link_resolves_and_the_contents_reach_every_plot_and_claims_table(report):
    _, page = report
    _, parsed = render(page)
    dangling = [target for target in parsed.links + parsed.contents if target not in parsed.ids]
    assert not dangling, f"links to no element: {dangling}"
    plots = {f"plot-wired-small-{i}" for i in range(1, PLOTS + 2)}
    assert plots <= set(parsed.contents)
    assert {"claims", "claims-wired-small", "campaign-wired-small", "failures"} <= set(parsed.contents)
    # the claims on throughput_kbps link to the plots showing it: the sweep, ranked, scatter,
    # bar and the pictures (the trend's TCP runs include some at 1 % loss)
    assert {f"plot-wired-small-{i}" for i in (1, 4, 6, 7, 10)} <= set(parsed.links)


def test_a_missing_picture_fails_the_image_check(report, tmp_path):
    out, page = report
    copy_dir = tmp_path / "copy"
    shutil.copytree(out / "pictures", copy_dir / "pictures")
    shutil.copy(page, copy_dir / "report.html")
    missing = sorted((copy_dir / "pictures").glob("*.png"))[0]
    missing.unlink()
    _, parsed = render(copy_dir / "report.html")
    message = rf"{PLOTS + PICTURES - 1} of {PLOTS + PICTURES} images loaded.*{missing.name}"
    with pytest.raises(AssertionError, match=message):
        assert_every_image_loaded(parsed)


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


def test_a_campaign_run_on_its_first_seeds_says_so_and_reruns_with_the_same_subset(tmp_path):
    path = write_campaign(tmp_path / "c.yaml", WIRED)
    out = tmp_path / "subset"
    mantra("run", str(path), "--seeds", "1", "--out", str(out))
    assert "wired-small: 4 runs, 4 finished, 0 failed, 0 missing" in mantra("status", str(out)).stdout
    page = write_report(out).read_text()
    assert "the first 1 of its profile&#39;s 2 seeds" in page or "the first 1 of its profile's 2 seeds" in page
    assert "--seeds 1 --out" in page  # the command that reruns it runs the same subset
    refused = mantra("run", str(path), "--seeds", "3", "--out", str(out), check=False)
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines()[-1] == (
        "mantra: --seeds: wired-small's profile has 2 seeds, fewer than 3"
    )


def test_a_lower_report_order_comes_first_at_a_glance(tmp_path):
    # Two campaigns in one results directory: by name "wired-small" would lead; its report_order
    # puts "zz-comparison" first.
    matrix = {"kind": "matrix", "metric": "throughput_kbps", "x": "topology.loss", "series": "protocol"}
    lead = {**copy.deepcopy(WIRED), "campaign": "zz-comparison", "title": "Title L", "report_order": 1}
    other = {**copy.deepcopy(WIRED), "title": "Title O"}

    def result(point, seed):
        return {"flows": [{"throughput_kbps": 100.0 + seed, "delay_ms": {"p95": 10.0}}]}

    for doc in (other, lead):  # one results directory, each campaign's file written in turn
        _, store, out = synthetic_store(tmp_path, {**doc, "plots": [matrix]}, result)
        store.close()
    page = write_report(out).read_text()
    glance = page[page.index('id="glance"') :]
    assert glance.index("Title L") < glance.index("Title O")
