import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))


def mantra(*args, check=True):
    """Runs ./mantra; returns the CompletedProcess."""
    proc = subprocess.run([str(ROOT / "mantra"), *args], capture_output=True, text=True, cwd=ROOT)
    if check and proc.returncode != 0:
        raise AssertionError(f"mantra {' '.join(args)} exited {proc.returncode}: {proc.stderr}")
    return proc


@pytest.fixture
def write_spec(tmp_path):
    def write(spec, name="spec.json"):
        path = tmp_path / name
        path.write_text(spec if isinstance(spec, str) else json.dumps(spec))
        return str(path)

    return write


def sim(spec_path, *overrides):
    args = ["sim", spec_path, "--json"]
    for o in overrides:
        args += ["--set", o]
    return json.loads(mantra(*args).stdout)
