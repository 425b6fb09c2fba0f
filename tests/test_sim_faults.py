"""A finished run survives a fault in ns-3's teardown; a run that dies before its
result exists says so in one line. MANTRA_SIM_FAULT injects an abort (mantra-sim's
fault-injection switch, documented in docs/run-spec.md)."""

import json
import os
import subprocess

from conftest import ROOT

SIM = ROOT / "build" / "sim" / "mantra-sim"
SPEC = {
    "duration": 5,
    "seed": 1,
    "topology": {"kind": "chain", "hops": 2},
    "flows": [{"protocol": "tfrc", "src": 0, "dst": 2}],
}


def run_with_fault(tmp_path, fault):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC))
    out = tmp_path / "result.json"
    env = {**os.environ, "MANTRA_SIM_FAULT": fault}
    proc = subprocess.run([str(SIM), str(spec), "--out", str(out)], capture_output=True, text=True, env=env)
    return proc, out


def test_abort_in_teardown_keeps_the_complete_result(tmp_path):
    proc, out = run_with_fault(tmp_path, "teardown")
    assert proc.returncode == 3
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "while tearing down the finished simulation" in lines[0] and str(out) in lines[0]
    result = json.loads(out.read_text())  # complete: parses, and holds the run's flows and provenance
    assert result["provenance"]["ns3_version"] == "3.44"
    assert result["flows"][0]["throughput_kbps"] > 0


def test_abort_during_the_run_writes_no_result_and_says_so(tmp_path):
    proc, out = run_with_fault(tmp_path, "run")
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "before its result was written" in lines[0]
    assert not out.exists() and not (tmp_path / "result.json.tmp").exists()


def test_the_lab_keeps_a_result_whose_teardown_faulted(tmp_path, monkeypatch):
    from mantra.simulator import run_spec

    monkeypatch.setenv("MANTRA_SIM_FAULT", "teardown")
    result = run_spec(SPEC, SIM)
    assert result["spec"] == SPEC


def test_an_unknown_fault_is_bad_input(tmp_path):
    proc, _ = run_with_fault(tmp_path, "later")
    assert proc.returncode == 2 and "MANTRA_SIM_FAULT" in proc.stderr


def test_version_names_both_versions():
    proc = subprocess.run([str(SIM), "--version"], capture_output=True, text=True, check=True)
    assert proc.stdout.startswith("mantra-sim ") and "(ns-3 3.44)" in proc.stdout
