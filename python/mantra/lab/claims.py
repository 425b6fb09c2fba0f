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
- ratio_trend: the slope against `x` of the ratio `num`/`den` (each seed's mean at each value
  of `x`): "A's gain over B grows with speed", i.e. B is more sensitive to it than A;
- best: the transport (or any value of `axis`) `subject` against the best of the others, as a
  goal "the best of all, or within the interval of the best" reads: the best other is the value of
  `axis` whose mean of `by.metric` is highest (`by.direction: max`) or lowest (`min`; `by`
  defaults to `metric` and `direction`); the number is the subject's `metric` minus the best
  other's, per seed (paired), signed so that above 0 is better (`direction: max`: a higher
  `metric` is better, `min`: a lower one); the bound is minus the half-width of the best other's
  own 95 % interval: pass when the subject is within the best's interval or better, on the whole
  interval of the difference. The estimate names the best other;
- pick: one run chosen by rank, as a paper shows "a good case" of its 30 runs: among the
  seeds at `where`, the run at quantile `q` (0 the lowest, 1 the highest) of the metric `by`
  (default: `metric` itself); its `metric`, shown beside [min, max]. With `num` and `den`, the
  picked run's metric under `num` over the picked run's under `den` (each picked on its own).
  An order statistic has no interval and says nothing of how often such a run happens: it is
  reported, with the number of runs it was picked from, and gets no verdict.

Bounds are the paper's: `min`/`max` for a bound or range it states, or `target: X` for a
point number, checked within the band X ± 20 % of |X| (BAND, the one rule for every paper,
docs/lab.md); `holds: {min, max}` is the looser bound that says the paper's direction holds.

Verdict (VERDICTS): "too few runs" below MIN_SEEDS paired seeds; else pass when the whole
interval lies within the bounds, fail when it lies wholly outside them (partly when it still
lies wholly within `holds`: the direction holds, the number does not), inconclusive when it
straddles a bound. A pick has no verdict ("reported"): one run's value says nothing of how
often such a run happens.

A verdict carries the unit of its number (numbers.py): the metric's for value, difference, best
and pick, none for a ratio or a slope.
"""

from __future__ import annotations

import math
import re
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
from mantra.lab.numbers import PLAIN, Unit, interval, label, number

_BOUNDS = {"min", "max", "target", "holds"}
KINDS = {
    "value": ({"kind", "metric"}, {"where"} | _BOUNDS),
    "ratio": ({"kind", "metric", "num", "den"}, {"where", "den_metric"} | _BOUNDS),
    "difference": ({"kind", "metric", "num", "den"}, {"where"} | _BOUNDS),
    "trend": ({"kind", "metric", "x", "direction"}, {"where"}),
    "ratio_trend": ({"kind", "metric", "num", "den", "x", "direction"}, {"where"}),
    "pick": ({"kind", "metric", "q"}, {"where", "by", "num", "den"} | _BOUNDS),
    "best": ({"kind", "metric", "axis", "subject", "direction"}, {"where", "by"}),
}

# Fewer paired seeds than this give no pass or fail. The interval's width rests on the sample
# standard deviation, whose own relative error is about 1/sqrt(2(n-1)): 71 % at 2 seeds, 35 % at
# 5; and t(0.975, n-1) falls from 12.7 (2 seeds) to 2.78 (5). Verdicts of this project taken on
# 2 seeds flipped at 4-8 (issue 27); below 5 the report says "too few runs" instead.
MIN_SEEDS = 5
# A paper's point number X is met within X ± BAND·|X|: the one band for simulation noise, for
# every paper (docs/lab.md, "Claims").
BAND = 0.2
VERDICTS = ("pass", "partly", "fail", "inconclusive", "too few runs", "reported")
LEDGER_ID = re.compile(r"^[a-z0-9-]+/[a-z0-9-]+$")


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
    verdict: str  # one of VERDICTS
    picked: bool = False  # a pick claim: one run's value, no interval
    unit: Unit = PLAIN  # of mean, ci95 and bounds
    ledger: str = ""  # the paper claim it checks (PAPER/ID, docs/ledger/papers/)
    holds: tuple[float | None, float | None] = (None, None)  # the direction's bound

    def written(self) -> str:
        """Our number as the report and the ledger write it: a picked run's value alone, else
        the mean with its interval (numbers.py)."""
        return number(self.mean, self.unit) if self.picked else interval(self.mean, self.ci95, self.n, self.unit)


def check_claims(camp: Campaign) -> None:
    """Checks the claims' shape and that what they name exists (before any run)."""
    assert camp.doc is not None
    for i, entry in enumerate(camp.claims):
        place = ("claims", i)
        check_keys(camp, place, entry, {"claim", "paper", "check"}, {"source", "ledger"})
        if "ledger" in entry and not (isinstance(entry["ledger"], str) and LEDGER_ID.match(entry["ledger"])):
            raise camp.doc.error(
                place + ("ledger",), "PAPER/ID: the paper claim it checks (docs/ledger/papers/PAPER.yaml)"
            )
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
        if kind == "best":
            _check_best(camp, place + ("check",), check)
            continue
        if kind in ("trend", "ratio_trend"):
            check_axis(camp, place + ("check", "x"), check["x"], numeric=True)
            if check["direction"] not in ("falls", "rises"):
                raise camp.doc.error(place + ("check", "direction"), "falls or rises")
        _check_bounds(camp, place + ("check",), check)


