"""Campaign files: grid expansion, paired seeds, run keys, and errors before any run."""

import copy

import pytest

from conftest import mantra
from lab_helpers import WIRED, write_campaign
from mantra.errors import InputError
from mantra.lab.campaign import expand
from mantra.lab.load import load_campaign
from mantra.lab.store import run_key


def test_product_of_axes_times_seeds(tmp_path):
    camp = load_campaign(write_campaign(tmp_path / "c.yaml", WIRED))
    jobs = expand(camp)
    assert len(jobs) == 2 * 2 * 2
    assert {(j.point["protocol"], j.point["topology.loss"], j.seed) for j in jobs} == {
        (p, loss, s) for p in ("tfrc", "tcp") for loss in (0.01, 0.02) for s in (1, 2)
    }
    tcp = next(j for j in jobs if j.point == {"protocol": "tcp", "topology.loss": 0.02} and j.seed == 2)
    assert tcp.spec["flows"][0]["protocol"] == "tcp"
    assert tcp.spec["topology"]["loss"] == 0.02
    assert tcp.spec["seed"] == 2


def test_protocols_share_seeds_and_everything_else(tmp_path):
    jobs = expand(load_campaign(write_campaign(tmp_path / "c.yaml", WIRED)))
    for seed in (1, 2):
        tfrc = next(j.spec for j in jobs if j.seed == seed and j.point == {"protocol": "tfrc", "topology.loss": 0.01})
        tcp = copy.deepcopy(
            next(j.spec for j in jobs if j.seed == seed and j.point == {"protocol": "tcp", "topology.loss": 0.01})
        )
        tcp["flows"][0]["protocol"] = "tfrc"
        assert tcp == tfrc  # the same scenario and seed; only the protocol differs


def test_zip_moves_axes_together_and_quick_narrows_them(tmp_path):
    doc = copy.deepcopy(WIRED)
    doc["grid"] = {"zip": [{"topology.hops": [1, 2, 3], "flows.0.dst": [1, 2, 3]}]}
    doc["quick"] = {"seeds": [7], "set": {"duration": 4}, "grid": {"topology.hops": [1, 3]}}
    path = write_campaign(tmp_path / "c.yaml", doc)
    full = expand(load_campaign(path))
    assert [(j.spec["topology"]["hops"], j.spec["flows"][0]["dst"]) for j in full[::2]] == [(1, 1), (2, 2), (3, 3)]
    quick = expand(load_campaign(path, quick=True))
    assert [(j.spec["topology"]["hops"], j.spec["flows"][0]["dst"], j.seed, j.spec["duration"]) for j in quick] == [
        (1, 1, 7, 4),
        (3, 3, 7, 4),
    ]


def test_run_key_follows_spec_and_build(tmp_path):
    spec = expand(load_campaign(write_campaign(tmp_path / "c.yaml", WIRED)))[0].spec
    assert run_key(spec, "b1") == run_key(copy.deepcopy(spec), "b1")
    assert run_key(spec, "b1") != run_key(spec, "b2")
    assert run_key(spec, "b1") != run_key({**spec, "seed": 99}, "b1")


def with_change(change):
    doc = copy.deepcopy(WIRED)
    change(doc)
    return doc


BAD = [
    (lambda d: d.update(colour="red"), r"c.yaml:\d+: colour: unknown key"),
    (
        lambda d: d["grid"].update({"mobility.speed": [1, 2]}),
        r"c.yaml:\d+: grid.mobility.speed: mobility is not a section of the spec",
    ),
    (lambda d: d["grid"].update({"flows.3.rate": [1]}), r"grid.flows.3.rate: flows.3 is not an index of the list"),
    (lambda d: d.update(grid={}), r"grid: empty grid"),
    (lambda d: d["grid"].update({"duration": []}), r"grid.duration: empty list of values"),
    (lambda d: d.update(seeds=0), r"seeds: the count of seeds must be at least 1"),
    (lambda d: d.update(report_order="first"), r"report_order: a whole number in \[0, 1000\]"),
    (
        lambda d: d.update(
            claims=[{"claim": "x", "paper": "y", "check": {"kind": "value", "metric": "goodput", "min": 1}}]
        ),
        r"claims.0.check.metric: names metric 'goodput', which the campaign's metrics do not have",
    ),
    (
        lambda d: d.update(
            claims=[
                {
                    "claim": "x",
                    "paper": "y",
                    "check": {
                        "kind": "best",
                        "metric": "throughput_kbps",
                        "axis": "protocol",
                        "subject": "dccp",
                        "direction": "max",
                    },
                }
            ]
        ),
        r"claims.0.check.subject: 'dccp' is not a value of axis protocol",
    ),
    (
        lambda d: d.update(plots=[{"kind": "sweep", "metric": "throughput_kbps", "x": "speed", "series": "protocol"}]),
        r"plots.0.x: names axis 'speed', which the grid does not have",
    ),
    (
        lambda d: d.update(
            plots=[{"kind": "sweep", "metric": "throughput_kbps", "x": "topology.loss", "where": {"protocol": "dccp"}}]
        ),
        r"plots.0.where.protocol: 'dccp' is not a value of the axis",
    ),
    (
        lambda d: d.update(quick={"grid": {"topology.loss": [0.5]}}),
        r"quick.grid.topology.loss: 0.5 is not a value of the axis",
    ),
]


@pytest.mark.parametrize("change,message", BAD)
def test_bad_campaign_names_file_line_and_key(tmp_path, change, message):
    path = write_campaign(tmp_path / "c.yaml", with_change(change))
    with pytest.raises(InputError, match=message):
        load_campaign(path, quick="quick" in with_change(change))


def test_cli_refuses_bad_campaign_before_running(tmp_path):
    doc = with_change(lambda d: d["grid"]["protocol"].update({"dccp": {"flows.0.protocol": "dccp"}}))
    path = write_campaign(tmp_path / "c.yaml", doc)
    proc = mantra("run", str(path), "--out", str(tmp_path / "out"), check=False)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    # the grid entry that set the refused key, and mantra-sim's own reason
    assert (
        "c.yaml:" in lines[0] and "grid.protocol.dccp.flows.0.protocol" in lines[0] and "unknown protocol" in lines[0]
    )
    assert not (tmp_path / "out").exists()


def test_malformed_yaml_names_line(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("campaign: x\ngrid: [1,\n")
    proc = mantra("run", str(path), check=False)
    assert proc.returncode == 2 and "c.yaml:3: malformed YAML" in proc.stderr
