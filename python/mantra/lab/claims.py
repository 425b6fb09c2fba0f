"""A paper's claims, checked against a campaign's runs.

    claims:
      - claim: "TFRC is fair to TCP"          # the paper's words
        source: "Sec. 5, Fig. 3"              # where the paper says it (optional)
        paper: "ratio about 1"                # the paper's number, as the paper gives it
        check: {kind: ratio, metric: throughput_kbps, num: {protocol: tfrc},
                den: {protocol: tcp}, min: 0.5, max: 2}

Each check turns the runs into one number per seed, so the interval is a Student-t
95 % interval over seeds (a paired comparison, since every grid point runs on the same
seeds):

- value: the metric at `where` (averaged over the grid points it leaves), in [min, max];
- ratio: mean over `where` + `num`, divided by the mean over `where` + `den`, in [min, max];
  with `den_metric`, the denominator is that metric instead (two metrics of the same runs,
  e.g. two detectors scored on the same losses; `num` and `den` may then be `{}`);
- difference: mean over `where` + `num` minus the mean over `where` + `den`, per seed, in the
  metric's unit, in [min, max] (a gain in dB, a change in seconds);
- trend: the least-squares slope of the metric against the numeric axis `x` at `where`,
  `direction: falls` (slope < 0) or `rises` (slope > 0);
- pick: one run chosen by rank, as a paper shows "a good case" of its 30 runs: among the
  seeds at `where`, the run at quantile `q` (0 the lowest, 1 the highest) of the metric `by`
  (default: `metric` itself); its `metric`, in [min, max]. With `num` and `den`, the picked
  run's metric under `num` over the picked run's under `den` (each picked on its own). An
  order statistic has no interval: the verdict is the value against the bounds, over the
  number of runs it was picked from (at least two).

Verdict: pass when the whole interval lies within the bounds, fail when it lies wholly
outside, inconclusive when it straddles a bound or fewer than two seeds finished.

A verdict carries the unit of its number (numbers.py): the metric's for value, trend and pick,
none for a ratio.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from mantra.lab.analysis import (
    check_axis,
    check_keys,
    check_metric,
    check_where,
    metric_unit,
    per_seed,
    select,
    t_interval,
)
from mantra.lab.campaign import Campaign
from mantra.lab.numbers import PLAIN, Unit, label

KINDS = {
    "value": ({"kind", "metric"}, {"where", "min", "max"}),
    "ratio": ({"kind", "metric", "num", "den"}, {"where", "den_metric", "min", "max"}),
    "difference": ({"kind", "metric", "num", "den"}, {"where", "min", "max"}),
    "trend": ({"kind", "metric", "x", "direction"}, {"where"}),
    "pick": ({"kind", "metric", "q"}, {"where", "by", "num", "den", "min", "max"}),
}


@dataclass
class Verdict:
    claim: str
    source: str
    paper: str
    campaign: str
    estimate: str  # what was measured, e.g. "ratio tfrc/tcp"
    mean: float
    ci95: float
    n: int
    bounds: tuple[float | None, float | None]
    verdict: str  # pass, fail, inconclusive
    picked: bool = False  # a pick claim: one run's value, no interval
    unit: Unit = PLAIN  # of mean, ci95 and bounds


def check_claims(camp: Campaign) -> None:
    """Checks the claims' shape and that what they name exists (before any run)."""
    assert camp.doc is not None
    for i, entry in enumerate(camp.claims):
        place = ("claims", i)
        check_keys(camp, place, entry, {"claim", "paper", "check"}, {"source"})
        check = entry["check"]
        kind = check.get("kind") if isinstance(check, dict) else None
        if kind not in KINDS:
            raise camp.doc.error(place + ("check", "kind"), f"one of {', '.join(KINDS)}")
        check_keys(camp, place + ("check",), check, *KINDS[kind])
        check_metric(camp, place + ("check", "metric"), check["metric"])
        if "den_metric" in check:
            check_metric(camp, place + ("check", "den_metric"), check["den_metric"])
        for key in ("where", "num", "den"):
            if key in check:
                check_where(camp, place + ("check", key), check[key])
        if kind == "pick":
            q = check["q"]
            if not isinstance(q, (int, float)) or isinstance(q, bool) or not 0 <= q <= 1:
                raise camp.doc.error(place + ("check", "q"), "a quantile in [0, 1] (0 the lowest run, 1 the highest)")
            if "by" in check:
                check_metric(camp, place + ("check", "by"), check["by"])
            if ("num" in check) != ("den" in check):
                raise camp.doc.error(place + ("check",), "give both num and den, or neither")
        if kind == "trend":
            check_axis(camp, place + ("check", "x"), check["x"], numeric=True)
            if check["direction"] not in ("falls", "rises"):
                raise camp.doc.error(place + ("check", "direction"), "falls or rises")
        for key in ("min", "max"):
            if key in check and (not isinstance(check[key], (int, float)) or isinstance(check[key], bool)):
                raise camp.doc.error(place + ("check", key), "a number")
        if kind != "trend" and "min" not in check and "max" not in check:
            raise camp.doc.error(place + ("check",), "give min, max or both")


def claim_metrics(check: dict[str, Any]) -> set[str]:
    """The metrics a claim's number is made of."""
    return {check["metric"], *([check["den_metric"]] if "den_metric" in check else [])}


def claim_selections(check: dict[str, Any]) -> list[dict[str, Any]]:
    """The grid selections (axis -> value or list) a claim's number is drawn from: `where`,
    combined with `num` and with `den` when it has them."""
    where = check.get("where", {})
    return [{**where, **check[k]} for k in ("num", "den") if k in check] or [where]


