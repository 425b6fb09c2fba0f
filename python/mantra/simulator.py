"""Running mantra-sim: one spec in, one result out."""
from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from mantra.errors import InputError
from mantra.execute import execute

ROOT = Path(__file__).resolve().parents[2]


def sim_binary() -> Path:
    """The mantra-sim built by `make build` (override with MANTRA_SIM)."""
    path = Path(os.environ.get("MANTRA_SIM", ROOT / "build" / "sim" / "mantra-sim"))
    if not path.is_file():
        raise InputError(f"{path}: mantra-sim is not built; run 'make build'")
    return path


class SimulationFailed(Exception):
    def __init__(self, returncode: int, stderr: str):
        super().__init__(stderr.strip().splitlines()[-1] if stderr.strip() else f"exit status {returncode}")
        self.returncode = returncode
        self.stderr = stderr


def run_spec(spec: dict[str, Any], sim: str | Path | None = None) -> dict[str, Any]:
    """Runs one spec (on `sim`, default sim_binary()); bad specs raise InputError with
    mantra-sim's one line."""
    out = execute(json.dumps(spec), str(sim or sim_binary()))
    if out["returncode"] == 2:
        message = out["stderr"].strip().splitlines()[0] if out["stderr"].strip() else "bad spec"
        raise InputError(re.sub(r"^mantra-sim: \S+: ", "spec: ", message))
    if out["result"] is None:
        raise SimulationFailed(out["returncode"], out["stderr"])
    if out["returncode"] != 0:  # finished, then ns-3 faulted in teardown: keep the result, say so
        print(out["stderr"].strip().splitlines()[-1], file=sys.stderr)
    return json.loads(out["result"])
