"""Campaigns: a base run spec, a grid of overrides, seeds, metrics, plots and claims.

A campaign file is checked whole before anything runs; every error names the file, the
line and the key. `expand` turns a campaign into jobs (grid point x seed), each a full
run spec. Every grid point runs on the same seeds, so protocols compared in one campaign
see the same mobility and traffic (a paired design).

    campaign: demo-chain              # name: letters, digits, '-', '_'
    title: Throughput along a chain
    base: {duration: 60, ...}         # a run spec, or a path relative to this file
    grid:                             # the product of its entries
      protocol:                       #   a labelled axis: label -> overrides
        tfrc: {flows.0.protocol: tfrc}
        tcp:  {flows.0.protocol: tcp}
      topology.hops: [1, 2, 4, 8]     #   a plain axis: a dotted key and its values
      zip:                            #   axes that move together, equal lengths
        - {duration: [50, 80], flows.0.stop: [50, 80]}
    seeds: [1, 2, 3]                  # or a count: 5 means 1..5
    metrics: {throughput_kbps: flows.0.throughput_kbps}
    plots: [...]                      # see plots.py
    claims: [...]                     # see claims.py
    quick: {seeds: [1, 2], set: {duration: 30}, grid: {topology.hops: [1, 8]}}
"""

from __future__ import annotations

import copy
import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mantra.errors import InputError, SpecKeyError
from mantra.lab.located_yaml import Located
from mantra.spec import KeyPathError, load_spec, resolve_all, set_dotted, with_media

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
# A metric: a dotted path into a result, "A / B", the ratio of two within each run, or "A + B",
# their sum (the aggregate of two flows).
_DOTTED = r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*"
METRIC_PATH = re.compile(rf"^{_DOTTED}(?: [/+] {_DOTTED})?$")

TOP_KEYS = {
    "campaign",
    "title",
    "description",
    "base",
    "grid",
    "seeds",
    "metrics",
    "plots",
    "claims",
    "quick",
    "report_order",
}
# Where a campaign comes in a report of several (its sections and its tables at a glance): lower
# first, then by name.
DEFAULT_REPORT_ORDER = 100
QUICK_KEYS = {"seeds", "set", "grid"}
# Columns of the run index; a grid axis may not take one of these names.
RESERVED = {
    "campaign",
    "key",
    "seed",
    "status",
    "build",
    "commit",
    "ns3_version",
    "sim_wall_s",
    "host",
    "returncode",
    "stderr",
    "command",
}


@dataclass
class Axis:
    """One grid dimension: its name and, per value, the label and the overrides it applies."""

    name: str
    labels: list[Any]
    overrides: list[dict[str, Any]]
    place: tuple[Any, ...]  # where it is written, for errors
    labelled: bool = False

    def origin(self, i: int, key: str) -> tuple[Any, ...]:
        """Where the override of `key` by value i is written."""
        return self.place + (self.labels[i], key) if self.labelled else self.place


@dataclass
class Campaign:
    name: str
    title: str
    description: str
    source: Path
    base: dict[str, Any]
    groups: list[list[Axis]]  # product over groups; the axes of a group move together
    seeds: list[int]
    metrics: dict[str, str]  # name -> dotted path into a result
    plots: list[dict[str, Any]]
    claims: list[dict[str, Any]]
    quick: bool = False
    report_order: int = DEFAULT_REPORT_ORDER
    seeds_of_profile: int = 0  # when only the first seeds of the profile run (--seeds N): how many it has
    doc: Located | None = field(default=None, repr=False)
    base_as_written: dict[str, Any] = field(default_factory=dict, repr=False)  # before any quick 'set'

    @property
    def axes(self) -> list[Axis]:
        return [axis for group in self.groups for axis in group]

    def axis(self, name: str) -> Axis | None:
        return next((a for a in self.axes if a.name == name), None)


@dataclass
class Job:
    """One run: a grid point (axis name -> label), a seed and the full spec."""

    campaign: str
    point: dict[str, Any]
    seed: int
    spec: dict[str, Any]


def set_key(spec: dict[str, Any], dotted: str, value: Any) -> str | None:
    """Sets a dotted key in place (every section above it must exist; spec.set_dotted);
    returns why it cannot, or None."""
    try:
        set_dotted(spec, dotted.split("."), value, create_sections=False)
    except KeyPathError as e:
        return str(e)
    return None


def _mapping(doc: Located, place: tuple[Any, ...], value: Any, what: str) -> dict[Any, Any]:
    if not isinstance(value, dict):
        raise doc.error(place, f"must be a mapping ({what})")
    return value


