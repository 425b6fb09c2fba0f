"""Shared by the lab tests: writing campaign files, results directories of synthetic runs,
a trivial picture maker, and reading a results index."""

import json
import sqlite3
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import yaml

from mantra.lab.campaign import expand
from mantra.lab.load import load_campaign
from mantra.lab.pictures import PictureRequest, register
from mantra.lab.store import Store, run_key

ROOT = Path(__file__).resolve().parents[1]
RESTART_CAMPAIGN = ROOT / "tests" / "campaigns" / "manet-restart.yaml"

# A small wired campaign that runs in about a second per run.
WIRED = {
    "campaign": "wired-small",
    "base": {
        "duration": 8,
        "topology": {"kind": "p2p", "bandwidth": "2Mbps", "delay": "20ms", "queue": 50, "loss": 0.01},
        "flows": [{"protocol": "tfrc", "src": 0, "dst": 1, "start": 1}],
    },
    "grid": {
        "protocol": {"tfrc": {"flows.0.protocol": "tfrc"}, "tcp": {"flows.0.protocol": "tcp"}},
        "topology.loss": [0.01, 0.02],
    },
    "seeds": [1, 2],
    "metrics": {"throughput_kbps": "flows.0.throughput_kbps", "delay_p95_ms": "flows.0.delay_ms.p95"},
}


def write_campaign(path: Path, doc: dict) -> Path:
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def synthetic_store(tmp_path: Path, doc: dict, result):
    """A results directory holding every run of campaign `doc` as if it had run, each run's
    result `result(point, seed)`; returns (campaign, open Store, directory)."""
    path = write_campaign(tmp_path / "c.yaml", doc)
    camp = load_campaign(path)
    out = tmp_path / "results"
    store = Store(out)
    jobs = [(run_key(job.spec, "test"), job.point, job.seed) for job in expand(camp)]
    store.set_jobs(camp.name, jobs)
    for key, point, seed in jobs:
        store.record_ok(key, seed, "test", json.dumps(result(point, seed)), "host")
    record = {"definition_yaml": yaml.safe_dump(doc, sort_keys=False), "source": str(path), "quick": False}
    store.save_campaign(camp.name, {**record, "build": "test"})
    return camp, store, out


def frames_maker(request: PictureRequest) -> list[tuple[str, str]]:
    """A picture maker for the tests (registered as "test-frames"): one small PNG per run at
    the plot's `where`, in the colour `options.color`, under pictures/."""
    folder = request.out_dir / "pictures"
    folder.mkdir(exist_ok=True)
    made = []
    for _, run in request.runs.sort_values(["seed", "key"]).iterrows():
        name = f"{request.name}-{run['key'][:8]}.png"
        fig, ax = plt.subplots(figsize=(2, 1.5))
        ax.add_patch(plt.Rectangle((0, 0), 1, 1, color=request.options.get("color", "grey")))
        fig.savefig(folder / name, dpi=40)
        plt.close(fig)
        made.append((f"pictures/{name}", f"seed {run['seed']}: {run['throughput_kbps']:.0f} kb/s"))
    return made


register("test-frames", frames_maker)


def ok_runs(results: Path) -> int:
    db = results / "index.sqlite"
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return con.execute("SELECT COUNT(*) FROM runs WHERE status = 'ok'").fetchone()[0]
    except sqlite3.OperationalError:
        return 0  # the coordinator has not created the table yet
