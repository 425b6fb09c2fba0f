"""Loading run specs (YAML or JSON) and applying dotted-key overrides.

The simulator checks every key itself; this module only turns files and
``--set key=value`` arguments into one JSON document, with errors that name the
file and line (malformed input) or the key (an override that cannot apply).
"""
from __future__ import annotations

import copy
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


class KeyPathError(ValueError):
    """A dotted key that does not lead to a settable place; the message names where."""


def resolve(spec: dict[str, Any], dotted: list[str], create_sections: bool) -> tuple[Any, str | int]:
    """The container that holds the dotted key's last part, and that part. List items are
    addressed by index (flows.0.rate); missing sections are created or refused."""
    node: Any = spec
    for i, part in enumerate(dotted):
        where = ".".join(dotted[: i + 1])
        last = i == len(dotted) - 1
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise KeyPathError(f"{where} is not an index of the list")
            if last:
                return node, int(part)
            node = node[int(part)]
        elif isinstance(node, dict):
            if last:
                return node, part
            if node.get(part) is None:
                if not create_sections:
                    raise KeyPathError(f"{where} is not a section of the spec")
                node[part] = {}
            node = node[part]
        else:
            raise KeyPathError(f"{'.'.join(dotted[:i])} is a value, not a section")
    raise KeyPathError("empty key")


def resolve_all(spec: dict[str, Any], dotted: list[str], create_sections: bool) -> list[tuple[Any, str | int]]:
    """As resolve(), where a `*` in place of a list index stands for every item
    (flows.*.protocol: the protocol of every flow)."""
    if "*" not in dotted:
        return [resolve(spec, dotted, create_sections)]
    star = dotted.index("*")
    if star == 0:
        raise KeyPathError("* must follow a list")
    container, part = resolve(spec, dotted[:star], create_sections=False)
    items = container[part] if isinstance(container, list) or part in container else None
    if not isinstance(items, list):
        raise KeyPathError(f"{'.'.join(dotted[:star])} is not a list")
    places: list[tuple[Any, str | int]] = []
    for index in range(len(items)):
        places += resolve_all(spec, dotted[:star] + [str(index)] + dotted[star + 1:], create_sections)
    return places


def apply_override(spec: dict[str, Any], dotted: list[str], value: Any) -> None:
    """Sets spec[a][b]... = value, creating missing sections. A radio given by preset name
    becomes an object when one of its keys is set: radio=ns2-80211b + radio.queue=25 ->
    {preset: ns2-80211b, queue: 25}. A `*` in place of a list index sets every item:
    flows.*.protocol=latp."""
    if len(dotted) > 1 and dotted[0] == "radio" and isinstance(spec.get("radio"), str):
        spec["radio"] = {"preset": spec["radio"]}
    try:
        places = resolve_all(spec, dotted, create_sections=True)
    except KeyPathError as e:
        raise InputError(f"--set {'.'.join(dotted)}: {e}") from None
    for container, last in places:
        container[last] = copy.deepcopy(value)


def build_spec(path: str | Path, overrides: list[str]) -> dict[str, Any]:
    spec = load_spec(path)
    for text in overrides:
        dotted, value = parse_override(text)
        apply_override(spec, dotted, value)
    return spec
