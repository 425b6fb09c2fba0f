"""Loading run specs (YAML or JSON) and applying dotted-key overrides.

The simulator checks every key itself; this module turns files and ``--set key=value``
arguments into one JSON document, with errors that name the file and line (malformed
input) or the key (an override that cannot apply), and pre-checks the ranges of its
numbers (spec_check.py), which also catches what JSON cannot carry (NaN, dates).
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

import yaml

from mantra.errors import InputError
from mantra.spec_check import MAX_BYTES, MAX_DEPTH, check_spec, one_line


class _Duplicate(yaml.constructor.ConstructorError):
    """A mapping that gives one key twice (YAML would keep the last silently)."""


class _Loader(yaml.SafeLoader):
    """safe_load, refusing duplicate keys."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[str] = set()
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
                if key_node.value in seen:
                    raise _Duplicate(None, None, f"{one_line(key_node.value)}: given twice", key_node.start_mark)
                seen.add(key_node.value)
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int | float:  # type: ignore[override]
        # Python refuses to read integers of more than 4300 digits (ValueError); such a
        # number is out of every range anyway: infinity, which check_spec names.
        try:
            return super().construct_yaml_int(node)
        except ValueError:
            return -math.inf if str(node.value).lstrip().startswith("-") else math.inf


_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)


def _json_int(text: str) -> int | float:
    """An integer of more than 4300 digits, which Python refuses to read, as infinity."""
    try:
        return int(text)
    except ValueError:
        return -math.inf if text.startswith("-") else math.inf


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    for key, value in pairs:
        if key in doc:
            raise _DuplicateJson(key)
        doc[key] = value
    return doc


class _DuplicateJson(ValueError):
    pass


def parse_yaml(text: str) -> Any:
    """yaml.safe_load without duplicate keys. Deep nesting raises RecursionError."""
    return yaml.load(text, Loader=_Loader)  # noqa: S506 (_Loader is a SafeLoader)


def load_spec(path: str | Path) -> dict[str, Any]:
    """Reads a spec from YAML (.yaml/.yml) or JSON (.json): UTF-8, at most MAX_BYTES,
    no key given twice, nested at most MAX_DEPTH deep (checked in full by check_spec)."""
    path = Path(path)
    if path.suffix not in (".yaml", ".yml", ".json"):
        raise InputError(f"{path}: a spec must be .yaml, .yml or .json")
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}") from None
    if len(data) > MAX_BYTES:
        raise InputError(f"{path}: the spec is larger than {MAX_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InputError(f"{path}:{line}: not UTF-8 text (byte {e.start})") from None
    try:
        if path.suffix in (".yaml", ".yml"):
            try:
                doc = parse_yaml(text)
            except _Duplicate as e:
                at = f":{e.problem_mark.line + 1}" if e.problem_mark is not None else ""
                raise InputError(f"{path}{at}: {e.problem}") from None
            except yaml.MarkedYAMLError as e:
                mark = e.problem_mark
                at = f":{mark.line + 1}" if mark is not None else ""
                raise InputError(f"{path}{at}: malformed YAML: {one_line(str(e.problem), 200)}") from None
            except yaml.YAMLError as e:
                raise InputError(f"{path}: malformed YAML: {one_line(str(e), 200)}") from None
        else:
            try:
                doc = json.loads(text, object_pairs_hook=_no_duplicates, parse_int=_json_int)
            except json.JSONDecodeError as e:
                raise InputError(f"{path}:{e.lineno}: malformed JSON: {e.msg}") from None
            except _DuplicateJson as e:
                raise InputError(f"{path}: {one_line(str(e))}: given twice") from None
    except RecursionError:
        raise InputError(f"{path}: the spec nests deeper than {MAX_DEPTH} levels") from None
    if not isinstance(doc, dict):
        raise InputError(f"{path}: a spec must be a mapping of keys")
    return doc


def parse_override(text: str) -> tuple[list[str], Any]:
    """'mobility.speed=10' -> (['mobility', 'speed'], 10); values are YAML scalars or lists."""
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise InputError(f"--set {one_line(text)}: expected key=value")
    try:
        value = parse_yaml(raw) if raw else ""
    except (yaml.YAMLError, RecursionError):
        raise InputError(f"--set {one_line(key)}: cannot parse value {one_line(repr(raw))}") from None
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
    items = container[part] if isinstance(container, list) or part in container else None  # type: ignore[index]
    if not isinstance(items, list):
        raise KeyPathError(f"{'.'.join(dotted[:star])} is not a list")
    places: list[tuple[Any, str | int]] = []
    for index in range(len(items)):
        places += resolve_all(spec, dotted[:star] + [str(index)] + dotted[star + 1 :], create_sections)
    return places


def set_dotted(spec: dict[str, Any], dotted: list[str], value: Any, create_sections: bool) -> None:
    """Sets spec[a][b]... = value: the one way a spec is overridden, by `--set` (which may
    create missing sections) and by a campaign's axes and quick profile (which may not).
    A radio given by preset name becomes an object when one of its keys is set:
    radio=ns2-80211b + radio.queue=25 -> {preset: ns2-80211b, queue: 25}. A `*` in place of
    a list index sets every item: flows.*.protocol=latp. Raises KeyPathError naming where
    the key does not lead."""
    if len(dotted) > 1 and dotted[0] == "radio" and isinstance(spec.get("radio"), str):
        spec["radio"] = {"preset": spec["radio"]}
    for container, last in resolve_all(spec, dotted, create_sections):
        container[last] = copy.deepcopy(value)


def apply_override(spec: dict[str, Any], dotted: list[str], value: Any) -> None:
    """A `--set key=value`: set_dotted, creating missing sections."""
    try:
        set_dotted(spec, dotted, value, create_sections=True)
    except KeyPathError as e:
        raise InputError(f"--set {one_line('.'.join(dotted), 200)}: {one_line(str(e), 200)}") from None


def has_video(spec: dict[str, Any]) -> bool:
    """Whether a flow of the spec carries video (its `video` key, mantra.media.flow_video)."""
    flows = spec.get("flows")
    return isinstance(flows, list) and any(isinstance(f, dict) and "video" in f for f in flows)


def with_media(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec as mantra-sim takes it: every flow's `video` encoded into its `media` block (a
    copy; the codecs are loaded only when a flow carries video)."""
    if not has_video(spec):
        return spec
    from mantra.media.flow_video import expand_video

    return expand_video(spec)


def build_spec(path: str | Path, overrides: list[str]) -> dict[str, Any]:
    """The spec file with its overrides applied, its numbers checked (check_spec), its video
    encoded (with_media)."""
    spec = load_spec(path)
    for text in overrides:
        dotted, value = parse_override(text)
        apply_override(spec, dotted, value)
    check_spec(spec)
    return with_media(spec)
