"""The per-flow summary table printed after a run."""

from __future__ import annotations

from typing import Any

COLUMNS = [
    ("flow", 5),
    ("protocol", 8),
    ("path", 8),
    ("kbps", 8),
    ("delay ms", 9),
    ("p95 ms", 8),
    ("jitter ms", 9),
    ("plr", 6),
    ("smooth", 6),
]


def number(value: float | None, digits: int) -> str:
    """A table cell: '-' where the value is undefined (null in the result)."""
    return "-" if value is None else f"{value:.{digits}f}"


def format_result(result: dict[str, Any], title: str = "") -> str:
    lines = []
    if title:
        lines.append(title)
    lines.append("  ".join(name.rjust(width) for name, width in COLUMNS))
    for i, f in enumerate(result["flows"]):
        cells = [
            str(i),
            f["protocol"],
            f"{f['src']}->{f['dst']}",
            f"{f['throughput_kbps']:.1f}",
            number(f["delay_ms"]["mean"], 1),
            number(f["delay_ms"]["p95"], 1),
            number(f["jitter_ms"], 2),
            f"{f['plr']:.3f}",
            f"{f['smoothness']:.2f}",
        ]
        lines.append("  ".join(c.rjust(w) for c, (_, w) in zip(cells, COLUMNS, strict=True)))
    fair = result.get("fairness_jain")
    drops = result["drops"]
    p = result["provenance"]
    lines.append(
        f"jain {number(fair, 3)}"
        f"  drops ifq {drops['ifq']} mac {drops['mac_retry']} route {drops['no_route']}"
        f"  seed {p['seed']}  {p['events']} events in {p['wall_s']:.1f} s  ns-3 {p['ns3_version']}"
        f"  commit {p['commit'][:12]}{'-dirty' if p['commit'].endswith('-dirty') else ''}"
    )
    return "\n".join(lines)
