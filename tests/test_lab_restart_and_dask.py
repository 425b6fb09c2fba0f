"""The issue's campaign (2 protocols x 3 speeds x 3 seeds, 30-node network): killed with
kill -9 half-way on 2 workers, restarted, it runs only what was missing and ends with
exactly 18 runs; run again through a real Dask scheduler and two workers on loopback, it
gives the same metrics."""

import json
import os
import signal
import subprocess
import time

import pytest

from conftest import ROOT
from lab_helpers import RESTART_CAMPAIGN, ok_runs
from mantra.lab.store import Store

VENV_BIN = ROOT / ".venv" / "bin"
KEYS = ["protocol", "mobility.speed", "seed"]


def metrics(out):
    frame = Store(out, create=False).frame()
    cols = sorted(c for c in frame.columns if c.startswith(("flows.", "drops.", "fairness")))
    return frame.set_index(KEYS).sort_index()[cols]


def sims_running(out):
    return subprocess.run(["pgrep", "-f", f"{out}/tmp/"], capture_output=True).returncode == 0


@pytest.fixture(scope="module")
def local_results(tmp_path_factory):
    out = tmp_path_factory.mktemp("local") / "results"
    cmd = [str(ROOT / "mantra"), "run", str(RESTART_CAMPAIGN), "--workers", "2", "--out", str(out)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while ok_runs(out) < 7 and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the campaign ended before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)  # ./mantra execs python: this is the coordinator
    proc.wait()
    finished = ok_runs(out)
    time.sleep(0.5)
    assert not sims_running(out), "mantra-sim outlived its killed coordinator"
    assert 7 <= finished < 18
    restart = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert restart.returncode == 0, restart.stderr
    assert f"18 runs, {finished} done, {18 - finished} to run" in restart.stderr
    assert f"{18 - finished} ran, 0 failed" in restart.stderr
    return out


def test_killed_run_resumes_with_exactly_18_runs(local_results):
    frame = Store(local_results, create=False).frame()
    assert len(frame) == 18 and set(frame["status"]) == {"ok"}
    assert len(list((local_results / "runs").glob("*.json"))) == 18
    assert not list((local_results / "tmp").iterdir())  # nothing half-written left behind
    for path in (local_results / "runs").glob("*.json"):
        json.loads(path.read_text())  # every kept result is whole


def test_loopback_dask_cluster_gives_the_same_metrics(local_results, tmp_path):
    sched_file = tmp_path / "scheduler.json"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # workers need no mantra package
    common = ["--no-dashboard", "--host", "127.0.0.1"]
    procs = [
        subprocess.Popen(
            [str(VENV_BIN / "dask"), "scheduler", "--port", "0", "--scheduler-file", str(sched_file), *common],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    ]
    try:
        deadline = time.time() + 60
        while not sched_file.exists() and time.time() < deadline:
            time.sleep(0.1)
        address = json.loads(sched_file.read_text())["address"]
        for _ in range(2):
            procs.append(
                subprocess.Popen(
                    [str(VENV_BIN / "dask"), "worker", address, "--nthreads", "1", *common],
                    cwd=tmp_path,
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        wait_for_workers(address, 2)
        out = tmp_path / "dask-results"
        proc = subprocess.run(
            [str(ROOT / "mantra"), "run", str(RESTART_CAMPAIGN), "--scheduler", address, "--out", str(out)],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 0, proc.stderr
        assert "18 ran, 0 failed" in proc.stderr
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            p.wait(timeout=30)
    dask_metrics, local_metrics = metrics(out), metrics(local_results)
    assert len(dask_metrics) == 18
    assert dask_metrics.equals(local_metrics)


def wait_for_workers(address, n):
    from distributed import Client

    with Client(address, timeout=30) as client:
        client.wait_for_workers(n, timeout=60)