def _axis(doc: Located, place: tuple[Any, ...], name: Any, values: Any, base: dict[str, Any]) -> Axis:
    if not isinstance(name, str) or not name:
        raise doc.error(place, "an axis name must be a non-empty string")
    if isinstance(values, list):  # plain axis: the name is the dotted key
        if not values:
            raise doc.error(place, "empty list of values")
        if (why := _check_settable(base, name)) is not None:
            raise doc.error(place, why)
        if len(set(map(repr, values))) != len(values):
            raise doc.error(place, "repeated value")
        return Axis(name, list(values), [{name: v} for v in values], place)
    if isinstance(values, dict):  # labelled axis: label -> {dotted key: value}
        if not values:
            raise doc.error(place, "empty axis")
        labels, overrides = [], []
        for label, sets in values.items():
            sets = _mapping(doc, place + (label,), sets, "dotted key -> value")
            if not sets:
                raise doc.error(place + (label,), "sets nothing")
            for key in sets:
                if not isinstance(key, str) or (why := _check_settable(base, key)) is not None:
                    raise doc.error(place + (label, key), why or "keys are dotted strings")
            labels.append(label)
            overrides.append(dict(sets))
        return Axis(name, labels, overrides, place, labelled=True)
    raise doc.error(place, "an axis is a list of values or a mapping of labels to overrides")


def _check_settable(base: dict[str, Any], dotted: str) -> str | None:
    try:
        resolve_all(base, dotted.split("."), create_sections=False)
    except KeyPathError as e:
        return str(e)
    return None


def _grid(doc: Located, grid: Any, base: dict[str, Any]) -> list[list[Axis]]:
    grid = _mapping(doc, ("grid",), grid, "axes")
    groups: list[list[Axis]] = []
    for name, values in grid.items():
        place = ("grid", name)
        if name != "zip":
            groups.append([_axis(doc, place, name, values, base)])
            continue
        for i, zipped in enumerate(values if isinstance(values, list) else [values]):
            zplace = place + (i,) if isinstance(values, list) else place
            zipped = _mapping(doc, zplace, zipped, "axes that move together")
            axes = [_axis(doc, zplace + (n,), n, v, base) for n, v in zipped.items()]
            if not axes:
                raise doc.error(zplace, "empty zip")
            if len({len(a.labels) for a in axes}) != 1:
                raise doc.error(zplace, "zipped axes must have the same number of values")
            groups.append(axes)
    names = [a.name for g in groups for a in g]
    if dup := {n for n in names if names.count(n) > 1}:
        raise doc.error(("grid",), f"axis {sorted(dup)[0]} appears twice")
    if not groups:
        raise doc.error(("grid",), "empty grid: give at least one axis")
    return groups


def _seeds(doc: Located, place: tuple[Any, ...], value: Any) -> list[int]:
    if isinstance(value, bool):
        raise doc.error(place, "a count or a list of integers >= 1")
    if isinstance(value, int):
        if value < 1:
            raise doc.error(place, "the count of seeds must be at least 1")
        return list(range(1, value + 1))
    if (
        isinstance(value, list)
        and value
        and all(isinstance(s, int) and not isinstance(s, bool) and s >= 1 for s in value)
    ):
        if len(set(value)) != len(value):
            raise doc.error(place, "repeated seed")
        return list(value)
    raise doc.error(place, "a count or a non-empty list of integers >= 1")