def _check_best(camp: Campaign, place: tuple[Any, ...], check: dict[str, Any]) -> None:
    assert camp.doc is not None
    check_axis(camp, place + ("axis",), check["axis"])
    labels = camp.axis(check["axis"]).labels  # type: ignore[union-attr]
    if check["subject"] not in labels:
        raise camp.doc.error(place + ("subject",), f"{check['subject']!r} is not a value of axis {check['axis']}")
    if len(labels) < 2:
        raise camp.doc.error(place + ("axis",), "needs a value besides the subject to compare with")
    if check["direction"] not in ("max", "min"):
        raise camp.doc.error(place + ("direction",), "max (a higher metric is better) or min")
    if check["axis"] in check.get("where", {}):
        raise camp.doc.error(place + ("where",), f"selects on axis {check['axis']}, which the check compares across")
    if "by" in check:
        by = check["by"]
        if not isinstance(by, dict) or set(by) != {"metric", "direction"}:
            raise camp.doc.error(place + ("by",), "{metric, direction}: what makes the best other best")
        check_metric(camp, place + ("by", "metric"), by["metric"])
        if by["direction"] not in ("max", "min"):
            raise camp.doc.error(place + ("by", "direction"), "max or min")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _check_bounds(camp: Campaign, place: tuple[Any, ...], check: dict[str, Any]) -> None:
    assert camp.doc is not None
    for key in ("min", "max", "target"):
        if key in check and not _is_number(check[key]):
            raise camp.doc.error(place + (key,), "a number")
    if "target" in check:
        if "min" in check or "max" in check:
            raise camp.doc.error(
                place + ("target",), "a target is the paper's point number: give it or min/max, not both"
            )
        if check["target"] == 0:
            raise camp.doc.error(place + ("target",), "0 has no relative band: give min/max")
    elif check["kind"] not in ("trend", "ratio_trend") and "min" not in check and "max" not in check:
        raise camp.doc.error(place, "give min, max, both, or target")
    if "holds" in check:
        holds = check["holds"]
        if not isinstance(holds, dict) or not holds or set(holds) - {"min", "max"}:
            raise camp.doc.error(
                place + ("holds",), "a mapping of min and/or max: the bound that says the direction holds"
            )
        for key, value in holds.items():
            if not _is_number(value):
                raise camp.doc.error(place + ("holds", key), "a number")


def claim_metrics(check: dict[str, Any]) -> set[str]:
    """The metrics a claim's number is made of."""
    by = check.get("by")
    return {
        check["metric"],
        *([check["den_metric"]] if "den_metric" in check else []),
        *([by["metric"]] if isinstance(by, dict) else []),
    }


def claim_selections(check: dict[str, Any]) -> list[dict[str, Any]]:
    """The grid selections (axis -> value or list) a claim's number is drawn from: `where`,
    combined with `num` and with `den` when it has them."""
    where = check.get("where", {})
    return [{**where, **check[k]} for k in ("num", "den") if k in check] or [where]


def _unit(camp: Campaign, check: dict[str, Any]) -> Unit:
    """A ratio of two means, and a slope (the metric per unit of an axis), are written bare; a
    value, a difference and a picked run have their metric's unit."""
    if check["kind"] in ("ratio", "trend", "ratio_trend") or (check["kind"] == "pick" and "num" in check):
        return PLAIN
    return metric_unit(camp, check["metric"])


