"""Shared by the lab tests: writing campaign files and reading a results index."""

import sqlite3
from pathlib import Path

import yaml

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


def ok_runs(results: Path) -> int:
    db = results / "index.sqlite"
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return con.execute("SELECT COUNT(*) FROM runs WHERE status = 'ok'").fetchone()[0]
    except sqlite3.OperationalError:
        return 0  # the coordinator has not created the table yet
