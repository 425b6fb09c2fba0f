"""The claims ledger: every headline claim of the papers, the campaign claims that check it, and
the last verdicts, built from committed files only (results/ is not kept from one clone to the
next):

    docs/ledger/papers/PAPER.yaml     the paper's headline claims (its line, words and number),
                                      written by hand (docs/lab.md, "Ledger"); background.yaml
                                      holds other work's results and platform checks (the demo
                                      and platform campaigns), with `text: ""` and no lines
    docs/ledger/runs/CAMPAIGN.json    a campaign's claims as its last report judged them (value,
    docs/ledger/runs/CAMPAIGN-quick.json   interval, seeds, verdict, build, date): write_summary,
                                      called by `mantra report --ledger` and `mantra reproduce`
    campaigns/*/*.yaml                each claim names the paper claim it checks (`ledger: PAPER/ID`)

`mantra ledger` joins them into docs/claims.md (build_ledger); it refuses a campaign claim with
no `ledger` key or one naming no paper claim, and a paper claim marked not checked that a
campaign checks. A full profile's summary is preferred to a quick one's, which is marked
indicative.
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mantra.errors import InputError
from mantra.lab.campaign import Campaign
from mantra.lab.claims import Verdict
from mantra.lab.load import load_campaign

# The campaign's verdict, as the ledger words it.
WORDS = {
    "pass": "reproduced",
    "partly": "partly",
    "fail": "not reproduced",
    "inconclusive": "inconclusive",
    "too few runs": "too few runs",
    "reported": "reported (no verdict)",
}
ORDER = (*WORDS.values(), "not run", "not checked")
PAPER_KEYS = {"paper", "title", "text", "document", "claims"}
CLAIM_KEYS = {"id", "figure", "line", "words", "number"}
CLAIM_OPTIONAL = {"cause", "not_checked"}
ID = re.compile(r"^[a-z0-9-]+$")


def summary_name(campaign: str, quick: bool) -> str:
    return f"{campaign}{'-quick' if quick else ''}.json"


def write_summary(
    directory: Path, camp: Campaign, verdicts: list[Verdict], quick: bool, provenance: dict[str, str]
) -> Path:
    """Writes DIRECTORY/CAMPAIGN[-quick].json: the campaign's claims as this report judged them."""
    directory.mkdir(parents=True, exist_ok=True)
    claims = []
    for v in verdicts:
        claims.append(
            {
                "ledger": v.ledger,
                "claim": v.claim,
                "paper": v.paper,
                "estimate": v.estimate,
                "mean": None if math.isnan(v.mean) else v.mean,
                "ci95": None if math.isnan(v.ci95) else v.ci95,
                "n": v.n,
                "ours": v.written(),
                "verdict": v.verdict,
            }
        )
    summary = {
        "campaign": camp.name,
        "title": camp.title,
        "profile": "quick" if quick else "full",
        "seeds_of_profile": camp.seeds_of_profile,  # 0: every seed of the profile ran (else --seeds N)
        "date": time.strftime("%Y-%m-%d"),
        **{k: provenance.get(k, "") for k in ("commit", "ns-3", "build", "seeds")},
        "claims": claims,
    }
    path = directory / summary_name(camp.name, quick)
    path.write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n")
    return path


@dataclass
class PaperClaim:
    paper: str
    id: str
    figure: str
    line: int
    words: str
    number: str
    cause: str
    not_checked: str
    checks: list[Check] = field(default_factory=list)


@dataclass
class Check:
    """A campaign claim that checks a paper claim, with its last verdict."""

    campaign: str
    claim: str
    ours: str = ""
    seeds: int = 0
    verdict: str = "not run"
    profile: str = ""
    seeds_of_profile: int = 0  # the profile's seeds, when only the first ones ran
    build: str = ""
    date: str = ""


@dataclass
class Paper:
    name: str
    title: str
    text: str
    document: str
    claims: list[PaperClaim]


def _fail(path: Path, where: str, what: str) -> InputError:
    return InputError(f"{path}: {where}: {what}")


def load_paper(path: Path) -> Paper:
    doc = yaml.safe_load(path.read_text())
    if not isinstance(doc, dict):
        raise _fail(path, "top", "a mapping of " + ", ".join(sorted(PAPER_KEYS)))
    for key in doc:
        if key not in PAPER_KEYS:
            raise _fail(path, key, f"unknown key (allowed: {', '.join(sorted(PAPER_KEYS))})")
    for key in sorted(PAPER_KEYS):
        if key not in doc:
            raise _fail(path, "top", f"missing key '{key}'")
    if doc["paper"] != path.stem:
        raise _fail(path, "paper", f"{doc['paper']!r} is not the file's name {path.stem!r}")
    claims, seen = [], set()
    for i, c in enumerate(doc["claims"] or []):
        where = f"claims[{i}]"
        if not isinstance(c, dict):
            raise _fail(path, where, "a mapping")
        for key in c:
            if key not in CLAIM_KEYS | CLAIM_OPTIONAL:
                raise _fail(path, f"{where}.{key}", "unknown key")
        for key in sorted(CLAIM_KEYS - ({"line"} if not doc["text"] else set())):
            if key not in c:
                raise _fail(path, where, f"missing key '{key}'")
        if not isinstance(c["id"], str) or not ID.match(c["id"]) or c["id"] in seen:
            raise _fail(path, f"{where}.id", f"{c['id']!r}: a unique id of lowercase letters, digits and '-'")
        line = c.get("line", 0)
        if doc["text"] and (not isinstance(line, int) or isinstance(line, bool) or line < 1):
            raise _fail(path, f"{where}.line", "the line of the paper's text, a whole number from 1")
        seen.add(c["id"])
        claims.append(
            PaperClaim(
                path.stem,
                c["id"],
                str(c["figure"]),
                line,
                " ".join(str(c["words"]).split()),
                str(c["number"]),
                str(c.get("cause", "")),
                " ".join(str(c.get("not_checked", "")).split()),
            )
        )
    return Paper(path.stem, str(doc["title"]), str(doc["text"]), str(doc["document"]), claims)


