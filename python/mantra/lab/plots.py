"""The plots of a campaign, drawn with matplotlib (Agg), each with the table of its numbers.

    plots:
      - {kind: sweep, metric: throughput_kbps, x: topology.hops, series: protocol}
      - {kind: timeseries, series: protocol, where: {topology.hops: 4}, seed: 1, flow: 0}
      - {kind: timeseries, series: receiver, seed: best, by: throughput_kbps, y: rsc_var.series.t_ack_ms}
      - {kind: ranked, metric: throughput_kbps, series: receiver}
      - {kind: cdf, series: protocol, where: {topology.hops: 4}, flow: 0}
      - {kind: scatter, x: delay_p95_ms, y: throughput_kbps, series: protocol}
      - {kind: bar, metric: ratio, x: protocol}
      - {kind: groups, groups: [tfwmfc, ecn_tcp], seed: 1}
      - {kind: settling, group: tfwmfc, spans: [{from: 10, to: 100, target: fair_kbps}]}
      - {kind: confusion, where: {case: congested, speed: [0, 10, 20]}, facet: speed, flow: 0, detector: multi}
      - {kind: pictures, maker: video-frames, options: {seed: 1}, metric: psnr_db}

- sweep: a metric against a swept axis, one line per series (optional), Student-t 95 % bars
  over seeds (the papers' main figure type);
- timeseries: receive throughput over time of flow `flow` in one run per series (seed `seed`,
  or `best`/`worst`: per series the run with the highest/lowest metric `by`, as a paper shows "a
  good case"); `y` plots another series of the flow instead: a dotted path to a list whose
  container also holds `t` (`rsc_var.series.t_ack_ms`);
- ranked: a metric per run, each series' runs sorted from the lowest (a paper's "average
  throughput of each simulation, sorted");
- cdf: the one-way delay distribution of flow `flow` per series, pooling the runs' percentiles
  (every seed weighs the same);
- scatter: Pantheon's throughput against 95th-percentile delay: each run a faint dot, each
  series its mean with 95 % bars; the delay axis is reversed so better is up and right;
- bar: a metric per value of an axis, with 95 % bars;
- matrix: a comparison table: a row per value of `series` (e.g. the transport), a column per
  value of `x` (e.g. the scenario), each cell the metric's mean with its 95 % interval;
  `metrics` adds further metrics, each its own columns; drawn as grouped
  bars of `metric` (the answer to "which one is best where");
- groups: each named flow group's mean receive rate per flow over time in one run (seed `seed`);
- settling: how the group's rate settles after each span's event towards the span's target (a
  campaign metric, per run): time to stay within ±`band` (0.1) and overshoot, of a moving mean
  over `smooth_s` (5 s); a table per grid point and span, 95 % intervals over seeds (settling.py);
- confusion: the loss-cause detector's confusion matrix of flow `flow` (0): the counts of
  `detection.confusion` (or of `detection.by_detector.<detector>`: multi, idd or stt) summed over
  every run `where` leaves (all seeds, the other axes pooled), one heat map per value of the axis
  `facet` (optional); rows the state identified, columns the oracle's true cause, each cell its
  count and its share of the column (of the losses truly caused by X, the share identified as Y);
- pictures: images made by the picture maker registered as `maker` (pictures.py), each with its
  caption, e.g. a video's decoded frames; `options` goes to the maker as written, `metric`
  (optional) names the campaign metric they are about, for the claims that link to them.

Every kind takes an optional `title` and `where` (axis -> value; all other axes averaged, or
pooled). The tables write their numbers with numbers.py: units from the metrics' names, digits
from the intervals.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure as MplFigure

from mantra.lab.analysis import (
    aggregate,
    check_axis,
    check_keys,
    check_metric,
    check_where,
    metric_unit,
    select,
    t_interval,
)
from mantra.lab.campaign import Campaign
from mantra.lab.numbers import KBPS, MS, PERCENT, SECONDS, Unit, interval, number, unit_of
from mantra.lab.pictures import Picture
from mantra.lab.settling import settling

# Reads one stored run's result by its key.
ResultLoader = Callable[[str], dict[str, Any]]
# Makes the pictures of plot i (its entry) from the runs at its `where` (the report's, pictures.py).
PictureSource = Callable[[int, dict[str, Any], pd.DataFrame], list[Picture]]

COMMON = {"kind", "title", "where"}
KINDS: dict[str, tuple[set[str], set[str]]] = {
    "sweep": ({"metric", "x"}, {"series"}),
    "timeseries": ({"series", "seed"}, {"flow", "by", "y"}),
    "ranked": ({"metric", "series"}, set()),
    "cdf": ({"series"}, {"flow"}),
    "scatter": ({"x", "y", "series"}, set()),
    "bar": ({"metric", "x"}, set()),
    "groups": ({"groups", "seed"}, set()),
    "settling": ({"group", "spans"}, {"band", "smooth_s"}),
    "confusion": (set(), {"flow", "detector", "facet"}),
    "pictures": ({"maker"}, {"options", "metric"}),
    "matrix": ({"metric", "x", "series"}, {"metrics"}),
}
# A flow's `detection` (docs/result-schema.md): the rules in `by_detector`, the states a
# receiver identifies (the confusion matrix's rows) and the oracle's causes (its columns).
DETECTORS = ("multi", "idd", "stt")
IDENTIFIED = ("cong", "rtchg", "cherr", "normal")
TRUE_CAUSES = ("cong", "cherr", "rtchg")


@dataclass
class Figure:
    title: str
    kind: str
    png: bytes | None  # None for pictures
    table: pd.DataFrame  # the numbers behind the plot, as shown under it
    pictures: list[Picture] = field(default_factory=list)


def shown_metrics(entry: dict[str, Any]) -> set[str]:
    """The campaign metrics a plot is about: those it shows as values, and the one that picks
    the runs of a best or worst case (timeseries `by`)."""
    keys = {"sweep": ("metric",), "ranked": ("metric",), "bar": ("metric",), "scatter": ("x", "y")}
    shown = {entry[k] for k in keys.get(entry["kind"], ("metric", "by")) if k in entry}
    return shown | set(entry.get("metrics", [])) if entry["kind"] == "matrix" else shown


def check_plots(camp: Campaign) -> None:
    assert camp.doc is not None
    for i, entry in enumerate(camp.plots):
        place = ("plots", i)
        kind = entry.get("kind") if isinstance(entry, dict) else None
        if kind not in KINDS:
            raise camp.doc.error(place + ("kind",), f"one of {', '.join(KINDS)}")
        required, optional = KINDS[kind]
        check_keys(camp, place, entry, required | {"kind"}, optional | COMMON)
        if "series" in entry:
            check_axis(camp, place + ("series",), entry["series"])
        check_where(camp, place + ("where",), entry.get("where", {}))
        if kind == "sweep":
            check_metric(camp, place + ("metric",), entry["metric"])
            check_axis(camp, place + ("x",), entry["x"], numeric=True)
        if kind in ("bar", "matrix"):
            check_metric(camp, place + ("metric",), entry["metric"])
            check_axis(camp, place + ("x",), entry["x"])
        if kind == "matrix":
            extra = entry.get("metrics", [])
            if not isinstance(extra, list):
                raise camp.doc.error(place + ("metrics",), "a list of campaign metrics")
            for j, name in enumerate(extra):
                check_metric(camp, place + ("metrics", j), name)
        if kind == "groups" and (
            not isinstance(entry["groups"], list)
            or not entry["groups"]
            or not all(isinstance(g, str) and g for g in entry["groups"])
        ):
            raise camp.doc.error(place + ("groups",), "a list of flow group names (a flow's `group`)")
        if kind == "settling":
            _check_settling(camp, place, entry)
        if kind == "scatter":
            check_metric(camp, place + ("x",), entry["x"])
            check_metric(camp, place + ("y",), entry["y"])
        if kind == "ranked":
            check_metric(camp, place + ("metric",), entry["metric"])
        if kind == "pictures":
            if not isinstance(entry["maker"], str) or not entry["maker"]:
                raise camp.doc.error(place + ("maker",), "the name of a registered picture maker")
            if not isinstance(entry.get("options", {}), dict):
                raise camp.doc.error(place + ("options",), "a mapping, given to the picture maker as written")
            if "metric" in entry:
                check_metric(camp, place + ("metric",), entry["metric"])
        if kind == "confusion":
            if "facet" in entry:
                check_axis(camp, place + ("facet",), entry["facet"])
            if "detector" in entry and entry["detector"] not in DETECTORS:
                raise camp.doc.error(
                    place + ("detector",),
                    f"{entry['detector']!r} is not a rule of by_detector ({', '.join(DETECTORS)})",
                )
        if kind == "timeseries" and entry["seed"] in PICKED:
            if "by" not in entry:
                raise camp.doc.error(place + ("by",), f"seed {entry['seed']} needs `by`: a metric ranking the runs")
            check_metric(camp, place + ("by",), entry["by"])
        elif "by" in entry:
            raise camp.doc.error(place + ("by",), "only with seed: best or worst")
        elif kind in ("timeseries", "groups") and entry["seed"] not in camp.seeds:
            raise camp.doc.error(place + ("seed",), f"seed {entry['seed']!r} is not one of the campaign's seeds")
        if kind == "timeseries" and "y" in entry and (not isinstance(entry["y"], str) or "." not in entry["y"]):
            raise camp.doc.error(place + ("y",), "a dotted path in a flow's result to a list beside a `t` list")
        flow = entry.get("flow", 0)
        if not isinstance(flow, int) or isinstance(flow, bool) or not 0 <= flow < len(camp.base.get("flows", [])):
            raise camp.doc.error(place + ("flow",), "the index of a flow of the base spec")


def _check_settling(camp: Campaign, place: tuple[Any, ...], entry: dict[str, Any]) -> None:
    assert camp.doc is not None
    if not isinstance(entry["group"], str) or not entry["group"]:
        raise camp.doc.error(place + ("group",), "a flow group name (a flow's `group`)")
    band = entry.get("band", 0.1)
    if not _number(band) or not 0 < band < 1:
        raise camp.doc.error(place + ("band",), "a fraction of the target in (0, 1)")
    smooth = entry.get("smooth_s", 5.0)
    if not _number(smooth) or not smooth > 0:
        raise camp.doc.error(place + ("smooth_s",), "a moving-mean width in seconds, above 0")
    spans = entry["spans"]
    if not isinstance(spans, list) or not spans:
        raise camp.doc.error(place + ("spans",), "a list of {from, to, target}: event time, span end, a metric")
    for j, span in enumerate(spans):
        where = place + ("spans", j)
        if not isinstance(span, dict) or set(span) != {"from", "to", "target"}:
            raise camp.doc.error(where, "a mapping of exactly from, to and target")
        if not (_number(span["from"]) and _number(span["to"]) and 0 <= span["from"] < span["to"]):
            raise camp.doc.error(where, "from and to: times in seconds, 0 <= from < to")
        if span["to"] - span["from"] < smooth:
            raise camp.doc.error(where, f"the span is shorter than the moving mean ({smooth:g} s)")
        check_metric(camp, where + ("target",), span["target"])


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _intervals(agg: pd.DataFrame, unit: Unit) -> list[str]:
    """Each row's mean with its 95 % interval (aggregate's columns), as the tables write it."""
    return [interval(m, h, n, unit) for m, h, n in zip(agg["mean"], agg["ci95"], agg["n"], strict=True)]


def _png(fig: MplFigure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def _axes(title: str, xlabel: str, ylabel: str) -> tuple[MplFigure, Axes]:
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    ax.set_title(title, fontsize=11)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    return fig, ax


def _groups(rows: pd.DataFrame, series: str, order: list[Any]) -> list[tuple[Any, str, pd.DataFrame]]:
    """(label, colour, rows) per series value, in the axis's order, one colour per value
    across all plots of a campaign."""
    return [
        (label, f"C{i}", rows[rows[series] == label]) for i, label in enumerate(order) if (rows[series] == label).any()
    ]


def _sweep(entry: dict[str, Any], rows: pd.DataFrame, load: ResultLoader) -> tuple[bytes, pd.DataFrame]:
    metric, x, series = entry["metric"], entry["x"], entry.get("series", "series")
    if series not in rows.columns:  # no series axis: one line
        rows = rows.assign(**{series: "all runs"})
        entry = {**entry, "order": ["all runs"]}
    agg = aggregate(rows, metric, [series, x]).sort_values(x, kind="stable")
    fig, ax = _axes(entry["title"], x, metric)
    for label, color, group in _groups(agg, series, entry["order"]):
        ax.errorbar(
            group[x], group["mean"], yerr=group["ci95"].fillna(0), marker="o", capsize=3, label=str(label), color=color
        )
    ax.legend(title=series)
    table = agg.assign(value=_intervals(agg, entry["units"][metric]))
    wide = table.pivot(index=x, columns=series, values="value")[[o for o in entry["order"] if o in set(table[series])]]
    wide = wide.reset_index()
    wide.columns.name = None
    return _png(fig), wide


PICKED = ("best", "worst")


def _run_of(group: pd.DataFrame, entry: dict[str, Any]) -> pd.Series | None:
    """The run a timeseries shows for one series: the first grid point left by `where` at
    `seed`, or the run with the highest (best) or lowest (worst) `by`; None if there is none."""
    if entry["seed"] in PICKED:
        candidates = group.dropna(subset=[entry["by"]]).sort_values(entry["by"], kind="stable")
        at = -1 if entry["seed"] == "best" else 0
    else:
        candidates, at = group[group["seed"] == entry["seed"]], 0
    if candidates.empty:
        return None
    run: pd.Series = candidates.iloc[at]
    return run


def _timeseries(entry: dict[str, Any], rows: pd.DataFrame, load: ResultLoader) -> tuple[bytes, pd.DataFrame]:
    series, flow = entry["series"], entry.get("flow", 0)
    *container, name = entry.get("y", "series.rx_kbps").split(".")
    fig, ax = _axes(entry["title"], "time (s)", f"flow {flow}: {name}")
    unit = unit_of(name)
    table = []
    for label, color, group in _groups(rows, series, entry["order"]):
        run = _run_of(group, entry)
        if run is None:
            continue
        s: Any = load(run["key"])["flows"][flow]
        for part in container:
            s = s.get(part, {}) if isinstance(s, dict) else {}
        t, y = s.get("t", []), s.get(name, [])
        ax.plot(t, y, label=str(label), linewidth=1.2, color=color)
        values = np.asarray(y, dtype=float)
        table.append(
            {
                series: label,
                "run": run["key"],
                "seed": run["seed"],
                f"mean {name}": number(values.mean(), unit) if len(values) else "no data",
                f"std {name}": number(values.std(), unit) if len(values) else "-",
            }
        )
    ax.legend(title=series)
    return _png(fig), pd.DataFrame(table)


def _ranked(entry: dict[str, Any], rows: pd.DataFrame, load: ResultLoader) -> tuple[bytes, pd.DataFrame]:
    """Each series' runs (one per seed, averaged over the grid points left) sorted by the metric."""
    metric, series = entry["metric"], entry["series"]
    fig, ax = _axes(entry["title"], "runs, sorted", metric)
    unit = entry["units"][metric]
    table = []
    for label, color, group in _groups(rows, series, entry["order"]):
        values = np.sort(group.groupby("seed")[metric].mean().dropna().to_numpy(float))
        if not values.size:
            continue
        ax.plot(range(1, values.size + 1), values, marker="o", markersize=3, label=str(label), color=color)
        q = np.percentile(values, [0, 25, 50, 75, 100])
        table.append(
            {
                series: label,
                "runs": values.size,
                **{
                    name: number(v, unit)
                    for name, v in zip(("lowest", "p25", "median", "p75", "highest"), q, strict=True)
                },
                "mean": number(values.mean(), unit),
            }
        )
    ax.legend(title=series)
    return _png(fig), pd.DataFrame(table)


