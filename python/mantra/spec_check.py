"""The ranges of a run spec's numbers, checked before mantra-sim sees the spec.

mantra-sim checks every key itself (sim/src/spec/spec.cc) and is the authority: campaigns
call it directly. This module mirrors its ranges with the same one-line messages, and
catches what only Python can meet: NaN and infinities from YAML (``.nan``, ``.inf``),
which JSON cannot carry; YAML values that are not JSON (dates, sets, binary); keys that
are not strings (YAML's ``yes:``, ``1:``); nesting too deep; and alias bombs (a few
YAML lines that expand to billions of values). docs/run-spec.md, "Ranges", lists them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from mantra.errors import SpecKeyError

MAX_DEPTH = 32  # as sim/src/spec/spec.h kMaxSpecDepth; a valid spec nests 4 deep (7 with a media trace)
# Values in the spec once YAML aliases are expanded: a media trace of 53 minutes at 25 frames/s
# in 5 rungs (5 values a frame), far below the 10^10 of a ten-line alias bomb.
MAX_VALUES = 2_000_000
MAX_BYTES = 16 * 1024 * 1024  # as kMaxSpecBytes
MAX_FLOWS = 1000
MAX_NODES = 2000
SHOWN = 60  # bytes of a user's value shown in a message


@dataclass(frozen=True)
class Range:
    lo: float
    hi: float
    text: str
    lo_open: bool = False
    hi_open: bool = False

    def holds(self, x: float) -> bool:
        return (x > self.lo if self.lo_open else x >= self.lo) and (x < self.hi if self.hi_open else x <= self.hi)


# The same ranges and texts as sim/src/spec/spec.cc.
DURATION = Range(1e-3, 1e6, "(1 ms .. 1000000 s)")
INTERVAL = Range(1e-3, 1e6, "(1 ms .. 1000000 s)")
TIME = Range(0, 1e6, "(0 .. 1000000 s)")
RATE = Range(1, 1e10, "(1 bps .. 10 Gbps)")
PROBABILITY = Range(0, 1, "(0 .. below 1)", hi_open=True)
AREA = Range(1, 1e5, "(1 .. 100000 m)")
RADIO_RANGE = Range(1, 1e5, "(1 .. 100000 m)")
SPACING = Range(0, 1e5, "(above 0 .. 100000 m)", lo_open=True)
COORDINATE = Range(-1e5, 1e5, "(-100000 .. 100000 m)")
TCP_TIMER = Range(0.001, 600, "(1 ms .. 600 s)")
CLOCK_GRANULARITY = Range(1e-6, 1, "(1 us .. 1 s)")
SPEED = Range(0.01, 1000, "(0.01 .. 1000 m/s; model: static for no movement)")
QUEUE = Range(1, 1e5, "(1 .. 100000 packets)")
SEED = Range(1, 2**63 - 1, "(1 .. 9223372036854775807)")
CHAIN_HOPS = Range(1, MAX_NODES - 1, "(1 .. 1999)")
MANET_NODES = Range(2, MAX_NODES, "(2 .. 2000)")
GRID_SIDE = Range(1, MAX_NODES, "(1 .. 2000, rows x cols 2 .. 2000)")
PACKET_SIZE = Range(64, 1460, "(64 .. 1460 bytes)")
MAX_WINDOW = Range(1, 10000, "(1 .. 10000 packets)")
QUEUE_THRESHOLD = Range(0, 1e5, "(0 .. 100000 packets)")
MAX_P = Range(0, 1, "(above 0 .. 1)", lo_open=True)
FLOW_COUNT = Range(1, 1000, "(1 .. 1000)")
CORE_PARAM = Range(-1e9, 1e9, "(-1e9 .. 1e9; the protocol checks its own range)")
MEDIA_FPS = Range(0, 1000, "(above 0 .. 1000 frames/s)", lo_open=True)
MEDIA_PLAYOUT_DELAY = Range(0, 1e6, "(above 0 .. 1000000 s)", lo_open=True)

DURATION_UNITS = {"": 1, "us": 1e-6, "ms": 1e-3, "s": 1, "min": 60}
RATE_UNITS = {"": 1, "bps": 1, "kbps": 1e3, "Kbps": 1e3, "Mbps": 1e6, "Gbps": 1e9}
QUANTITY = re.compile(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([A-Za-z]*)\s*", re.ASCII)

# dotted pattern (`*` = any list index or key) -> (kind, range)
RANGES: dict[str, tuple[str, Range]] = {
    "duration": ("duration", DURATION),
    "seed": ("integer", SEED),
    "interval": ("duration", INTERVAL),
    "smoothness_window": ("duration", INTERVAL),
    "measure.from": ("duration", TIME),
    "measure.to": ("duration", TIME),
    "phases.*.*": ("duration", TIME),
    "channel_error": ("number", PROBABILITY),
    "channel_error.rate": ("number", PROBABILITY),
    "channel_error.burst": ("duration", TCP_TIMER),
    "hop_sampling": ("duration", INTERVAL),
    "radio.rx_range": ("number", RADIO_RANGE),
    "radio.cs_range": ("number", RADIO_RANGE),
    "radio.queue": ("integer", QUEUE),
    "topology.hops": ("integer", CHAIN_HOPS),
    "topology.radio_hops": ("integer", CHAIN_HOPS),
    "topology.nodes": ("integer", MANET_NODES),
    "topology.rows": ("integer", GRID_SIDE),
    "topology.cols": ("integer", GRID_SIDE),
    "topology.width": ("number", AREA),
    "topology.height": ("number", AREA),
    "topology.spacing": ("number", SPACING),
    "topology.radio_spacing": ("number", SPACING),
    "topology.bandwidth": ("rate", RATE),
    "topology.delay": ("duration", TIME),
    "topology.loss": ("number", PROBABILITY),
    "topology.queue": ("integer", QUEUE),
    "*.queue.limit": ("integer", QUEUE),
    "*.queue.min_th": ("number", QUEUE_THRESHOLD),
    "*.queue.max_th": ("number", QUEUE_THRESHOLD),
    "*.queue.max_p": ("number", MAX_P),
    "*.queue.w_q": ("number", MAX_P),
    "topology.access_bandwidth": ("rate", RATE),
    "topology.access_delay": ("duration", TIME),
    "topology.positions.*.*": ("number", COORDINATE),
    "mobility.speed": ("number", SPEED),
    "mobility.speed.*": ("number", SPEED),
    "mobility.pause": ("duration", TIME),
    "mobility.waypoints.*.*.0": ("duration", TIME),
    "mobility.waypoints.*.*.1": ("number", COORDINATE),
    "mobility.waypoints.*.*.2": ("number", COORDINATE),
    "flows.*.start": ("duration", TIME),
    "flows.*.start.uniform.*": ("duration", TIME),
    "flows.*.stop": ("duration", TIME),
    "flows.*.packet_size": ("integer", PACKET_SIZE),
    "flows.*.count": ("integer", FLOW_COUNT),
    "flows.*.access_loss": ("number", PROBABILITY),
    "flows.*.rate": ("rate", RATE),
    "flows.*.interval_jitter": ("number", PROBABILITY),
    "flows.*.max_window": ("integer", MAX_WINDOW),
    "flows.*.receive_buffer": ("integer", MAX_WINDOW),
    "flows.*.frozen_timer": ("duration", TCP_TIMER),
    "flows.*.probe_interval": ("duration", TCP_TIMER),
    "flows.*.min_rto": ("duration", TCP_TIMER),
    "flows.*.clock_granularity": ("duration", CLOCK_GRANULARITY),
    "flows.*.media.fps": ("number", MEDIA_FPS),
    "flows.*.media.playout_delay": ("duration", MEDIA_PLAYOUT_DELAY),
    "flows.*.media.start": ("duration", TIME),
    "flows.*.media.representations.*.rate_bps": ("rate", RATE),
    "flows.*.params.*": ("param", CORE_PARAM),
    "flows.*.receiver_params.*": ("param", CORE_PARAM),
    "latp_agent.*": ("agent", CORE_PARAM),
}


def one_line(text: str, limit: int = SHOWN) -> str:
    """`text` on one line, as spec.cc prints it: control characters and line
    separators escaped, cut to about `limit` UTF-8 bytes with '...'."""
    out, size = [], 0
    for ch in text:
        if size >= limit:
            out.append("...")
            break
        code = ord(ch)
        if ch == "\n":
            piece = "\\n"
        elif ch == "\t":
            piece = "\\t"
        elif code < 0x20 or code == 0x7F:
            piece = f"\\x{code:02x}"
        elif 0x80 <= code < 0xA0 or code in (0x2028, 0x2029):
            piece = f"\\u{code:04x}"
        elif 0xD800 <= code <= 0xDFFF:  # a lone surrogate (from surrogateescape): not UTF-8
            piece = "\\x??"
        else:
            piece = ch
        out.append(piece)
        size += len(piece.encode("utf-8"))
    return "".join(out)


def _json_number(x: int | float) -> str:
    """A number as nlohmann's dump writes it ('100', '3.5', '1e+20', '-0.0'), as Python's
    repr does for the shortest round-trip form."""
    if isinstance(x, int):
        return str(x) if abs(x) < 10**60 else f"a {len(str(abs(x))) if abs(x) < 10**4000 else 'huge'}-digit integer"
    return repr(x)


def shown(value: Any) -> str:
    if isinstance(value, str):
        return one_line(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return one_line(_json_number(value))
    return one_line(repr(value))


def _key(path: str, key: str) -> str:
    plain = bool(key) and re.fullmatch(r"[A-Za-z0-9_-]+", key) is not None
    shown_key = key if plain else f"'{one_line(key)}'"
    return shown_key if not path else f"{path}.{shown_key}"


def _fail(key: str, what: str) -> SpecKeyError:
    return SpecKeyError(one_line(key, 200) if key else "", one_line(what, 600))


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _number(v: Any, key: str, r: Range) -> float:
    if not _is_number(v):
        raise _fail(key, f"must be a number {r.text}")
    if isinstance(v, float) and not math.isfinite(v):
        raise _fail(key, f"must be a finite number {r.text}")
    if not r.holds(v):  # compares an int of any size without converting it
        raise _fail(key, f"{shown(v)} is out of range {r.text}")
    return float(v)


def _integer(v: Any, key: str, r: Range) -> int:
    if not _is_number(v):
        raise _fail(key, f"must be an integer {r.text}")
    if isinstance(v, float):
        if not math.isfinite(v):
            raise _fail(key, f"must be a finite number {r.text}")
        if v != math.floor(v):
            raise _fail(key, f"{shown(v)} is not an integer {r.text}")
    if not (r.lo <= v <= r.hi) or (isinstance(v, float) and v >= 2.0**63):
        raise _fail(key, f"{shown(v)} is out of range {r.text}")
    return int(v)


def _quantity(v: Any, key: str, units: dict[str, float], kind: str, example: str, r: Range) -> float:
    if _is_number(v):
        return _number(v, key, r)
    if not isinstance(v, str):
        raise _fail(key, f"must be a {kind} ({example}) {r.text}")
    m = QUANTITY.fullmatch(v) if len(v.encode("utf-8", "surrogatepass")) <= 1000 else None
    if m and m.group(2) in units:
        x = float(m.group(1)) * units[m.group(2)]
        if not math.isfinite(x) or not r.holds(x):
            raise _fail(key, f"{shown(v)} is out of range {r.text}")
        return x
    raise _fail(key, f"'{shown(v)}' is not a {kind} ({example})")


def rate_bps(v: Any, key: str) -> float:
    """A rate as a spec writes it (180kbps, 2Mbps, or bits per second), in bits per second."""
    return _quantity(v, key, RATE_UNITS, "rate", "e.g. 180kbps, 2Mbps", RATE)


def duration_s(v: Any, key: str, r: Range = TIME) -> float:
    """A duration as a spec writes it (200ms, 1.5s, or seconds), in seconds."""
    return _quantity(v, key, DURATION_UNITS, "duration", "e.g. 200ms, 1.5s, 3", r)


def _check_value(kind: str, v: Any, key: str, r: Range) -> None:
    if kind == "duration":
        _quantity(v, key, DURATION_UNITS, "duration", "e.g. 200ms, 1.5s, 3", r)
    elif kind == "rate":
        _quantity(v, key, RATE_UNITS, "rate", "e.g. 180kbps, 2Mbps", r)
    elif kind == "integer":
        _integer(v, key, r)
    elif kind == "param" and isinstance(v, bool):
        pass  # core parameters take true and false as 1 and 0
    else:
        _number(v, key, r)


def _pattern_matches(pattern: list[str], parts: list[str]) -> bool:
    return len(pattern) == len(parts) and all(p == "*" or p == q for p, q in zip(pattern, parts, strict=True))


PATTERNS = [(p.split("."), kind, r) for p, (kind, r) in RANGES.items()]


def check_spec(spec: Any) -> None:
    """Raises InputError ('spec: KEY: ...', one line) for the first value out of its
    range or not representable in JSON. Never recurses: any depth is safe."""
    if not isinstance(spec, dict):
        raise _fail("", f"a spec must be a mapping of keys, not {type(spec).__name__}")
    # First pass: shape (depth, size, types), iteratively.
    stack: list[tuple[Any, str, int]] = [(spec, "", 0)]
    values = 0
    not_finite = None
    while stack:
        value, where, depth = stack.pop()
        values += 1
        if values > MAX_VALUES:
            raise _fail("", f"the spec holds more than {MAX_VALUES} values (YAML aliases count once per use)")
        if isinstance(value, (dict, list)):
            if depth >= MAX_DEPTH:
                raise _fail("", f"the spec nests deeper than {MAX_DEPTH} levels")
            if isinstance(value, dict):
                for k, item in value.items():
                    if not isinstance(k, str):
                        raise _fail(where, f"key {shown(k)} is not a string (quote it)")
                    stack.append((item, _key(where, k), depth + 1))
            else:
                for i, item in enumerate(value):
                    stack.append((item, f"{where}[{i}]", depth + 1))
        elif isinstance(value, float):
            if not math.isfinite(value) and not_finite is None:
                not_finite = where
        elif value is not None and not isinstance(value, (str, int, bool)):
            text = value.isoformat() if hasattr(value, "isoformat") else shown(value)
            raise _fail(
                where, f"{one_line(text)} is a {type(value).__name__}, not a number, string, boolean, list or mapping"
            )
    # Second pass: the ranges of known keys (NaN and infinities among them).
    flows = spec.get("flows")
    if isinstance(flows, list) and len(flows) > MAX_FLOWS:
        raise _fail("flows", f"lists {len(flows)} flows, at most {MAX_FLOWS}")
    topology = spec.get("topology")
    if (
        isinstance(topology, dict)
        and isinstance(topology.get("positions"), list)
        and len(topology["positions"]) > MAX_NODES
    ):
        raise _fail("topology.positions", f"lists {len(topology['positions'])} positions, at most {MAX_NODES}")
    for parts, value in _leaves(spec):
        for pattern, kind, r in PATTERNS:
            if _pattern_matches(pattern, parts):
                _check_value(kind, value, _dotted(parts), r)
                break
    # JSON has no NaN or infinity: anywhere else, they are refused too.
    if not_finite is not None:
        raise _fail(not_finite, "must be a finite number")


def _dotted(parts: list[str]) -> str:
    if parts[:2] == ["mobility", "waypoints"] and len(parts) == 5:
        return f"mobility.waypoints.{parts[2]}[{parts[3]}]"  # spec.cc names the waypoint, not the coordinate
    out = ""
    for p in parts:
        out = f"{out}[{p}]" if p.isdigit() and out else _key(out, p)
    if out.startswith("topology.positions[") or out.startswith("mobility.speed["):
        out = out[: out.rindex("[")]  # spec.cc names the pair or the speed, not the coordinate
    return out


# A media trace's frame lists (up to millions of values) are checked by mantra-sim alone
# (sim/src/spec/media_spec.cc: their sizes, layers, times and order, key by key); the range
# pass does not walk them, so a long trace costs the shape pass only.
_MEDIA_LISTS = (["media", "gop_starts"], ["media", "representations", "*", "frames"])


def _media_list(parts: list[str]) -> bool:
    return parts[:1] == ["flows"] and any(_pattern_matches(m, parts[2:]) for m in _MEDIA_LISTS)


def _leaves(spec: dict[str, Any]) -> list[tuple[list[str], Any]]:
    """(path parts, value) of every scalar, in document order, list indices as digits; a
    media trace's frame lists are left whole. Only runs after the shape check, so the depth
    is bounded."""
    stack: list[tuple[list[str], Any]] = [([], spec)]
    out = []
    while stack:
        parts, value = stack.pop()
        if isinstance(value, dict):
            for k in reversed(list(value)):
                stack.append((parts + [k], value[k]))
        elif (
            isinstance(value, list) and parts[:1] in (["flows"], ["topology"], ["mobility"]) and not _media_list(parts)
        ):
            for i in reversed(range(len(value))):
                stack.append((parts + [str(i)], value[i]))
        else:
            out.append((parts, value))
    return out
