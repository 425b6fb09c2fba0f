"""The claims ledger (python/mantra/lab/ledger.py): a paper's headline claims joined with the
campaign claims that check them and the verdicts their last report gave; refused where a
campaign claim names no paper claim. And the sum metric `A + B` it needs (an aggregate of two
flows)."""

import copy
import json
from dataclasses import replace

import pytest
import yaml

from conftest import ROOT
from lab_helpers import WIRED, synthetic_store, write_campaign
from mantra.errors import InputError
from mantra.lab.analysis import campaign_frame
from mantra.lab.claims import evaluate
from mantra.lab.ledger import build_ledger, collect, write_summary

PAPER = {
    "paper": "toy",
    "title": "A toy paper",
    "text": "999_toy.txt",
    "document": "docs/reproductions/toy.md",
    "claims": [
        {
            "id": "fig1-gain",
            "figure": "Fig. 1",
            "line": 12,
            "words": "TFRC gets three times TCP's throughput",
            "number": "3x",
            "cause": "#why",
        },
        {
            "id": "fig2-delay",
            "figure": "Fig. 2",
            "line": 20,
            "words": "delay falls",
            "number": "-",
            "not_checked": "no delay runs",
        },
    ],
}


def campaign(**check):
    doc = copy.deepcopy(WIRED)
    doc["metrics"]["both_kbps"] = "flows.0.throughput_kbps + flows.0.throughput_kbps"
    doc["seeds"] = list(range(1, 7))
    doc["claims"] = [
        {
            "claim": "TFRC gets three times TCP's throughput.",
            "paper": "3x",
            "ledger": "toy/fig1-gain",
            "check": {
                "kind": "ratio",
                "metric": "throughput_kbps",
                "num": {"protocol": "tfrc"},
                "den": {"protocol": "tcp"},
                **check,
            },
        }
    ]
    return doc


def project(tmp_path, doc, paper=PAPER):
    """A project root with one paper list and one campaign."""
    (tmp_path / "docs" / "ledger" / "papers").mkdir(parents=True)
    (tmp_path / "docs" / "ledger" / "papers" / "toy.yaml").write_text(yaml.safe_dump(paper))
    (tmp_path / "campaigns" / "toy").mkdir(parents=True)
    write_campaign(tmp_path / "campaigns" / "toy" / "c.yaml", doc)
    return tmp_path


def rate(point, seed):
    # TFRC twice TCP's rate, with a little spread over seeds
    kbps = (200.0 if point["protocol"] == "tfrc" else 100.0) + seed
    return {"flows": [{"throughput_kbps": kbps, "delay_ms": {"p95": 1.0}}]}


def test_a_sum_metric_adds_two_paths_within_each_run(tmp_path):
    camp, store, _ = synthetic_store(tmp_path, campaign(target=3, holds={"min": 1}), rate)
    frame = campaign_frame(store.frame(), camp)
    assert (frame["both_kbps"] == 2 * frame["throughput_kbps"]).all()


def test_the_ledger_joins_a_paper_claim_with_its_check_and_verdict(tmp_path):
    doc = campaign(target=3, holds={"min": 1})  # the paper's 3x: ours about 2x, above 1
    root = project(tmp_path / "p", doc)
    camp, store, _ = synthetic_store(tmp_path, doc, rate)
    verdicts = evaluate(campaign_frame(store.frame(), camp), camp)
    assert [v.verdict for v in verdicts] == ["partly"]
    provenance = {"commit": "abc", "ns-3": "3.44", "build": "b" * 64, "seeds": "1-6"}
    write_summary(root / "docs" / "ledger" / "runs", camp, verdicts, False, provenance)
    text = build_ledger(root).read_text()
    row = next(line for line in text.splitlines() if "TFRC gets three times TCP" in line and "wired-small" in line)
    assert "Fig. 1, line 12" in row and "| 6 |" in row and "**partly**" in row
    assert "[why](reproductions/toy.md#why)" in row
    assert "**not checked**" in text and "no delay runs" in text
    assert "1 partly" in text and "1 not checked" in text


def test_a_quick_summary_is_indicative_and_a_full_one_wins(tmp_path):
    doc = campaign(min=1.5)
    root = project(tmp_path / "p", doc)
    camp, store, _ = synthetic_store(tmp_path, doc, rate)
    verdicts = evaluate(campaign_frame(store.frame(), camp), camp)
    runs = root / "docs" / "ledger" / "runs"
    write_summary(runs, camp, verdicts, True, {"build": "q"})
    assert "(quick: indicative)" in build_ledger(root).read_text()
    write_summary(runs, camp, verdicts, False, {"build": "f"})
    assert "indicative" not in build_ledger(root).read_text().split("## Runs")[0].split("Rows:")[1]
    # A full profile run on its first seeds only (--seeds) says so in the ledger.
    subset = replace(camp, seeds=camp.seeds[:5], seeds_of_profile=len(camp.seeds))
    write_summary(runs, subset, verdicts, False, {"build": "f"})
    assert "(a subset: the profile has 6 seeds)" in build_ledger(root).read_text()


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda doc: doc["claims"][0].pop("ledger"), "claims[0]: no 'ledger' key"),
        (lambda doc: doc["claims"][0].update(ledger="toy/fig9-none"), "claims[0].ledger: toy/fig9-none is in no list"),
        (lambda doc: doc["claims"][0].update(ledger="toy/fig2-delay"), "is marked not_checked"),
    ],
)
def test_a_campaign_claim_must_name_a_paper_claim(tmp_path, change, message):
    doc = campaign(min=1)
    change(doc)
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("]", r"\]")):
        collect(project(tmp_path, doc))


def test_a_paper_list_is_checked_key_by_key(tmp_path):
    paper = copy.deepcopy(PAPER)
    paper["claims"][0]["line"] = 0
    with pytest.raises(InputError, match=r"claims\[0\].line: the line of the paper's text"):
        collect(project(tmp_path, campaign(min=1), paper))


def test_every_claim_of_the_projects_campaigns_names_a_listed_paper_claim():
    papers = collect(ROOT)
    assert {p.name for p in papers} >= {"adtfrc", "latp", "tfwmfc", "freeze-probing", "rsc-var"}
    for p in papers:
        for c in p.claims:
            assert c.checks or c.not_checked, f"{p.name}/{c.id}: neither checked nor said why not"


def test_the_committed_ledger_is_what_the_ledger_command_writes(tmp_path):
    runs = ROOT / "docs" / "ledger" / "runs"
    for path in runs.glob("*.json"):
        json.loads(path.read_text())  # each summary is whole JSON
    from mantra.lab.ledger import render

    assert (ROOT / "docs" / "claims.md").read_text() == render(collect(ROOT))