def _cdf(entry: dict[str, Any], rows: pd.DataFrame, load: ResultLoader) -> tuple[bytes, pd.DataFrame]:
    series, flow = entry["series"], entry.get("flow", 0)
    fig, ax = _axes(entry["title"], f"flow {flow} one-way delay (ms)", "fraction of packets")
    table = []
    for label, color, group in _groups(rows, series, entry["order"]):
        pooled = np.concatenate(
            [np.asarray(load(k)["flows"][flow]["delay_cdf_ms"], dtype=float) for k in group["key"]] or [np.empty(0)]
        )
        if pooled.size:
            ax.ecdf(pooled, label=str(label), color=color)
        table.append(
            {
                series: label,
                "runs": len(group),
                **{f"p{q}": number(np.percentile(pooled, q), MS) if pooled.size else "no data" for q in (50, 95, 99)},
            }
        )
    ax.set_xscale("log")
    ax.legend(title=series)
    return _png(fig), pd.DataFrame(table)


def _scatter(entry: dict[str, Any], rows: pd.DataFrame, load: ResultLoader) -> tuple[bytes, pd.DataFrame]:
    x, y, series, units = entry["x"], entry["y"], entry["series"], entry["units"]
    fig, ax = _axes(entry["title"], f"{x} (reversed: lower is better)", y)
    table = []
    for label, color, group in _groups(rows, series, entry["order"]):
        ax.scatter(group[x], group[y], color=color, alpha=0.25, s=14)
        mx, hx, nx = t_interval(group[x])
        my, hy, ny = t_interval(group[y])
        ax.errorbar(
            [mx],
            [my],
            xerr=[np.nan_to_num(hx)],
            yerr=[np.nan_to_num(hy)],
            color=color,
            marker="o",
            markersize=8,
            capsize=3,
            label=str(label),
        )
        table.append({series: label, x: interval(mx, hx, nx, units[x]), y: interval(my, hy, ny, units[y])})
    ax.invert_xaxis()
    ax.legend(title=series)
    return _png(fig), pd.DataFrame(table)