def _base(doc: Located, value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        path = (doc.path.parent / value).resolve()
        try:
            return load_spec(path)
        except InputError as e:
            raise doc.error(("base",), str(e)) from None
    base = _mapping(doc, ("base",), value, "a run spec or the path of one")
    if "seed" in base:
        raise doc.error(("base", "seed"), "seeds come from the campaign's 'seeds'")
    return base


def _apply_quick(doc: Located, camp: Campaign, quick: Any) -> None:
    quick = _mapping(doc, ("quick",), quick, "seeds, set, grid")
    for key in quick:
        if key not in QUICK_KEYS:
            raise doc.error(("quick", key), f"unknown key (allowed: {', '.join(sorted(QUICK_KEYS))})")
    if "seeds" in quick:
        camp.seeds = _seeds(doc, ("quick", "seeds"), quick["seeds"])
    for key, value in _mapping(doc, ("quick", "set"), quick.get("set", {}), "dotted key -> value").items():
        if (why := set_key(camp.base, str(key), value)) is not None:
            raise doc.error(("quick", "set", key), why)
    for name, keep in _mapping(doc, ("quick", "grid"), quick.get("grid", {}), "axis -> values").items():
        axis = camp.axis(name)
        place = ("quick", "grid", name)
        if axis is None:
            raise doc.error(place, "no such axis in the grid")
        if not isinstance(keep, list) or not keep:
            raise doc.error(place, "a non-empty list of the axis's values or labels")
        if any(k not in axis.labels for k in keep):
            raise doc.error(place, f"{[k for k in keep if k not in axis.labels][0]!r} is not a value of the axis")
        chosen = [axis.labels.index(k) for k in keep]
        for moved in next(g for g in camp.groups if axis in g):  # a zipped group narrows together
            moved.labels = [moved.labels[i] for i in chosen]
            moved.overrides = [moved.overrides[i] for i in chosen]
    camp.quick = True


def _report_order(doc: Located, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 1000:
        raise doc.error(("report_order",), "a whole number in [0, 1000]: lower comes first in a report")
    return value


def parse_campaign(doc: Located, quick: bool = False) -> Campaign:
    """The campaign of a loaded document, its grid, seeds and metrics checked; its plots
    and claims are checked by lab.load, which knows them."""
    path = doc.path
    data = _mapping(doc, (), doc.data, "a campaign")
    for key in data:
        if key not in TOP_KEYS:
            raise doc.error((key,), f"unknown key (allowed: {', '.join(sorted(TOP_KEYS))})")
    for key in ("campaign", "base", "grid", "seeds", "metrics"):
        if key not in data:
            raise doc.error((), f"missing key '{key}'")
    name = data["campaign"]
    if not isinstance(name, str) or not NAME.match(name):
        raise doc.error(("campaign",), "a name of letters, digits, '-' and '_'")
    base = _base(doc, data["base"])
    metrics = _mapping(doc, ("metrics",), data["metrics"], "name -> dotted path into the result")
    if not metrics:
        raise doc.error(("metrics",), "name at least one metric")
    for metric, where in metrics.items():
        if not isinstance(metric, str) or not NAME.match(metric):
            raise doc.error(("metrics", metric), "a metric name of letters, digits, '-' and '_'")
        if not isinstance(where, str) or not METRIC_PATH.match(where):
            raise doc.error(
                ("metrics", metric),
                "a dotted path into the result, e.g. flows.0.throughput_kbps, "
                "the ratio of two (A / B) or their sum (A + B)",
            )
    groups = _grid(doc, data["grid"], base)
    camp = Campaign(
        name=name,
        title=str(data.get("title", name)),
        description=str(data.get("description", "")),
        source=Path(path),
        base=copy.deepcopy(base),
        base_as_written=base,
        groups=groups,
        seeds=_seeds(doc, ("seeds",), data["seeds"]),
        metrics=dict(metrics),
        plots=data.get("plots") or [],
        claims=data.get("claims") or [],
        report_order=_report_order(doc, data.get("report_order", DEFAULT_REPORT_ORDER)),
        doc=doc,
    )
    for axis in camp.axes:
        if axis.name in RESERVED or axis.name in camp.metrics:
            raise doc.error(
                axis.place,
                f"an axis may not share its name with a metric or an index column ({', '.join(sorted(RESERVED))})",
            )
    if quick:
        if "quick" not in data:
            raise doc.error((), "--quick: the campaign has no 'quick' profile")
        _apply_quick(doc, camp, data["quick"])
    return camp


def points(camp: Campaign) -> list[tuple[dict[str, Any], dict[str, Any], dict[str, tuple[Any, ...]]]]:
    """Grid points in order: (axis -> label, dotted key -> value, dotted key -> where written)."""
    out = []
    per_group = [range(len(g[0].labels)) for g in camp.groups]
    for choice in itertools.product(*per_group):
        point: dict[str, Any] = {}
        sets: dict[str, Any] = {}
        origin: dict[str, tuple[Any, ...]] = {}
        setter: dict[str, str] = {}  # dotted key -> the axis that set it
        for group, i in zip(camp.groups, choice, strict=True):
            for axis in group:
                point[axis.name] = axis.labels[i]
                for key, value in axis.overrides[i].items():
                    if key in sets and sets[key] != value:
                        assert camp.doc is not None
                        raise camp.doc.error(axis.place, f"sets {key}, which axis {setter[key]} also sets")
                    sets[key] = value
                    origin[key] = axis.origin(i, key)
                    setter[key] = axis.name
        out.append((point, sets, origin))
    return out


def expand(camp: Campaign) -> list[Job]:
    """Every grid point x every seed, as full specs."""
    jobs = []
    for point, sets, origin in points(camp):
        spec = copy.deepcopy(camp.base)
        for key, value in sets.items():
            if (why := set_key(spec, key, value)) is not None:
                assert camp.doc is not None
                raise camp.doc.error(origin[key], why)
        try:
            spec = with_media(spec)
        except SpecKeyError as e:
            raise InputError(f"{camp.source}: grid point {point}: {e.text}") from None
        for seed in camp.seeds:
            jobs.append(Job(camp.name, point, seed, {**copy.deepcopy(spec), "seed": seed}))
    return jobs
