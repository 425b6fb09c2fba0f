"""YAML loading that remembers the line of every key, so campaign errors can say
`file:line: key: what is wrong`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from mantra.errors import InputError

Place = tuple[Any, ...]  # a place in the document: ("grid", "mobility.speed", 0)


class Located:
    """A loaded document and the 1-based line of each key and list item in it."""

    def __init__(self, path: Path, data: Any, lines: dict[Place, int]):
        self.path = path
        self.data = data
        self.lines = lines

    def where(self, place: Place) -> str:
        """'file:line' of the nearest place at or above `place` that has a line."""
        place = tuple(place)
        while place and place not in self.lines:
            place = place[:-1]
        line = self.lines.get(place)
        return f"{self.path}:{line}" if line else str(self.path)

    def error(self, place: Place, message: str) -> InputError:
        key = ".".join(str(p) for p in place)
        return InputError(f"{self.where(place)}: {key + ': ' if key else ''}{message}")


def _construct(node: yaml.Node, place: Place, lines: dict[Place, int], loader: yaml.SafeLoader, path: Path) -> Any:
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, (str, int, float, bool)):
                raise InputError(f"{path}:{key_node.start_mark.line + 1}: a key must be a plain value")
            if key in out:
                raise InputError(f"{path}:{key_node.start_mark.line + 1}: {key}: duplicate key")
            lines[place + (key,)] = key_node.start_mark.line + 1
            out[key] = _construct(value_node, place + (key,), lines, loader, path)
        return out
    if isinstance(node, yaml.SequenceNode):
        items = []
        for i, item in enumerate(node.value):
            lines[place + (i,)] = item.start_mark.line + 1
            items.append(_construct(item, place + (i,), lines, loader, path))
        return items
    return loader.construct_object(node, deep=True)


def load_located(path: str | Path) -> Located:
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}") from None
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise InputError(f"{path}: empty file")
        lines: dict[tuple[Any, ...], int] = {}
        data = _construct(node, (), lines, loader, path)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        raise InputError(f"{path}{line}: malformed YAML: {e.problem}") from None
    finally:
        loader.dispose()
    return Located(path, data, lines)