def _bar(entry: dict[str, Any], rows: pd.DataFrame, load: ResultLoader) -> tuple[bytes, pd.DataFrame]:
    """A metric per value of a (labelled) axis, with 95 % intervals over the seeds."""
    metric, x = entry["metric"], entry["x"]
    agg = aggregate(rows, metric, [x])
    order = [o for o in entry["x_order"] if o in set(agg[x])]
    agg = agg.set_index(x).loc[order].reset_index()
    fig, ax = _axes(entry["title"], x, metric)
    ax.bar(
        range(len(agg)), agg["mean"], yerr=agg["ci95"].fillna(0), capsize=3, color=[f"C{i}" for i in range(len(agg))]
    )
    ax.set_xticks(range(len(agg)), [str(o) for o in agg[x]], rotation=30, ha="right")
    table = pd.DataFrame(
        {
            x: agg[x],
            metric: _intervals(agg, entry["units"][metric]),
        }
    )
    return _png(fig), table


def _matrix(entry: dict[str, Any], rows: pd.DataFrame, load: ResultLoader) -> tuple[bytes, pd.DataFrame]:
    """A row per series value, a column per x value and metric: mean ± 95 % interval over seeds;
    grouped bars of the first metric."""
    metric, x, series = entry["metric"], entry["x"], entry["series"]
    xs = [v for v in entry["x_order"] if (rows[x] == v).any()]
    names = [v for v in entry["order"] if (rows[series] == v).any()]
    table = pd.DataFrame({series: [str(n) for n in names]})
    for m in dict.fromkeys([metric, *entry.get("metrics", [])]):
        agg = aggregate(rows, m, [series, x])
        cells = agg.assign(text=_intervals(agg, entry["units"][m])).pivot(index=series, columns=x, values="text")
        cells = cells.reindex(index=names, columns=xs).fillna("no data")
        for xv in xs:
            table[f"{m} ({xv})"] = cells[xv].to_list()
    agg = aggregate(rows, metric, [series, x])
    means, halves = (
        agg.pivot(index=series, columns=x, values=v).reindex(index=names, columns=xs) for v in ("mean", "ci95")
    )
    fig, ax = _axes(entry["title"], x, metric)
    width = 0.8 / max(1, len(names))
    for k, name in enumerate(names):
        ax.bar(
            np.arange(len(xs)) - 0.4 + width * (k + 0.5),
            means.loc[name],
            width,
            yerr=halves.loc[name].fillna(0),
            capsize=2,
            color=f"C{k}",
            label=str(name),
        )
    ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    ax.legend(fontsize=7, ncol=2)
    return _png(fig), table


