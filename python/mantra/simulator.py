"""Running mantra-sim: one spec in, one result out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from mantra.errors import InputError, SpecKeyError
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


def sim_check(sim: str | Path, spec: dict[str, Any]) -> SpecKeyError | None:
    """mantra-sim's own verdict on a spec (`--check --json`): None if it takes it, else the
    key and the message it refuses it with."""
    proc = subprocess.run([str(sim), "--check", "--json", "-"], input=json.dumps(spec), capture_output=True, text=True)
    try:
        verdict = json.loads(proc.stdout)
        ok, key, message = verdict["ok"], verdict.get("key", ""), verdict.get("message", "")
    except (ValueError, KeyError, TypeError):
        last = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        raise InputError(f"{sim} --check --json gave no verdict: {last}") from None
    return None if ok else SpecKeyError(key, message)


def run_spec(spec: dict[str, Any], sim: str | Path | None = None) -> dict[str, Any]:
    """Runs one spec (on `sim`, default sim_binary()); a spec mantra-sim refuses raises
    SpecKeyError (key and message)."""
    sim = sim or sim_binary()
    out = execute(json.dumps(spec), str(sim))
    if out["returncode"] == 2:
        raise sim_check(sim, spec) or InputError(f"spec: mantra-sim refused the spec, then took it: {out['stderr']}")
    if out["result"] is None:
        raise SimulationFailed(out["returncode"], out["stderr"])
    if out["returncode"] != 0:  # finished, then ns-3 faulted in teardown: keep the result, say so
        print(out["stderr"].strip().splitlines()[-1], file=sys.stderr)
    result: dict[str, Any] = json.loads(out["result"])
    return with_video_quality(result)


def with_video_quality(result: dict[str, Any]) -> dict[str, Any]:
    """The result with the delivered video's quality added to each flow that carried video
    (mantra.media.flow_video; the codecs are loaded only then)."""
    flows = result.get("flows")
    if not isinstance(flows, list) or not any(isinstance(f.get("media"), dict) for f in flows):
        return result
    from mantra.media.flow_video import add_video_quality

    return add_video_quality(result)
