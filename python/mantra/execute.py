"""Running one job's mantra-sim, wherever it runs: a local thread or a Dask worker.

Standard library only: the runner ships this module to Dask workers by value, so a
worker needs a built mantra-sim (at the coordinator's path, or MANTRA_SIM) but not
the mantra package.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

# mantra-sim's exit status when the result is complete but ns-3's teardown faulted.
TEARDOWN_FAULT = 3

_build_ids: dict[tuple[str, int, int], str] = {}


def build_id(binary: str | Path) -> str:
    """The simulator build: a hash of the mantra-sim file (cached per size and mtime)."""
    st = os.stat(binary)
    cache_key = (str(binary), st.st_size, st.st_mtime_ns)
    if cache_key not in _build_ids:
        digest = hashlib.sha256()
        with open(binary, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
        _build_ids[cache_key] = digest.hexdigest()[:16]
    return _build_ids[cache_key]


def die_with_parent() -> list[str]:
    """A prefix that kills mantra-sim when its parent dies (even by kill -9), so an
    interrupted campaign leaves no simulations running."""
    return ["setpriv", "--pdeathsig", "KILL"] if shutil.which("setpriv") else []


def execute(spec_text: str, sim_path: str, tmp_root: str | None = None) -> dict[str, Any]:
    """Runs mantra-sim on one spec (JSON text). Returns the exit status, stderr, the
    result JSON text (None unless the run finished: exit 0, or 3 for a fault after the
    result was written), the simulator's wall time, and the build and host that ran it."""
    sim = os.environ.get("MANTRA_SIM", sim_path)
    outcome = {"returncode": None, "stderr": "", "result": None, "sim_wall_s": 0.0, "host": socket.gethostname()}
    try:
        outcome["build"] = build_id(sim)
    except OSError as e:
        outcome.update(returncode=127, stderr=f"{sim}: mantra-sim is not there: {e.strerror}", build="")
        return outcome
    with tempfile.TemporaryDirectory(prefix="run-", dir=tmp_root) as tmp:
        spec_path = Path(tmp) / "spec.json"
        out_path = Path(tmp) / "result.json"
        spec_path.write_text(spec_text)
        began = time.perf_counter()
        proc = subprocess.run(
            die_with_parent() + [sim, str(spec_path), "--out", str(out_path)], capture_output=True, text=True
        )
        outcome["sim_wall_s"] = time.perf_counter() - began
        outcome["returncode"] = proc.returncode
        outcome["stderr"] = proc.stderr[-20000:]
        # Exit 3: the result was written complete, then ns-3 faulted in its
        # teardown; the finished run is kept (stderr says what happened).
        if proc.returncode in (0, TEARDOWN_FAULT) and out_path.is_file():
            outcome["result"] = out_path.read_text()
    return outcome