def _group_series(entry: dict[str, Any], rows: pd.DataFrame, load: ResultLoader) -> tuple[bytes, pd.DataFrame]:
    """The mean receive rate of each named flow group over time, in the first run of `seed`."""
    fig, ax = _axes(entry["title"], "time (s)", "mean receive rate per flow (kb/s)")
    table = []
    runs = rows[rows["seed"] == entry["seed"]]
    if not runs.empty:
        key = runs["key"].iloc[0]
        groups = load(key).get("groups", {})
        for i, name in enumerate(entry["groups"]):
            s = groups.get(name, {}).get("series", {"t": [], "rx_kbps": []})
            ax.plot(s["t"], s["rx_kbps"], label=name, linewidth=1.2, color=f"C{i}")
            rx = np.asarray(s["rx_kbps"], dtype=float)
            table.append(
                {"group": name, "run": key, "mean rate per flow": number(rx.mean(), KBPS) if len(rx) else "no data"}
            )
    ax.legend(title="group")
    return _png(fig), pd.DataFrame(table)


def _settling(entry: dict[str, Any], rows: pd.DataFrame, load: ResultLoader) -> tuple[bytes, pd.DataFrame]:
    """How a group's rate settles after each span's event (settling.py), per grid point
    with 95 % intervals over the seeds; the plot: the first grid point's runs, each span's
    rate over its target."""
    group, band, smooth_s = entry["group"], entry.get("band", 0.1), entry.get("smooth_s", 5.0)
    fig, ax = _axes(entry["title"], "time (s)", f"{group}: mean rate per flow / target (moving {smooth_s:g} s)")
    ax.axhspan(1 - band, 1 + band, color="0.85", label=f"target ± {band:.0%}")
    axes = [a for a in entry["axes"] if a in rows.columns]
    table = []
    first_point = None
    for point, runs in rows.groupby(axes, sort=False) if axes else [((), rows)]:
        point = point if isinstance(point, tuple) else (point,)
        first_point = point if first_point is None else first_point
        for span in entry["spans"]:
            settle, over = [], []
            for _, run in runs.iterrows():
                s = load(run["key"]).get("groups", {}).get(group, {}).get("series", {"t": [], "rx_kbps": []})
                target = float(run[span["target"]])
                try:
                    result = settling(s["t"], s["rx_kbps"], span["from"], span["to"], target, band, smooth_s)
                except ValueError:  # the group did not run in the span, or the target is not a rate
                    continue
                settle.append(np.nan if result.settle_s is None else result.settle_s)
                over.append(result.overshoot)
                if point == first_point:
                    t = np.asarray(s["t"], dtype=float)
                    y = np.asarray(s["rx_kbps"], dtype=float)
                    inside = (t > span["from"]) & (t <= span["to"])
                    ax.plot(t[inside], y[inside] / target, linewidth=0.8, color="C0", alpha=0.7)
            settled = [v for v in settle if np.isfinite(v)]
            table.append(
                {
                    **dict(zip(axes, point, strict=True)),
                    "span (s)": f"{span['from']:g}-{span['to']:g}",
                    "target": span["target"],
                    "settled runs": f"{len(settled)}/{len(settle)} (of {len(runs)})",
                    "settle time": interval(*t_interval(settled), SECONDS) if settled else "never",
                    "overshoot": interval(*t_interval(over), PERCENT) if over else "no data",
                }
            )
    ax.legend()
    return _png(fig), pd.DataFrame(table)


