"""The `pictures` plot: images made by a registered picture maker (lab_helpers.frames_maker,
"test-frames"), shown with their captions where the plot stands; from synthetic results, no
simulator needed."""

import copy

import pytest

from lab_helpers import WIRED, frames_maker, synthetic_store, write_campaign
from mantra.errors import InputError
from mantra.lab.load import load_campaign
from mantra.lab.pictures import register, registered
from mantra.lab.report import write_report

PICTURES = {
    "kind": "pictures",
    "maker": "test-frames",
    "title": "Frames of TFRC at 1 % loss",
    "where": {"protocol": "tfrc", "topology.loss": 0.01},
    "options": {"color": "red"},
    "metric": "throughput_kbps",
}
SWEEP = {"kind": "sweep", "metric": "throughput_kbps", "x": "topology.loss", "series": "protocol"}
CLAIM = {
    "claim": "TFRC gets over 100 kb/s at 1 % loss.",
    "paper": "over 100 kb/s",
    "check": {"kind": "value", "metric": "throughput_kbps", "where": {"protocol": "tfrc"}, "min": 100},
}


def result(point, seed):
    rate = (200.0 if point["protocol"] == "tfrc" else 300.0) + seed
    return {"flows": [{"throughput_kbps": rate, "delay_ms": {"p95": 40.0 + seed}}]}


def report(tmp_path, plots, claims=()):
    doc = {**copy.deepcopy(WIRED), "plots": plots, "claims": list(claims)}
    _, store, out = synthetic_store(tmp_path, doc, result)
    store.close()
    return out, write_report(out).read_text()


def test_report_shows_each_picture_with_its_caption_in_the_maker_s_order(tmp_path):
    out, page = report(tmp_path, [SWEEP, PICTURES], [CLAIM])
    pictures = sorted((out / "pictures").glob("wired-small-2-*.png"))
    assert len(pictures) == 2  # the two seeds at the plot's `where`
    for path in pictures:
        assert f'src="pictures/{path.name}"' in page and f'href="pictures/{path.name}"' in page
    assert page.index("seed 1: 201 kb/s") < page.index("seed 2: 202 kb/s")
    # the plot has its anchor, the contents link to it, and the claim on its metric links to it
    assert '<section class="plot" id="plot-wired-small-2">' in page
    assert page.count('href="#plot-wired-small-2"') == 2
    assert 'href="#plot-wired-small-1"' in page and "Frames of TFRC at 1 % loss" in page
    assert not list((out / "plots").glob("*pictures*"))  # linked, not embedded


def test_the_maker_gets_the_runs_at_where_and_its_options(tmp_path):
    seen = []

    def spy(request):
        seen.append(request)
        return frames_maker(request)

    register("test-spy", spy)
    report(tmp_path, [{**PICTURES, "maker": "test-spy", "where": {"protocol": "tcp"}}])
    (request,) = seen
    assert set(request.runs["protocol"]) == {"tcp"} and len(request.runs) == 4  # 2 losses x 2 seeds
    assert "throughput_kbps" in request.runs.columns  # a column per campaign metric
    assert request.options == {"color": "red"} and request.name == "wired-small-1"
    assert request.out_dir == tmp_path / "results" and request.campaign.name == "wired-small"


def test_an_unregistered_maker_is_named_with_those_registered(tmp_path):
    message = r"plot wired-small-1: no picture maker 'nosuch' is registered \(registered: .*test-frames"
    with pytest.raises(InputError, match=message):
        report(tmp_path, [{**PICTURES, "maker": "nosuch"}])


@pytest.mark.parametrize("path", ["pictures/never-written.png", "../outside.png", "/etc/hostname"])
def test_a_maker_must_name_files_it_wrote_under_the_report(tmp_path, path):
    register(f"test-bad-{path}", lambda request: [(path, "missing")])
    (tmp_path / "outside.png").write_bytes(b"not under the report")
    with pytest.raises(InputError, match=r"returned .*, not a file under"):
        report(tmp_path, [{**PICTURES, "maker": f"test-bad-{path}"}])


def test_another_maker_under_a_taken_name_is_refused():
    register("test-frames", frames_maker)  # the same one again: nothing happens
    with pytest.raises(ValueError, match="already registered"):
        register("test-frames", lambda request: [])
    assert "test-frames" in registered()


BAD = [
    ({"maker": ""}, r"plots\.0\.maker: the name of a registered picture maker"),
    ({"maker": 3}, r"plots\.0\.maker: the name of a registered picture maker"),
    ({"options": [1]}, r"plots\.0\.options: a mapping, given to the picture maker as written"),
    ({"metric": "psnr"}, r"plots\.0\.metric: names metric 'psnr'"),
    ({"series": "protocol"}, r"plots\.0\.series: unknown key \(allowed: kind, maker, metric, options, title, where\)"),
]


@pytest.mark.parametrize("keys,message", BAD)
def test_bad_pictures_plot_names_the_key(tmp_path, keys, message):
    doc = {**copy.deepcopy(WIRED), "plots": [{**PICTURES, **keys}]}
    with pytest.raises(InputError, match=message):
        load_campaign(write_campaign(tmp_path / "c.yaml", doc))
