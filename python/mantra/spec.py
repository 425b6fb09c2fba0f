"""Loading run specs (YAML or JSON) and applying dotted-key overrides.

The simulator checks every key itself; this module only turns files and
``--set key=value`` arguments into one JSON document, with errors that name the
file and line (malformed input) or the key (an override that cannot apply).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from mantra.errors import InputError


def load_spec(path: str | Path) -> dict[str, Any]:
    """Reads a spec from YAML (.yaml/.yml) or JSON (.json)."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}") from None
    if path.suffix in (".yaml", ".yml"):
        try:
            doc = yaml.safe_load(text)
        except yaml.MarkedYAMLError as e:
            mark = e.problem_mark
            line = f":{mark.line + 1}" if mark is not None else ""
            raise InputError(f"{path}{line}: malformed YAML: {e.problem}") from None
    elif path.suffix == ".json":
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as e:
            raise InputError(f"{path}:{e.lineno}: malformed JSON: {e.msg}") from None
    else:
        raise InputError(f"{path}: a spec must be .yaml, .yml or .json")
    if not isinstance(doc, dict):
        raise InputError(f"{path}: a spec must be a mapping of keys")
    return doc


def parse_override(text: str) -> tuple[list[str], Any]:
    """'mobility.speed=10' -> (['mobility', 'speed'], 10); values are YAML scalars or lists."""
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise InputError(f"--set {text}: expected key=value")
    try:
        value = yaml.safe_load(raw) if raw else ""
    except yaml.YAMLError:
        raise InputError(f"--set {key}: cannot parse value {raw!r}") from None
    return key.split("."), value


def apply_override(spec: dict[str, Any], dotted: list[str], value: Any) -> None:
    """Sets spec[a][b]... = value. List items are addressed by index (flows.0.rate);
    missing sections are created. A radio given by preset name becomes an object
    when one of its keys is set: radio=ns2-80211b + radio.queue=25 ->
    {preset: ns2-80211b, queue: 25}."""
    name = ".".join(dotted)
    if len(dotted) > 1 and dotted[0] == "radio" and isinstance(spec.get("radio"), str):
        spec["radio"] = {"preset": spec["radio"]}
    node: Any = spec
    for i, part in enumerate(dotted[:-1]):
        where = ".".join(dotted[: i + 1])
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise InputError(f"--set {name}: {where} is not an index of the list")
            node = node[int(part)]
        elif isinstance(node, dict):
            if node.get(part) is None:
                node[part] = {}
            node = node[part]
        else:
            raise InputError(f"--set {name}: {'.'.join(dotted[:i])} is a value, not a section")
    last = dotted[-1]
    if isinstance(node, list):
        if not last.isdigit() or int(last) >= len(node):
            raise InputError(f"--set {name}: {name} is not an index of the list")
        node[int(last)] = value
    elif isinstance(node, dict):
        node[last] = value
    else:
        raise InputError(f"--set {name}: {'.'.join(dotted[:-1])} is a value, not a section")


def build_spec(path: str | Path, overrides: list[str]) -> dict[str, Any]:
    spec = load_spec(path)
    for text in overrides:
        dotted, value = parse_override(text)
        apply_override(spec, dotted, value)
    return spec
