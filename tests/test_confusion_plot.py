"""The `confusion` plot: a loss-cause detector's confusion matrix (identified state against the
oracle's true cause), summed over the runs `where` leaves, one per facet value; from synthetic
results in a temporary store, no simulator needed."""

import copy
import math

import pytest

from lab_helpers import synthetic_store, write_campaign
from mantra.errors import InputError
from mantra.lab.analysis import campaign_frame
from mantra.lab.load import load_campaign
from mantra.lab.plots import confusion_matrices, draw
from mantra.lab.report import write_report

CAMPAIGN = {
    "campaign": "detector",
    "title": "Detector accuracy",
    "base": {
        "duration": 10,
        "topology": {"kind": "manet", "nodes": 4, "width": 100, "height": 100},
        "mobility": {"model": "rwp", "speed": 5, "pause": 0},
        "flows": [
            {"protocol": "adtfrc", "src": 0, "dst": 1, "start": 1},
            {"protocol": "cbr", "src": 2, "dst": 3, "start": 1, "rate": "10kbps"},
        ],
    },
    "grid": {
        "case": {"uncongested": {"flows.1.rate": "1kbps"}, "congested": {"flows.1.rate": "180kbps"}},
        "speed": {0: {"mobility.speed": 0}, 10: {"mobility.speed": 10}, 20: {"mobility.speed": 20}},
    },
    "seeds": [1, 2],
    "metrics": {"losses": "flows.0.detection.attributed"},
}


def cells(**counts):
    """A full confusion block, identified -> true -> count, from `identified_true=count`."""
    out = {s: {"cong": 0, "cherr": 0, "rtchg": 0} for s in ("cong", "rtchg", "cherr", "normal")}
    for name, n in counts.items():
        state, cause = name.split("_")
        out[state][cause] = n
    return out


def block(confusion):
    n = sum(v for row in confusion.values() for v in row.values())
    return {"losses": n, "attributed": n, "unattributed": 0, "confusion": confusion}


def result(multi, idd=None, cbr_detection=False):
    """A run's result: flow 0 acted on `multi`; by_detector holds multi, and idd if given."""
    by = {"multi": block(multi), **({"idd": block(idd)} if idd is not None else {})}
    flows = [{"detection": {**block(multi), "detector": "multi", "by_detector": by}}, {"throughput_kbps": 1.0}]
    if cbr_detection:
        flows[1]["detection"] = block(multi)
    return {"flows": flows}


def synthetic(point, seed):
    """A deterministic result per grid point and seed: multi's true-congestion count says where
    it came from (speed + seed, +100 when congested); idd calls everything congestion."""
    congested = point["case"] == "congested"
    multi = cells(
        cong_cong=point["speed"] + seed + (100 if congested else 0),
        normal_cong=seed,
        cherr_cherr=3,
        cong_cherr=1,
        rtchg_rtchg=2 if point["speed"] else 0,
    )
    idd = cells(cong_cong=7, cong_cherr=4)
    return result(multi, idd)


# -- aggregation ----------------------------------------------------------------------
def test_sums_each_facet_values_runs_and_shares_each_true_cause_column():
    runs = [
        (10, result(cells(cong_cong=3, normal_cong=1, cherr_cherr=2))),
        (0, result(cells(cong_cong=1, cherr_cherr=4, cong_cherr=4))),
        (10, result(cells(cong_cong=5, normal_cong=3, rtchg_rtchg=2))),
    ]
    m = confusion_matrices(runs)
    assert list(m) == [10, 0]  # the order first met
    ten = m[10]
    assert ten.runs == 2 and ten.without == 0
    assert ten.counts["cong"]["cong"] == 8 and ten.counts["normal"]["cong"] == 4
    assert ten.identified == ["cong", "rtchg", "cherr", "normal"] and ten.causes == ["cong", "cherr", "rtchg"]
    assert ten.total("cong") == 12
    # a column reads: of the losses truly caused by congestion, 2/3 were identified as congestion
    assert ten.share("cong", "cong") == pytest.approx(8 / 12)
    assert ten.share("normal", "cong") == pytest.approx(4 / 12)
    assert sum(ten.share(s, "cong") for s in ten.identified) == pytest.approx(1)
    assert ten.share("cherr", "cherr") == 1 and ten.share("rtchg", "rtchg") == 1
    zero = m[0]
    assert zero.share("cong", "cherr") == 0.5 and math.isnan(zero.share("rtchg", "rtchg"))  # no rtchg losses