@dataclass
class Confusion:
    """A loss-cause detector's confusion matrix: identified state -> true cause -> losses,
    summed over `runs` runs; `without`: runs whose flow has no `detection` (its receiver
    does not identify loss causes)."""

    counts: dict[str, dict[str, int]] = field(
        default_factory=lambda: {state: dict.fromkeys(TRUE_CAUSES, 0) for state in IDENTIFIED}
    )
    runs: int = 0
    without: int = 0

    def add(self, cells: dict[str, dict[str, int]]) -> None:
        for state, row in cells.items():
            mine = self.counts.setdefault(state, dict.fromkeys(TRUE_CAUSES, 0))
            for cause, n in row.items():
                mine[cause] = mine.get(cause, 0) + int(n)

    @property
    def identified(self) -> list[str]:
        return list(self.counts)

    @property
    def causes(self) -> list[str]:
        return list(dict.fromkeys(cause for row in self.counts.values() for cause in row))

    def total(self, cause: str) -> int:
        """The losses truly caused by `cause`: its column's sum."""
        return sum(row.get(cause, 0) for row in self.counts.values())

    @property
    def counted(self) -> str:
        """The runs summed, and those without `detection`, as the plot and table say it."""
        return f"{self.runs} runs" + (f", {self.without} without detection" if self.without else "")

    def share(self, state: str, cause: str) -> float:
        """Of the losses truly caused by `cause`, the share identified as `state`; NaN without any."""
        total = self.total(cause)
        return self.counts[state].get(cause, 0) / total if total else math.nan


