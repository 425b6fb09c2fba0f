"""Two result stores compared run by run: the runs of the same spec and seed, their results
equal apart from provenance (commit, wall time), or where they differ.

    ./mantra diff results/before results/after

Runs pair by their spec (which holds the seed); a run in one store only is listed apart. A
result differs when any value other than `provenance.commit` and `provenance.wall_s` does,
numbers compared exactly: the same spec and seed must give the same numbers. An intended
difference is named with `--ignore KEY` (dotted, `*` for any one part, e.g.
`flows.*.diagnostics.sender.source_dropped`); the output lists what was ignored.

A change that renames a spec value (a routing's name), retires a key or adds one is compared with
`--read KEY=OLD:NEW`: both stores' specs are read with OLD at the dotted KEY (a list's element by
its index: flows.0.stop) as NEW (an empty NEW: the key is left out), so their runs pair:

    ./mantra diff before after --read routing=aodv-ns3:aodv --read link_failure_flush=true:
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mantra.lab.store import Store

ALWAYS_IGNORED = (("provenance", "commit"), ("provenance", "wall_s"))


def _matches(path: tuple[str, ...], patterns: tuple[tuple[str, ...], ...]) -> bool:
    return any(len(p) == len(path) and all(a == "*" or a == b for a, b in zip(p, path, strict=True)) for p in patterns)


@dataclass
class StoreDiff:
    same: int = 0
    differ: list[tuple[str, list[str]]] = field(default_factory=list)  # (spec, first differing keys)
    only_old: list[str] = field(default_factory=list)
    only_new: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # keys named as intended differences
    read: list[str] = field(default_factory=list)  # KEY=OLD:NEW readings of both stores' specs


@dataclass(frozen=True)
class Reading:
    """`KEY=OLD:NEW`: a spec value read as another (NEW empty: key left out), in both stores."""

    key: tuple[str, ...]
    old: Any
    new: Any  # None: the key is left out

    @staticmethod
    def parse(text: str) -> Reading:
        key, sep, values = text.partition("=")
        old, colon, new = values.partition(":")
        if not sep or not colon or not key or not old:
            raise ValueError(f"--read {text!r}: must be KEY=OLD:NEW (NEW may be empty: the key is left out)")
        return Reading(tuple(key.split(".")), _scalar(old), _scalar(new) if new else None)

    def apply(self, spec: dict[str, Any]) -> None:
        *parents, last = self.key
        node: Any = spec
        for part in parents:  # a list's element by its index (flows.0.stop)
            if isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, dict) and last in node and node[last] == self.old:
            if self.new is None:
                del node[last]
            else:
                node[last] = self.new


def _scalar(text: str) -> Any:
    """A value as JSON reads it (true, 3, 0.5) or else the text (aodv-ns3)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _results(root: Path, readings: tuple[Reading, ...] = ()) -> dict[str, dict[str, Any]]:
    """The finished runs of a store, by their spec as canonical JSON (read through `readings`)."""
    store = Store(root, create=False)
    try:
        out = {}
        for key in store.frame().query("status == 'ok'")["key"]:
            result = store.result(key)
            for r in readings:
                r.apply(result["spec"])
            out[json.dumps(result["spec"], sort_keys=True)] = result
        return out
    finally:
        store.close()


def differences(old: Any, new: Any, path: tuple[str, ...] = (), ignored: tuple[tuple[str, ...], ...] = ()) -> list[str]:
    """The dotted keys where two results differ (a list index as a part), apart from the
    always-ignored provenance and the `ignored` patterns."""
    if _matches(path, ALWAYS_IGNORED + ignored):
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for k in sorted(set(old) | set(new)):
            if k not in old or k not in new:
                if not _matches((*path, k), ALWAYS_IGNORED + ignored):
                    out.append(".".join((*path, k)))
            else:
                out += differences(old[k], new[k], (*path, k), ignored)
        return out
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [
            d
            for i, (a, b) in enumerate(zip(old, new, strict=True))
            for d in differences(a, b, (*path, str(i)), ignored)
        ]
    return [] if old == new and type(old) is type(new) else [".".join(path) or "(the result)"]


def diff_stores(
    old_root: Path, new_root: Path, ignore: list[str] | None = None, read: list[str] | None = None
) -> StoreDiff:
    readings = tuple(Reading.parse(r) for r in read or [])
    old, new = _results(old_root, readings), _results(new_root, readings)
    patterns = tuple(tuple(k.split(".")) for k in ignore or [])
    d = StoreDiff(ignored=list(ignore or []), read=list(read or []))
    for spec in sorted(old.keys() & new.keys()):
        keys = differences(old[spec], new[spec], (), patterns)
        if keys:
            d.differ.append((spec, keys))
        else:
            d.same += 1
    d.only_old = sorted(old.keys() - new.keys())
    d.only_new = sorted(new.keys() - old.keys())
    return d


def format_diff(d: StoreDiff, limit: int = 20) -> str:
    lines = [
        f"{d.same} runs identical, {len(d.differ)} differ, "
        f"{len(d.only_old)} only in the first store, {len(d.only_new)} only in the second"
    ]
    if d.read:
        lines.append("specs read with: " + ", ".join(d.read))
    if d.ignored:
        lines.append("ignored (intended differences): " + ", ".join(d.ignored))
    for spec, keys in d.differ[:limit]:
        shown = ", ".join(keys[:8]) + (f" and {len(keys) - 8} more" if len(keys) > 8 else "")
        lines.append(f"differ: {shown}\n  spec: {spec}")
    if len(d.differ) > limit:
        lines.append(f"... and {len(d.differ) - limit} more runs that differ")
    return "\n".join(lines)