def paper_claims(root: Path) -> dict[str, PaperClaim]:
    """Every listed paper claim by its `PAPER/ID`."""
    papers = [load_paper(p) for p in sorted((root / "docs" / "ledger" / "papers").glob("*.yaml"))]
    return {f"{p.name}/{c.id}": c for p in papers for c in p.claims}


def _summaries(runs: Path) -> dict[str, dict[str, Any]]:
    """Per campaign, its summary: the full profile's if there is one, else the quick one's."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(runs.glob("*.json")):
        s = json.loads(path.read_text())
        have = out.get(s["campaign"])
        if have is None or (have["profile"] == "quick" and s["profile"] == "full"):
            out[s["campaign"]] = s
    return out


def collect(root: Path) -> list[Paper]:
    """The papers' claims with the campaign claims checking each and their last verdicts."""
    ledger = root / "docs" / "ledger"
    papers = {p.stem: load_paper(p) for p in sorted((ledger / "papers").glob("*.yaml"))}
    index = {f"{p.name}/{c.id}": c for p in papers.values() for c in p.claims}
    summaries = _summaries(ledger / "runs")
    for path in sorted((root / "campaigns").glob("*/*.yaml")):
        camp = load_campaign(path)
        s = summaries.get(camp.name, {})
        judged = {c["claim"]: c for c in s.get("claims", [])}
        for i, entry in enumerate(camp.claims):
            where = f"{path.relative_to(root)}: claims[{i}]"
            ref = entry.get("ledger")
            if ref is None:
                raise InputError(f"{where}: no 'ledger' key: name the paper claim it checks (PAPER/ID)")
            if ref not in index:
                raise InputError(f"{where}.ledger: {ref} is in no list of docs/ledger/papers/")
            target = index[ref]
            if target.not_checked:
                raise InputError(f"{where}.ledger: {ref} is marked not_checked, yet this claim checks it")
            check = Check(camp.name, str(entry["claim"]))
            if str(entry["claim"]) in judged:
                j = judged[str(entry["claim"])]
                check.ours, check.seeds, check.verdict = j["ours"], j["n"], WORDS[j["verdict"]]
                check.profile, check.build, check.date = s["profile"], s["build"], s["date"]
                check.seeds_of_profile = s.get("seeds_of_profile", 0)
            target.checks.append(check)
    return list(papers.values())


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(papers: list[Paper]) -> str:
    """docs/claims.md."""
    counts = dict.fromkeys(ORDER, 0)
    rows_of: dict[str, list[str]] = {}
    for p in papers:
        rows = []
        for c in p.claims:
            where = f"{c.figure}, line {c.line}" if c.line else c.figure
            head = f"| {_cell(where)} | {_cell(c.words)} | {_cell(c.number)} "
            cause = f"[why]({p.document.removeprefix('docs/')}{c.cause})" if c.cause else ""
            if not c.checks:
                counts["not checked"] += 1
                reason = c.not_checked or "no campaign checks it"
                rows.append(f"{head}| not checked: {_cell(reason)} | | | **not checked** | {cause} |")
            for k in c.checks:
                counts[k.verdict] += 1
                profile = " (quick: indicative)" if k.profile == "quick" else ""
                if k.seeds_of_profile:
                    profile += f" (a subset: the profile has {k.seeds_of_profile} seeds)"
                rows.append(
                    f"{head}| {k.campaign}: {_cell(k.claim)} | {_cell(k.ours)} | {k.seeds or ''} "
                    f"| **{k.verdict}**{profile} | {cause} |"
                )
        rows_of[p.name] = rows
    lines = [
        "# Claims ledger",
        "",
        "Written by `./mantra ledger` from the papers' headline claims (`docs/ledger/papers/`), the",
        "campaigns' claims (`campaigns/*/*.yaml`, each naming the paper claim it checks) and the last",
        "report of each campaign (`docs/ledger/runs/`); do not edit it by hand. The rules behind a verdict",
        "(the paper's numbers, the ± 20 % band, the minimum of 5 paired seeds) are in",
        "[lab.md](lab.md#claims). A quick profile's verdict is indicative; a full profile's is preferred.",
        "",
        "Rows: " + ", ".join(f"{n} {v}" for v, n in counts.items()) + ".",
        "",
    ]
    for p in papers:
        lines += [
            f"## {p.name}",
            "",
            f"{p.title}{f' (`../shared/papers/{p.text}`)' if p.text else ''}; "
            f"reproduction: [{p.document}]({p.document.removeprefix('docs/')}).",
            "",
            "| where | paper's words | paper's number | checked by | ours | seeds | verdict | cause |",
            "|---|---|---|---|---|---|---|---|",
            *rows_of[p.name],
            "",
        ]
    provenance = sorted(
        {(k.campaign, k.profile, k.build, k.date) for p in papers for c in p.claims for k in c.checks if k.build}
    )
    if provenance:
        lines += ["## Runs behind the verdicts", "", "| campaign | profile | build | date |", "|---|---|---|---|"]
        lines += [f"| {c} | {pr} | {b[:12]} | {d} |" for c, pr, b, d in provenance]
        lines.append("")
    return "\n".join(lines)


def build_ledger(root: Path) -> Path:
    path = root / "docs" / "claims.md"
    path.write_text(render(collect(root)))
    return path
