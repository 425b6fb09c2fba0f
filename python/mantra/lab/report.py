"""report.html: one self-contained page for the campaigns of a results directory.

It holds, in order: the claims table (each claim in the paper's words, the paper's number,
ours with its 95 % interval, the verdict and the command that reproduces it), then per
campaign its runs and provenance and each figure with the table of its numbers, then the
failed runs with the command that reproduces each. Plots are embedded PNGs (also written
to DIR/plots/). A small script at the end counts the plots and tables the browser drew.
"""

from __future__ import annotations

import base64
import shlex
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import pandas as pd
import yaml

from mantra.errors import InputError
from mantra.lab.analysis import campaign_frame, format_interval
from mantra.lab.campaign import Campaign
from mantra.lab.claims import evaluate, format_bounds
from mantra.lab.load import build_campaign
from mantra.lab.located_yaml import Located
from mantra.lab.plots import Figure, draw
from mantra.lab.store import Store, write_atomic

TEMPLATE = Path(__file__).with_name("report.html.j2")


@dataclass
class Section:
    campaign: Campaign
    command: str
    counts: dict[str, int]
    provenance: dict[str, str]
    figures: list[tuple[Figure, str, str]]  # figure, base64 PNG, table HTML


def campaign_from_record(record: dict[str, Any]) -> Campaign:
    """The campaign as it was run, from the results directory's copy."""
    definition = yaml.safe_load(record["definition_yaml"])
    return build_campaign(Located(Path(record["source"]), definition, {}), quick=record["quick"])


def run_command(record: dict[str, Any], out: Path) -> str:
    quick = " --quick" if record["quick"] else ""
    return f"./mantra run {shlex.quote(record['source'])}{quick} --out {shlex.quote(str(out))}"


def _distinct(values: pd.Series) -> str:
    found = sorted({str(v) for v in values.dropna()})
    return ", ".join(found) if found else "-"


def _table_html(table: pd.DataFrame) -> str:
    return table.to_html(index=False, border=0, classes="numbers", na_rep="-", escape=True)


def write_report(out: str | Path, title: str | None = None) -> Path:
    """Writes DIR/report.html (and DIR/plots/*.png); returns the page's path."""
    out = Path(out)
    store = Store(out, create=False)
    try:
        records = store.campaigns()
        if not records:
            raise InputError(f"{out}: no campaign has run here")
        frame = store.frame()
        sections, verdicts, failed = [], [], []
        (out / "plots").mkdir(exist_ok=True)
        for name, record in records.items():
            camp = campaign_from_record(record)
            rows = frame[frame["campaign"] == name]
            done = campaign_frame(frame, camp)
            counts = {s: int((rows["status"] == s).sum()) for s in ("ok", "failed", "missing")}
            command = run_command(record, out)
            figures = []
            for i, fig in enumerate(draw(camp, done, store.result)):
                (out / "plots" / f"{name}-{i + 1}-{fig.kind}.png").write_bytes(fig.png)
                figures.append((fig, base64.b64encode(fig.png).decode(), _table_html(fig.table)))
            provenance = {
                "commit": _distinct(rows["commit"]),
                "ns-3": _distinct(rows["ns3_version"]),
                "build": record["build"],
                "seeds": ", ".join(map(str, camp.seeds)),
                "hosts": _distinct(rows["host"].replace("", None)),
            }
            sections.append(Section(camp, command, counts, provenance, figures))
            verdicts += [(v, command) for v in evaluate(done, camp)]
            for _, r in rows[rows["status"] == "failed"].iterrows():
                point = {a.name: r[a.name] for a in camp.axes}
                last = (str(r["stderr"]).strip().splitlines() or [""])[-1]
                failed.append(
                    {
                        "campaign": name,
                        "point": point,
                        "seed": r["seed"],
                        "returncode": r["returncode"],
                        "error": last,
                        "command": r["command"],
                    }
                )
        env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
        page = env.from_string(TEMPLATE.read_text()).render(
            title=title or out.name,
            generated=time.strftime("%Y-%m-%d %H:%M"),
            sections=sections,
            verdicts=verdicts,
            failed=failed,
            interval=format_interval,
            bounds=format_bounds,
            figure_count=sum(len(s.figures) for s in sections),
        )
        path = out / "report.html"
        write_atomic(path, page, store.tmp)
        return path
    finally:
        store.close()