def _unit(camp: Campaign, check: dict[str, Any]) -> Unit:
    """A ratio of two means, and a slope (the metric per unit of an axis), are written bare; a
    value, a difference and a picked run have their metric's unit."""
    if check["kind"] in ("ratio", "trend") or (check["kind"] == "pick" and "num" in check):
        return PLAIN
    return metric_unit(camp, check["metric"])


def _bounds(check: dict[str, Any]) -> tuple[float | None, float | None]:
    if check["kind"] == "trend":
        return (0.0, None) if check["direction"] == "rises" else (None, 0.0)
    return check.get("min"), check.get("max")


def _samples(frame: pd.DataFrame, check: dict[str, Any]) -> tuple[pd.Series, str]:
    metric = check["metric"]
    rows = select(frame, check.get("where"))
    if check["kind"] == "value":
        return per_seed(rows, metric), metric
    if check["kind"] == "ratio":
        den_metric = check.get("den_metric", metric)
        num, den = _paired(rows, check, den_metric)
        ratio = num / den.where(den != 0)
        if den_metric != metric:
            return ratio, f"{metric} / {den_metric}"
        return ratio, f"{metric} ratio {_names(check, '/')}"
    if check["kind"] == "difference":
        num, den = _paired(rows, check, metric)
        return num - den, f"{metric} difference {_names(check, ' − ')}"
    x = check["x"]
    slopes = {}
    for seed, group in rows.groupby("seed"):
        points = group.groupby(x)[metric].mean().dropna()
        if len(points) >= 2:
            slopes[seed] = float(np.polyfit(points.index.astype(float), points.to_numpy(float), 1)[0])
    return pd.Series(slopes, dtype=float), f"slope of {metric} per unit of {x}"


def _paired(rows: pd.DataFrame, check: dict[str, Any], den_metric: str) -> tuple[pd.Series, pd.Series]:
    """The metric per seed under `num` and `den_metric` per seed under `den`, on the seeds both
    have (a paired comparison)."""
    num = per_seed(select(rows, check["num"]), check["metric"])
    den = per_seed(select(rows, check["den"]), den_metric)
    both = pd.concat([num, den], axis=1, join="inner").dropna()
    return both.iloc[:, 0], both.iloc[:, 1]


def _names(check: dict[str, Any], sep: str) -> str:
    """The values `num` and `den` select, as a label: "tfrc/tcp"."""
    return sep.join(",".join(f"{v}" for v in check[k].values()) for k in ("num", "den"))


def _pick(rows: pd.DataFrame, metric: str, by: str, q: float) -> tuple[float, int]:
    """`metric` of the run at quantile `q` of `by` among the seeds of `rows` (each seed's
    values averaged over the grid points `rows` leaves), and how many runs it was picked from."""
    columns = list(dict.fromkeys([metric, by]))
    runs = rows.groupby("seed")[columns].mean().dropna()
    if runs.empty:
        return math.nan, 0
    ranked = runs.sort_values(by, kind="stable")
    return float(ranked[metric].iloc[round(q * (len(ranked) - 1))]), len(ranked)


def _picked(frame: pd.DataFrame, check: dict[str, Any]) -> tuple[float, int, str]:
    metric, q = check["metric"], float(check["q"])
    by = check.get("by", metric)
    rows = select(frame, check.get("where"))
    label = f"{metric} of the run at q = {q:g} by {by}"
    if "num" not in check:
        value, n = _pick(rows, metric, by, q)
        return value, n, label
    num, n_num = _pick(select(rows, check["num"]), metric, by, q)
    den, n_den = _pick(select(rows, check["den"]), metric, by, q)
    ratio = num / den if den else math.nan
    return ratio, min(n_num, n_den), f"{label}, ratio {_names(check, '/')}"


def judge(mean: float, half: float, n: int, bounds: tuple[float | None, float | None]) -> str:
    lo, hi = bounds
    if n < 2 or not math.isfinite(half):
        return "inconclusive"
    low, high = mean - half, mean + half
    inside = (lo is None or low >= lo) and (hi is None or high <= hi)
    outside = (lo is not None and high < lo) or (hi is not None and low > hi)
    return "pass" if inside else "fail" if outside else "inconclusive"


def evaluate(frame: pd.DataFrame, camp: Campaign) -> list[Verdict]:
    """`frame`: the campaign's finished runs with metric columns (analysis.campaign_frame)."""
    out = []
    for entry in camp.claims:
        check = entry["check"]
        if check["kind"] == "pick":
            mean, n, estimate = _picked(frame, check)
            half = 0.0 if math.isfinite(mean) else math.nan
        else:
            samples, estimate = _samples(frame, check)
            mean, half, n = t_interval(samples.to_numpy())
        bounds = _bounds(check)
        out.append(
            Verdict(
                str(entry["claim"]),
                str(entry.get("source", "")),
                str(entry["paper"]),
                camp.name,
                estimate,
                mean,
                half,
                n,
                bounds,
                judge(mean, half, n, bounds),
                check["kind"] == "pick",
                _unit(camp, check),
            )
        )
    return out


def format_bounds(bounds: tuple[float | None, float | None], unit: Unit = PLAIN) -> str:
    lo, hi = bounds
    if lo is not None and hi is not None:
        bare = Unit(scale=unit.scale)
        return f"in [{label(lo, bare)}, {label(hi, bare)}]{unit.suffix}"
    if lo is not None:
        return f"≥ {label(lo, unit)}"
    return f"≤ {label(hi, unit)}" if hi is not None else "any value"