def test_detector_takes_its_block_of_by_detector_and_the_default_the_rule_acted_on():
    multi, idd = cells(cong_cong=2, normal_cong=2), cells(cong_cong=4)
    runs = [(None, result(multi, idd)), (None, result(multi, idd))]
    assert confusion_matrices(runs)[None].counts["normal"]["cong"] == 4
    assert confusion_matrices(runs, detector="multi")[None].counts["normal"]["cong"] == 4
    chosen = confusion_matrices(runs, detector="idd")[None]
    assert chosen.counts["cong"]["cong"] == 8 and chosen.counts["normal"]["cong"] == 0
    # no stt entry: the rule judged no loss; the runs count, with nothing to add
    stt = confusion_matrices(runs, detector="stt")[None]
    assert stt.runs == 2 and stt.total("cong") == stt.total("cherr") == stt.total("rtchg") == 0


def test_runs_whose_flow_has_no_detection_are_counted_apart():
    runs = [(None, result(cells(cong_cong=1))), (None, result(cells(cong_cong=2), cbr_detection=True))]
    assert (confusion_matrices(runs, flow=1)[None].runs, confusion_matrices(runs, flow=1)[None].without) == (1, 1)
    beyond = confusion_matrices(runs, flow=5)[None]  # a grid point with fewer flows
    assert beyond.runs == 0 and beyond.without == 2


def test_unknown_states_and_causes_are_kept_not_dropped():
    odd = cells(cong_cong=1)
    odd["probing"] = {"cong": 2, "other": 1}
    m = confusion_matrices([(None, result(odd))])[None]
    assert m.identified[-1] == "probing" and m.causes[-1] == "other"
    assert m.total("cong") == 3 and m.share("probing", "other") == 1


# -- the plot, from a store -------------------------------------------------------------
def make_store(tmp_path, plots):
    return synthetic_store(tmp_path, {**copy.deepcopy(CAMPAIGN), "plots": plots}, synthetic)


def figures(tmp_path, plots):
    camp, store, _ = make_store(tmp_path, plots)
    try:
        return draw(camp, campaign_frame(store.frame(), camp), store.result)
    finally:
        store.close()


def test_plot_sums_the_seeds_at_where_per_facet_value(tmp_path):
    plot = {"kind": "confusion", "where": {"case": "congested", "speed": [20, 0]}, "facet": "speed", "title": "Fig"}
    (fig,) = figures(tmp_path, [plot])
    assert fig.kind == "confusion" and fig.title == "Fig" and fig.png.startswith(b"\x89PNG")
    table = fig.table
    assert list(table.columns) == ["speed", "identified", "true cong", "true cherr", "true rtchg", "runs"]
    assert list(dict.fromkeys(table["speed"])) == [0, 20]  # the axis's order, only the values `where` leaves
    cell = table.set_index(["speed", "identified"])
    # seeds 1 and 2 summed: (speed + 1 + 100) + (speed + 2 + 100) identified as congestion
    assert cell.loc[(20, "cong"), "true cong"] == "243 (98.8 %)"
    assert cell.loc[(20, "normal"), "true cong"] == "3 (1.22 %)"  # shares: three significant digits (numbers.py)
    assert cell.loc[(20, "total"), "true cong"] == "246" and cell.loc[(20, "total"), "runs"] == "2 runs"
    assert cell.loc[(0, "cong"), "true cong"] == "203 (98.5 %)"
    assert cell.loc[(0, "cong"), "true cherr"] == "2 (25.0 %)" and cell.loc[(0, "cherr"), "true cherr"] == "6 (75.0 %)"
    assert cell.loc[(0, "rtchg"), "true rtchg"] == "0 (-)"  # no route-change losses at 0 m/s


