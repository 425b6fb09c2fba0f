"""Aggregation across seeds: means with Student-t 95 % intervals, and the checks that
plots and claims share (metrics, axes and `where` filters that must exist)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from mantra.errors import InputError
from mantra.lab.campaign import Campaign
from mantra.lab.numbers import Unit, unit_of


def t_interval(values: Any) -> tuple[float, float, int]:
    """(mean, half-width of the Student-t 95 % interval, n) of the finite values; the
    half-width is NaN below two values, the mean NaN with none."""
    x = np.asarray([v for v in values if v is not None and np.isfinite(v)], dtype=float)
    n = len(x)
    if n == 0:
        return math.nan, math.nan, 0
    if n == 1:
        return float(x[0]), math.nan, 1
    if np.ptp(x) == 0:  # the same value at every seed: exactly it, no spread (not float noise)
        return float(x[0]), 0.0, n
    half = stats.t.ppf(0.975, n - 1) * x.std(ddof=1) / math.sqrt(n)
    return float(x.mean()), float(half), n


def aggregate(frame: pd.DataFrame, metric: str, by: list[str]) -> pd.DataFrame:
    """Per combination of `by`: mean, ci95 (half-width) and n over the rows (seeds)."""
    rows = []
    for values, group in frame.groupby(by, sort=False, dropna=False):
        mean, half, n = t_interval(group[metric])
        rows.append(
            {
                **dict(zip(by, values if isinstance(values, tuple) else (values,), strict=True)),
                "mean": mean,
                "ci95": half,
                "n": n,
            }
        )
    return pd.DataFrame(rows, columns=[*by, "mean", "ci95", "n"])


def per_seed(frame: pd.DataFrame, metric: str) -> pd.Series:
    """The metric per seed, averaged over the other grid points left in `frame`."""
    return frame.groupby("seed")[metric].mean()


def select(frame: pd.DataFrame, where: dict[str, Any] | None) -> pd.DataFrame:
    """Rows at `where`: axis -> a value, or a list of values (any of them)."""
    for axis, value in (where or {}).items():
        frame = frame[frame[axis].isin(value)] if isinstance(value, list) else frame[frame[axis] == value]
    return frame


def campaign_frame(frame: pd.DataFrame, camp: Campaign) -> pd.DataFrame:
    """The campaign's finished runs, with its metrics as columns under their names."""
    rows = frame[(frame["campaign"] == camp.name) & (frame["status"] == "ok")].copy()
    for name, metric in camp.metrics.items():
        op, paths = _operation(metric)
        missing = [p for p in paths if p not in rows.columns]
        if missing:
            if rows.empty:
                rows[name] = pd.Series(dtype=float)
                continue
            raise InputError(f"{camp.source}: metrics.{name}: the results have no '{missing[0]}'")
        values = [pd.to_numeric(rows[p], errors="coerce") for p in paths]
        if op is None:
            rows[name] = values[0]
        elif op == "+":
            rows[name] = values[0] + values[1]
        else:
            den = values[1].where(values[1] != 0)  # a zero denominator gives no value, not infinity
            rows[name] = values[0] / den
    return rows


def _operation(metric: str) -> tuple[str | None, list[str]]:
    """A metric's operation (None: a path alone; "/": the ratio of two within each run; "+":
    their sum) and its paths."""
    for op in ("/", "+"):
        paths = metric.split(f" {op} ")
        if len(paths) == 2:
            return op, paths
    return None, [metric]


def metric_unit(camp: Campaign, name: str) -> Unit:
    """The unit of a campaign's metric: told by its name, else by its result path (or, for a
    sum `A + B`, by A's; a ratio `A / B` has none of its paths')."""
    op, paths = _operation(camp.metrics.get(name, ""))
    return unit_of(name, *([] if op == "/" else paths[:1]))


# -- checks shared by plots and claims ------------------------------------------------
def check_keys(camp: Campaign, place: tuple[Any, ...], entry: Any, required: set[str], optional: set[str]) -> None:
    assert camp.doc is not None
    if not isinstance(entry, dict):
        raise camp.doc.error(place, "must be a mapping")
    for key in entry:
        if key not in required | optional:
            raise camp.doc.error(place + (key,), f"unknown key (allowed: {', '.join(sorted(required | optional))})")
    for key in sorted(required):
        if key not in entry:
            raise camp.doc.error(place, f"missing key '{key}'")


def check_metric(camp: Campaign, place: tuple[Any, ...], name: Any) -> None:
    assert camp.doc is not None
    if name not in camp.metrics:
        raise camp.doc.error(
            place, f"names metric {name!r}, which the campaign's metrics do not have ({', '.join(camp.metrics)})"
        )


def check_axis(camp: Campaign, place: tuple[Any, ...], name: Any, numeric: bool = False) -> None:
    assert camp.doc is not None
    axis = camp.axis(name) if isinstance(name, str) else None
    if axis is None:
        raise camp.doc.error(
            place, f"names axis {name!r}, which the grid does not have ({', '.join(a.name for a in camp.axes)})"
        )
    if numeric and not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in axis.labels):
        raise camp.doc.error(place, f"axis {name} must have numeric values")


def check_where(camp: Campaign, place: tuple[Any, ...], where: Any) -> None:
    assert camp.doc is not None
    if not isinstance(where, dict):
        raise camp.doc.error(place, "must be a mapping of axis -> value (or list of values)")
    for name, value in where.items():
        check_axis(camp, place + (name,), name)
        values = value if isinstance(value, list) else [value]
        if not values:
            raise camp.doc.error(place + (name,), "an empty list selects nothing")
        for v in values:
            if v not in camp.axis(name).labels:  # type: ignore[union-attr]
                raise camp.doc.error(place + (name,), f"{v!r} is not a value of the axis")