def confusion_matrices(
    results: Iterable[tuple[Any, dict[str, Any]]], flow: int = 0, detector: str | None = None
) -> dict[Any, Confusion]:
    """Per facet value (in the order first met), the confusion counts of flow `flow` summed
    over (facet value, run result) pairs: of `detection.by_detector[detector]`, or without a
    detector of the flow's own `detection` (the rule its receiver acted on). A run whose flow
    has a `detection` but no entry for the detector declared no loss (by_detector lists the
    rules that judged one): it counts, with nothing to add."""
    out: dict[Any, Confusion] = {}
    for value, result in results:
        matrix = out.setdefault(value, Confusion())
        flows = result.get("flows", [])
        detection = flows[flow].get("detection") if flow < len(flows) else None
        if detection is None:
            matrix.without += 1
            continue
        matrix.runs += 1
        block = detection if detector is None else detection.get("by_detector", {}).get(detector, {})
        matrix.add(block.get("confusion", {}))
    return out


def confusion_table(matrices: dict[Any, Confusion], facet: str | None) -> pd.DataFrame:
    """The matrices' numbers as the report shows them: per facet value a row per identified
    state, each true cause's cell "count (share of the column)", then the column totals."""
    causes = list(dict.fromkeys(c for m in matrices.values() for c in m.causes)) or list(TRUE_CAUSES)
    table = []
    for value, m in matrices.items():
        at = {facet: value} if facet else {}
        for state in m.identified:
            cells = {
                f"true {c}": f"{number(m.counts[state].get(c, 0))} ({number(m.share(state, c), PERCENT)})"
                for c in m.causes
            }
            table.append({**at, "identified": state, **cells})
        table.append(
            {**at, "identified": "total", **{f"true {c}": number(m.total(c)) for c in m.causes}, "runs": m.counted}
        )
    columns = [*([facet] if facet else []), "identified", *(f"true {c}" for c in causes), "runs"]
    return pd.DataFrame(table, columns=columns)