def test_plot_without_facet_pools_every_run_left_and_reads_the_detector(tmp_path):
    plots = [
        {"kind": "confusion", "where": {"case": "uncongested"}},
        {"kind": "confusion", "where": {"case": "uncongested"}, "detector": "idd", "flow": 0},
    ]
    acted, idd = figures(tmp_path, plots)
    assert acted.title == "Detector accuracy: confusion 1"
    assert list(acted.table.columns) == ["identified", "true cong", "true cherr", "true rtchg", "runs"]
    total = acted.table.set_index("identified").loc["total"]
    # 3 speeds x 2 seeds: speed + seed identified as congestion, seed as normal
    assert total["true cong"] == str(2 * (0 + 10 + 20) + 3 * (1 + 2) + 3 * (1 + 2)) and total["runs"] == "6 runs"
    rows = idd.table.set_index("identified")
    assert rows.loc["cong", "true cong"] == "42 (100 %)" and rows.loc["cong", "true cherr"] == "24 (100 %)"


def test_plot_of_a_flow_without_detection_says_so(tmp_path):
    (fig,) = figures(tmp_path, [{"kind": "confusion", "flow": 1, "where": {"case": "congested", "speed": 10}}])
    assert fig.table.set_index("identified").loc["total", "runs"] == "0 runs, 2 without detection"


def test_report_shows_the_matrix_as_a_table_beside_its_image(tmp_path):
    plot = {"kind": "confusion", "where": {"case": "congested"}, "facet": "speed", "detector": "multi"}
    _, store, out = make_store(tmp_path, [plot])
    store.close()
    page = write_report(out).read_text()
    assert (out / "plots" / "detector-1-confusion.png").is_file()
    assert "Detector accuracy: confusion 1" in page and 'src="data:image/png;base64,' in page
    assert page.count("<th>true cong</th>") == 1 and "246" in page and "98.8 %" in page


# -- checks before any run -------------------------------------------------------------------
BAD = [
    ({"facet": "velocity"}, r"plots\.0\.facet: names axis 'velocity', which the grid does not have"),
    ({"detector": "oracle"}, r"plots\.0\.detector: 'oracle' is not a rule of by_detector \(multi, idd, stt\)"),
    ({"flow": 2}, r"plots\.0\.flow: the index of a flow of the base spec"),
    ({"flow": "watched"}, r"plots\.0\.flow: the index of a flow of the base spec"),
    ({"series": "speed"}, r"plots\.0\.series: unknown key \(allowed: detector, facet, flow, kind, title, where\)"),
    ({"where": {"speed": 30}}, r"plots\.0\.where\.speed: 30 is not a value of the axis"),
]


@pytest.mark.parametrize("keys,message", BAD)
def test_bad_confusion_plot_names_the_key(tmp_path, keys, message):
    doc = {**copy.deepcopy(CAMPAIGN), "plots": [{"kind": "confusion", **keys}]}
    with pytest.raises(InputError, match=message):
        load_campaign(write_campaign(tmp_path / "c.yaml", doc))


def test_the_issue_17_form_is_accepted(tmp_path):
    plot = {
        "kind": "confusion",
        "where": {"case": "congested", "speed": [0, 10, 20]},
        "facet": "speed",
        "flow": 0,
        "detector": "multi",
        "title": "Confusion of the multi-metric detector",
    }
    camp = load_campaign(write_campaign(tmp_path / "c.yaml", {**copy.deepcopy(CAMPAIGN), "plots": [plot]}))
    assert camp.plots == [plot]
