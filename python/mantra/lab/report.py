"""report.html: one page for the campaigns of a results directory.

It holds, in order: a table of contents; the claims, a table per campaign (each claim in the
paper's words, the paper's number, ours with its 95 % interval, the verdict and links to the
plots it is about, links.py); then per campaign its runs and provenance, the command that
reproduces it, and each plot with the table of its numbers (or the pictures of a `pictures`
plot); then the failed runs with the command that reproduces each. Numbers are written by
numbers.py. Plots are embedded PNGs (also written to DIR/plots/); pictures are linked files
under DIR. A small script at the end checks that every image loaded.
"""

from __future__ import annotations

import base64
import shlex
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
import pandas as pd
import yaml

from mantra.errors import InputError
from mantra.lab.analysis import campaign_frame
from mantra.lab.campaign import Campaign
from mantra.lab.claims import MIN_SEEDS, VERDICTS, Verdict, evaluate, format_bounds
from mantra.lab.ledger import PaperClaim, paper_claims, write_summary
from mantra.lab.links import plots_of_claims
from mantra.lab.load import build_campaign
from mantra.lab.located_yaml import Located
from mantra.lab.numbers import label
from mantra.lab.pictures import Picture, PictureRequest, make_pictures
from mantra.lab.plots import Figure, PictureSource, draw
from mantra.lab.store import Store, write_atomic
from mantra.simulator import ROOT

TEMPLATE = Path(__file__).with_name("report.html.j2")


@dataclass
class Plot:
    """A plot as the page shows it: anchored, numbered within its campaign."""

    anchor: str
    number: int
    figure: Figure
    png: str  # base64; empty for pictures
    table: str  # HTML; empty if there are no numbers
    pictures: list[tuple[str, Picture]] = field(default_factory=list)  # (URL, picture)


@dataclass
class Claim:
    """A claim's row: its verdict, its number and bounds as written, and the plots it is about."""

    verdict: Verdict
    ours: str
    detail: str  # the unrounded numbers (a tooltip)
    needs: str
    plots: list[Plot]
    paper_claim: str = ""  # PAPER/ID (figure, line) of the ledger's paper claim it checks
    paper_words: str = ""  # that claim's words


@dataclass
class Section:
    campaign: Campaign
    anchor: str
    claims_anchor: str
    command: str
    counts: dict[str, int]
    provenance: dict[str, str]
    plots: list[Plot]
    claims: list[Claim]
    quick: bool  # run on its quick profile: its verdicts are indicative


def campaign_from_record(record: dict[str, Any]) -> Campaign:
    """The campaign as it was run, from the results directory's copy."""
    definition = yaml.safe_load(record["definition_yaml"])
    located = Located(Path(record["source"]), definition, {})
    return build_campaign(located, quick=record["quick"], first_seeds=record.get("first_seeds"))


def run_command(record: dict[str, Any], out: Path) -> str:
    quick = " --quick" if record["quick"] else ""
    subset = f" --seeds {record['first_seeds']}" if record.get("first_seeds") else ""
    return f"./mantra run {shlex.quote(record['source'])}{quick}{subset} --out {shlex.quote(str(out))}"


def _distinct(values: pd.Series) -> str:
    found = sorted({str(v) for v in values.dropna()})
    return ", ".join(found) if found else "-"


def _table_html(table: pd.DataFrame) -> str:
    """A plot's table: its numbers come written (numbers.py), but for the axis values."""
    if table.empty:
        return ""
    table = table.copy()
    columns: list[Any] = list(table.columns)  # a numeric axis's values, in a wide table
    table.columns = [label(c) if isinstance(c, float) else c for c in columns]
    for column in table.columns:
        if pd.api.types.is_float_dtype(table[column]):
            table[column] = table[column].map(label)
    return table.to_html(index=False, border=0, classes="numbers", na_rep="-", escape=True)


def _picture_source(store: Store, camp: Campaign, out: Path) -> PictureSource:
    def pictures(i: int, entry: dict[str, Any], rows: pd.DataFrame) -> list[Picture]:
        if entry["maker"] == "video":  # the built-in maker; the codecs load only for it
            import mantra.lab.video_pictures  # noqa: F401 (registers it)
        request = PictureRequest(store, camp, rows, out, entry.get("options", {}), f"{camp.name}-{i + 1}")
        return make_pictures(entry["maker"], request)

    return pictures


def _plots(camp: Campaign, figures: list[Figure], out: Path) -> list[Plot]:
    plots = []
    for i, fig in enumerate(figures):
        png = ""
        if fig.png is not None:
            (out / "plots" / f"{camp.name}-{i + 1}-{fig.kind}.png").write_bytes(fig.png)
            png = base64.b64encode(fig.png).decode()
        pictures = [(quote(p.path), p) for p in fig.pictures]
        plots.append(Plot(f"plot-{camp.name}-{i + 1}", i + 1, fig, png, _table_html(fig.table), pictures))
    return plots