def _confusion(entry: dict[str, Any], rows: pd.DataFrame, load: ResultLoader) -> tuple[bytes, pd.DataFrame]:
    """The detector's confusion matrices (confusion_matrices), a heat map per value of
    `facet` in the axis's order: each cell its count and its share of the true cause's
    column, coloured by the share."""
    facet, flow, detector = entry.get("facet"), entry.get("flow", 0), entry.get("detector")
    if facet is None or facet not in rows.columns:
        values: list[Any] = [None] if facet is None else []
    else:
        values = [v for v in entry["facet_order"] if (rows[facet] == v).any()]

    def runs() -> Iterator[tuple[Any, dict[str, Any]]]:
        for value in values:
            for key in rows["key"] if facet is None else rows.loc[rows[facet] == value, "key"]:
                yield value, load(key)

    matrices = confusion_matrices(runs(), flow, detector)
    ncols = min(max(len(matrices), 1), 3)
    nrows = math.ceil(max(len(matrices), 1) / ncols)
    fig, grid = plt.subplots(
        nrows, ncols, figsize=(3.4 * ncols + 1.2, 3.2 * nrows + 0.6), squeeze=False, layout="constrained"
    )
    fig.suptitle(entry["title"], fontsize=11)
    panels = list(grid.flat)
    for ax in panels[len(matrices) :]:
        ax.set_axis_off()
    if not matrices:
        panels[0].text(0.5, 0.5, "no finished runs", ha="center", va="center", transform=panels[0].transAxes)
    image = None
    for k, (ax, (value, m)) in enumerate(zip(panels, matrices.items(), strict=False)):
        states, causes = m.identified, m.causes
        shares = np.array([[m.share(s, c) for c in causes] for s in states], dtype=float)
        image = ax.imshow(np.nan_to_num(shares), cmap="Blues", vmin=0, vmax=1, aspect="auto")
        for i, state in enumerate(states):
            for j, cause in enumerate(causes):
                text = f"{number(m.counts[state].get(cause, 0))}\n{number(shares[i, j], PERCENT)}"
                color = "white" if shares[i, j] > 0.6 else "black"
                ax.text(j, i, text, ha="center", va="center", fontsize=8, color=color)
        ax.set_xticks(range(len(causes)), [f"{c}\n({m.total(c)})" for c in causes])
        ax.set_yticks(range(len(states)), states)
        ax.set_xlabel("true cause (oracle), losses")
        if k % ncols == 0:
            ax.set_ylabel(f"identified ({detector or 'rule acted on'})")
        ax.set_title(f"{facet} = {value}: {m.counted}" if facet else m.counted, fontsize=9)
    if image is not None:
        fig.colorbar(image, ax=panels, label="share of the true cause's losses", shrink=0.8)
    return _png(fig), confusion_table(matrices, facet)


