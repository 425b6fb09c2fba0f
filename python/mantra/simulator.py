"""Running mantra-sim: one spec in, one result out."""
from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from mantra.errors import InputError

ROOT = Path(__file__).resolve().parents[2]


def sim_binary() -> Path:
    """The mantra-sim built by `make build` (override with MANTRA_SIM)."""
    path = Path(os.environ.get("MANTRA_SIM", ROOT / "build" / "sim" / "mantra-sim"))
    if not path.is_file():
        raise InputError(f"{path}: mantra-sim is not built; run 'make build'")
    return path


class SimulationFailed(Exception):
    def __init__(self, returncode: int, stderr: str, command: list[str]):
        super().__init__(stderr.strip().splitlines()[-1] if stderr.strip() else f"exit status {returncode}")
        self.returncode = returncode
        self.stderr = stderr
        self.command = command


def run_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """Runs one spec; bad specs raise InputError with mantra-sim's one line."""
    with tempfile.TemporaryDirectory(prefix="mantra-") as tmp:
        spec_path = Path(tmp) / "spec.json"
        out_path = Path(tmp) / "result.json"
        spec_path.write_text(json.dumps(spec))
        command = [str(sim_binary()), str(spec_path), "--out", str(out_path)]
        proc = subprocess.run(command, capture_output=True, text=True)
        if proc.returncode == 2:
            message = proc.stderr.strip().splitlines()[0] if proc.stderr.strip() else "bad spec"
            raise InputError(message.replace(f"mantra-sim: {spec_path}: ", "spec: "))
        if proc.returncode != 0:
            raise SimulationFailed(proc.returncode, proc.stderr, command)
        return json.loads(out_path.read_text())
