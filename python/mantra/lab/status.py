"""`mantra status`: per results directory and campaign, runs finished, failed, missing."""

from __future__ import annotations

from pathlib import Path

from mantra.errors import InputError
from mantra.execute import build_id
from mantra.lab.store import Store
from mantra.simulator import sim_binary


def status_lines(dirs: list[Path]) -> list[str]:
    try:
        current = build_id(sim_binary())
    except (InputError, OSError):
        current = None
    lines = []
    for d in dirs:
        store = Store(d, create=False)
        try:
            frame = store.frame()
            records = store.campaigns()
        finally:
            store.close()
        lines.append(f"{d}")
        for name, record in records.items():
            rows = frame[frame["campaign"] == name]
            counts = {s: int((rows["status"] == s).sum()) for s in ("ok", "failed", "missing")}
            stale = (
                ""
                if current in (None, record["build"])
                else "  (mantra-sim has been rebuilt since: a run will redo these)"
            )
            lines.append(
                f"  {name}{' (quick)' if record['quick'] else ''}: {len(rows)} runs, {counts['ok']} finished, "
                f"{counts['failed']} failed, {counts['missing']} missing{stale}"
            )
    return lines
