"""The store: skip what is done, re-run what changed, re-index a result whose row was
lost, and keep a failure's exit status, stderr and command while the campaign goes on."""

import copy
import json
import os
import sqlite3
import stat
import subprocess
from pathlib import Path

from conftest import ROOT
from lab_helpers import WIRED, ok_runs, write_campaign
from mantra.lab.store import Store


def run(*args, env=None):
    return subprocess.run(
        [str(ROOT / "mantra"), "run", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    )


def test_rerun_skips_done_and_changed_spec_runs_again(tmp_path):
    path = write_campaign(tmp_path / "c.yaml", WIRED)
    out = tmp_path / "out"
    first = run(str(path), "--out", str(out), "--workers", "2")
    assert first.returncode == 0, first.stderr
    assert "8 runs, 0 done, 8 to run" in first.stderr and ok_runs(out) == 8
    again = run(str(path), "--out", str(out))
    assert "8 runs, 8 done, 0 to run" in again.stderr
    changed = copy.deepcopy(WIRED)
    changed["grid"]["topology.loss"] = [0.01, 0.03]  # half the points change
    third = run(str(write_campaign(path, changed)), "--out", str(out))
    assert "8 runs, 4 done, 4 to run" in third.stderr
    frame = Store(out, create=False).frame()
    assert len(frame) == 8 and set(frame["status"]) == {"ok"}
    assert sorted(frame["topology.loss"].unique()) == [0.01, 0.03]
    assert not list((out / "tmp").iterdir())


def test_result_without_index_row_is_reindexed_not_rerun(tmp_path):
    path = write_campaign(tmp_path / "c.yaml", WIRED)
    out = tmp_path / "out"
    assert run(str(path), "--out", str(out)).returncode == 0
    with sqlite3.connect(out / "index.sqlite") as con:  # as if killed between the file and the row
        con.execute("DELETE FROM runs WHERE rowid IN (SELECT rowid FROM runs LIMIT 3)")
    again = run(str(path), "--out", str(out))
    assert "8 runs, 5 done, 3 recovered, 0 to run" in again.stderr
    assert ok_runs(out) == 8


def test_failed_run_is_recorded_and_the_campaign_goes_on(tmp_path):
    real = ROOT / "build" / "sim" / "mantra-sim"
    wrapper = tmp_path / "mantra-sim"
    # The real simulator, made to fail every run of seed 2 (exit 3).
    wrapper.write_text(
        f'#!/bin/sh\nif [ "$1" != --check ] && grep -q \'"seed": 2\' "$1"; then\n'
        f'  echo "mantra-sim: simulation failed: injected" >&2; exit 3\nfi\nexec {real} "$@"\n'
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    path = write_campaign(tmp_path / "c.yaml", WIRED)
    out = tmp_path / "out"
    proc = run(str(path), "--out", str(out), env={"MANTRA_SIM": str(wrapper)})
    assert proc.returncode == 1
    assert "4 ran, 4 failed" in proc.stderr
    assert proc.stderr.count("mantra: run failed:") == 4 and "injected" in proc.stderr
    frame = Store(out, create=False).frame()
    failed = frame[frame["status"] == "failed"]
    assert set(failed["seed"]) == {2} and set(failed["returncode"]) == {3}
    assert all("injected" in e for e in failed["stderr"])
    for command in failed["command"]:  # the command names the stored spec, which reproduces it
        spec_file = command.split()[-1]
        assert command.startswith("./mantra sim ") and json.loads(Path(spec_file).read_text())["seed"] == 2
    assert set(frame[frame["status"] == "ok"]["seed"]) == {1}
    # With the real simulator the failed runs are tried again (the build differs, so all re-run).
    assert run(str(path), "--out", str(out)).returncode == 0
    assert set(Store(out, create=False).frame()["status"]) == {"ok"}