def _claim(verdict: Verdict, plots: list[Plot], papers: dict[str, PaperClaim]) -> Claim:
    v = verdict
    if v.picked:
        ours = f"{v.written()} (picked from {v.n} runs)" if v.n else "no data"
        detail = f"value {v.mean:.6g}, picked from {v.n} runs"
    else:
        ours = v.written()
        detail = f"mean {v.mean:.6g}, 95 % half-width {v.ci95:.6g}, {v.n} seeds"
    needs = format_bounds(v.bounds, v.unit)
    if v.holds != (None, None):
        needs += f"; direction {format_bounds(v.holds, v.unit)}"
    listed = papers.get(v.ledger)
    where = f"{listed.figure}, line {listed.line}" if listed and listed.line else listed.figure if listed else ""
    ref = f"{v.ledger} ({where})" if listed else (f"{v.ledger} (not in docs/ledger/papers/)" if v.ledger else "")
    return Claim(v, ours, detail, needs, plots, ref, listed.words if listed else "")


def _section(
    store: Store, frame: pd.DataFrame, name: str, record: dict[str, Any], out: Path, papers: dict[str, PaperClaim]
) -> Section:
    camp = campaign_from_record(record)
    rows = frame[frame["campaign"] == name]
    done = campaign_frame(frame, camp)
    plots = _plots(camp, draw(camp, done, store.result, _picture_source(store, camp, out)), out)
    claims = [
        _claim(v, [plots[i] for i in about], papers)
        for v, about in zip(evaluate(done, camp), plots_of_claims(camp), strict=True)
    ]
    provenance = {
        "commit": _distinct(rows["commit"]),
        "ns-3": _distinct(rows["ns3_version"]),
        "build": record["build"],
        "seeds": ", ".join(map(str, camp.seeds)),
        "hosts": _distinct(rows["host"].replace("", None)),
    }
    counts = {s: int((rows["status"] == s).sum()) for s in ("ok", "failed", "missing")}
    command = run_command(record, out)
    return Section(
        camp,
        f"campaign-{name}",
        f"claims-{name}",
        command,
        counts,
        provenance,
        plots,
        claims,
        bool(record.get("quick")),
    )


def _failures(frame: pd.DataFrame, sections: list[Section]) -> list[dict[str, Any]]:
    failed = []
    for s in sections:
        rows = frame[(frame["campaign"] == s.campaign.name) & (frame["status"] == "failed")]
        for _, r in rows.iterrows():
            last = (str(r["stderr"]).strip().splitlines() or [""])[-1]
            failed.append(
                {
                    "campaign": s.campaign.name,
                    "point": {a.name: r[a.name] for a in s.campaign.axes},
                    "seed": r["seed"],
                    "returncode": r["returncode"],
                    "error": last,
                    "command": r["command"],
                }
            )
    return failed


def write_report(out: str | Path, title: str | None = None, ledger: Path | None = None) -> Path:
    """Writes DIR/report.html (and DIR/plots/*.png); returns the page's path. With `ledger`
    (a directory, docs/ledger/runs/ in the project), also writes there each campaign's claim
    summary (ledger.py), from which `mantra ledger` builds docs/claims.md."""
    out = Path(out)
    store = Store(out, create=False)
    try:
        records = store.campaigns()

        if not records:
            raise InputError(f"{out}: no campaign has run here")
        frame = store.frame()
        (out / "plots").mkdir(exist_ok=True)
        papers = paper_claims(ROOT)
        sections = [_section(store, frame, name, record, out, papers) for name, record in records.items()]
        sections.sort(key=lambda sec: (sec.campaign.report_order, sec.campaign.name))
        verdicts = Counter(c.verdict.verdict for s in sections for c in s.claims)
        env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
        page = env.from_string(TEMPLATE.read_text()).render(
            title=title or out.name,
            generated=time.strftime("%Y-%m-%d %H:%M"),
            sections=sections,
            # The comparison tables (`matrix` plots) first: the page's answer at a glance.
            glance=[(sec, p) for sec in sections for p in sec.plots if p.figure.kind == "matrix"],
            verdicts={v: verdicts[v] for v in VERDICTS},
            claim_count=sum(verdicts.values()),
            min_seeds=MIN_SEEDS,
            failed=_failures(frame, sections),
            image_count=sum(1 if p.png else len(p.pictures) for s in sections for p in s.plots),
        )
        path = out / "report.html"
        write_atomic(path, page, store.tmp)
        if ledger is not None:
            for sec in sections:
                write_summary(ledger, sec.campaign, [c.verdict for c in sec.claims], sec.quick, sec.provenance)
        return path
    finally:
        store.close()