def _bounds(check: dict[str, Any]) -> tuple[float | None, float | None]:
    if check["kind"] == "best":  # set from the runs (evaluate)
        return (0.0, None)
    if check["kind"] in ("trend", "ratio_trend"):
        return (0.0, None) if check["direction"] == "rises" else (None, 0.0)
    if "target" in check:
        x = float(check["target"])
        return x - BAND * abs(x), x + BAND * abs(x)
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
        if check["kind"] == "ratio_trend":
            num = select(group, check["num"]).groupby(x)[metric].mean()
            den = select(group, check["den"]).groupby(x)[metric].mean()
            points = (num / den.where(den != 0)).dropna()
        else:
            points = group.groupby(x)[metric].mean().dropna()
        if len(points) >= 2:
            slopes[seed] = float(np.polyfit(points.index.astype(float), points.to_numpy(float), 1)[0])
    if check["kind"] == "ratio_trend":
        return pd.Series(slopes, dtype=float), f"slope of {metric} ratio {_names(check, '/')} per unit of {x}"
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


def _best(frame: pd.DataFrame, check: dict[str, Any]) -> tuple[pd.Series, float, str]:
    """A best claim's per-seed differences (above 0: the subject is better), the half-width of the
    best other's own interval, and the estimate's label, which names the best other."""
    metric, axis, subject = check["metric"], check["axis"], check["subject"]
    by = check.get("by", {"metric": metric, "direction": check["direction"]})
    rows = select(frame, check.get("where"))
    subject_seeds = set(per_seed(select(rows, {axis: subject}), metric).dropna().index)
    means = {}
    for value, group in rows.groupby(axis):
        seeds = per_seed(group, by["metric"]).dropna()
        # A reference needs enough seeds paired with the subject's: a value with a run or two
        # could be "best" on a lucky mean and leave the claim with too few runs.
        if value != subject and len(subject_seeds & set(seeds.index)) >= MIN_SEEDS:
            means[value] = float(seeds.mean())
    if not means:
        return pd.Series(dtype=float), math.nan, f"{metric}: {subject} against no other {axis}"
    best = (max if by["direction"] == "max" else min)(means, key=lambda v: means[v])
    num, den = _paired(rows, {"num": {axis: subject}, "den": {axis: best}, "metric": metric}, metric)
    sign = 1.0 if check["direction"] == "max" else -1.0
    _, best_half, _ = t_interval(per_seed(select(rows, {axis: best}), metric).to_numpy())
    return sign * (num - den), best_half, f"{metric}: {subject} against the best other {axis}, {best}"


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


def judge(
    mean: float,
    half: float,
    n: int,
    bounds: tuple[float | None, float | None],
    holds: tuple[float | None, float | None] = (None, None),
) -> str:
    """The verdict of a mean and its 95 % half-width over n paired seeds (VERDICTS)."""
    if n < MIN_SEEDS or not math.isfinite(half):
        return "too few runs"
    verdict = _against(mean, half, bounds)
    if verdict == "fail" and holds != (None, None) and _against(mean, half, holds) == "pass":
        return "partly"
    return verdict


def _against(mean: float, half: float, bounds: tuple[float | None, float | None]) -> str:
    lo, hi = bounds
    low, high = mean - half, mean + half
    inside = (lo is None or low >= lo) and (hi is None or high <= hi)
    outside = (lo is not None and high < lo) or (hi is not None and low > hi)
    return "pass" if inside else "fail" if outside else "inconclusive"


def evaluate(frame: pd.DataFrame, camp: Campaign) -> list[Verdict]:
    """`frame`: the campaign's finished runs with metric columns (analysis.campaign_frame)."""
    out = []
    for entry in camp.claims:
        check = entry["check"]
        bounds = _bounds(check)
        if check["kind"] == "pick":
            mean, n, estimate = _picked(frame, check)
            half = 0.0 if math.isfinite(mean) else math.nan
        elif check["kind"] == "best":
            samples, best_half, estimate = _best(frame, check)
            mean, half, n = t_interval(samples.to_numpy())
            # The reference's half-width, to the two digits an interval is written with.
            bounds = (-float(f"{best_half:.2g}") if math.isfinite(best_half) else 0.0, None)
        else:
            samples, estimate = _samples(frame, check)
            mean, half, n = t_interval(samples.to_numpy())
        holds = (check.get("holds", {}).get("min"), check.get("holds", {}).get("max"))
        picked = check["kind"] == "pick"
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
                "reported" if picked else judge(mean, half, n, bounds, holds),
                picked,
                _unit(camp, check),
                str(entry.get("ledger", "")),
                holds,
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
