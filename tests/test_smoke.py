"""The smoke profile (python/mantra/lab/smoke.py): one run per campaign, the last value of every
axis on the first seed, of the quick profile where there is one; `mantra smoke` runs it."""

import copy

from conftest import mantra
from lab_helpers import WIRED, write_campaign
from mantra.lab.campaign import expand
from mantra.lab.located_yaml import load_located
from mantra.lab.smoke import smoke_profile


def test_a_campaign_is_cut_to_its_last_grid_point_on_its_first_quick_seed(tmp_path):
    doc = copy.deepcopy(WIRED)
    doc["seeds"] = [1, 2, 3]
    doc["quick"] = {"seeds": [7, 8], "set": {"duration": 3}}
    jobs = expand(smoke_profile(load_located(write_campaign(tmp_path / "c.yaml", doc))))
    assert len(jobs) == 1
    (job,) = jobs
    assert job.point == {"protocol": "tcp", "topology.loss": 0.02} and job.seed == 7
    assert job.spec["duration"] == 3 and job.spec["flows"][0]["protocol"] == "tcp"


def test_without_a_quick_profile_the_full_one_is_cut(tmp_path):
    doc = copy.deepcopy(WIRED)
    (job,) = expand(smoke_profile(load_located(write_campaign(tmp_path / "c.yaml", doc))))
    assert job.seed == 1 and job.spec["duration"] == WIRED["base"]["duration"]


def test_mantra_smoke_runs_one_run_per_campaign(tmp_path):
    a, b = copy.deepcopy(WIRED), copy.deepcopy(WIRED)
    b["campaign"] = "wired-other"
    paths = [str(write_campaign(tmp_path / f"{d['campaign']}.yaml", d)) for d in (a, b)]
    p = mantra("smoke", *paths, "--out", str(tmp_path / "results"))
    assert f"{tmp_path / 'results'}: 2 ran, 0 failed" in p.stderr