DRAW = {
    "sweep": _sweep,
    "timeseries": _timeseries,
    "ranked": _ranked,
    "cdf": _cdf,
    "scatter": _scatter,
    "bar": _bar,
    "matrix": _matrix,
    "groups": _group_series,
    "settling": _settling,
    "confusion": _confusion,
}


def draw(
    camp: Campaign, frame: pd.DataFrame, load: ResultLoader, pictures: PictureSource | None = None
) -> list[Figure]:
    """The campaign's plots, in order. `frame`: its finished runs (analysis.campaign_frame);
    `load(key)` reads a run's full result; `pictures` makes the pictures of a `pictures` plot
    (the report's; needed only if the campaign has one)."""
    units = {name: metric_unit(camp, name) for name in camp.metrics}
    figures = []
    for i, entry in enumerate(camp.plots):
        title = entry.get("title") or f"{camp.title}: {entry['kind']} {i + 1}"
        rows = select(frame, entry.get("where"))
        if entry["kind"] == "pictures":
            if pictures is None:
                raise ValueError(f"{camp.name}: plot {i + 1} shows pictures: draw() needs a picture source")
            figures.append(Figure(title, "pictures", None, pd.DataFrame(), pictures(i, entry, rows)))
            continue
        series = camp.axis(entry.get("series", ""))
        order = series.labels if series is not None else []
        x_axis = camp.axis(entry["x"]) if entry["kind"] in ("bar", "matrix") else None
        x_order = x_axis.labels if x_axis is not None else []
        facet = camp.axis(entry.get("facet", ""))
        facet_order = facet.labels if facet is not None else []
        axes = [a.name for a in camp.axes]
        png, table = DRAW[entry["kind"]](
            {
                **entry,
                "title": title,
                "order": order,
                "x_order": x_order,
                "facet_order": facet_order,
                "axes": axes,
                "units": units,
            },
            rows,
            load,
        )
        figures.append(Figure(title, entry["kind"], png, table))
    return figures
