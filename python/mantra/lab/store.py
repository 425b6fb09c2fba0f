"""The result store of a results directory.

    DIR/index.sqlite        runs: one row per run key (status, scalar metrics, provenance,
                            and for a failure its exit status, stderr and command);
                            jobs: which campaign grid point and seed each key answers
    DIR/runs/KEY.json       the full result of a finished run (series, CDFs, diagnostics)
    DIR/specs/KEY.json      the exact spec of every run started (to reproduce it)
    DIR/campaigns/NAME.json the campaign as last run (definition, quick, build), for reports
    DIR/tmp/                in-flight files; emptied when a run starts
    DIR/lock                held by the one coordinator writing this directory

A run key is the hash of the full spec (seed included) and the simulator build, so a
re-run skips what is done and a changed spec or build runs again. Writes are atomic:
files are written under tmp/ and renamed into place, the index commits one row per
run, and a result file without its index row (a kill between the two) is re-indexed
instead of re-run.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import sqlite3
import time
from pathlib import Path
from typing import IO, Any

import pandas as pd

from mantra.errors import InputError

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
  key TEXT PRIMARY KEY, status TEXT NOT NULL, seed INTEGER NOT NULL, build TEXT NOT NULL,
  commit_id TEXT, ns3_version TEXT, sim_wall_s REAL, host TEXT, metrics TEXT,
  returncode INTEGER, stderr TEXT, command TEXT, finished TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (
  campaign TEXT NOT NULL, key TEXT NOT NULL, point TEXT NOT NULL, seed INTEGER NOT NULL,
  PRIMARY KEY (campaign, point, seed));
"""


def run_key(spec: dict[str, Any], build: str) -> str:
    canonical = json.dumps(spec, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"{build}\n{canonical}".encode()).hexdigest()[:20]


def scalars(result: dict[str, Any]) -> dict[str, float | None]:
    """The result's scalar metrics by dotted path (flows.0.throughput_kbps, drops.ifq, ...);
    the spec, series, CDFs and per-node lists stay in the run's file."""
    out: dict[str, float | None] = {}

    def walk(node: Any, prefix: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k not in ("spec", "series", "provenance"):
                    walk(v, f"{prefix}{k}.")
        elif isinstance(node, list):
            if prefix == "flows.":
                for i, v in enumerate(node):
                    walk(v, f"{prefix}{i}.")
        elif node is None or (isinstance(node, (int, float)) and not isinstance(node, bool)):
            out[prefix[:-1]] = node

    walk(result, "")
    return out


def write_atomic(path: Path, text: str, tmp_dir: Path) -> None:
    tmp = tmp_dir / f"{path.name}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


class Store:
    def __init__(self, root: str | Path, create: bool = True):
        self.root = Path(root)
        if not create and not (self.root / "index.sqlite").is_file():
            raise InputError(f"{self.root}: not a results directory (no index.sqlite)")
        for sub in ("runs", "specs", "campaigns", "tmp"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.root / "index.sqlite", timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)
        self._lock_file: IO[str] | None = None

    # -- the coordinator -------------------------------------------------------------
    def acquire(self) -> None:
        """Takes the directory for one coordinator and clears what a killed one left."""
        self._lock_file = open(self.root / "lock", "w")  # noqa: SIM115 (held open: the lock lives as long as it)
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise InputError(f"{self.root}: another 'mantra run' is writing this directory") from None
        shutil.rmtree(self.root / "tmp")
        (self.root / "tmp").mkdir()

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"

    def result_path(self, key: str) -> Path:
        return self.root / "runs" / f"{key}.json"

    def spec_path(self, key: str) -> Path:
        return self.root / "specs" / f"{key}.json"

    def write_spec(self, key: str, spec: dict[str, Any]) -> Path:
        path = self.spec_path(key)
        if not path.exists():
            write_atomic(path, json.dumps(spec, indent=1, sort_keys=True), self.tmp)
        return path

    def status(self, keys: list[str]) -> dict[str, str]:
        """key -> 'ok' or 'failed' for the keys the index has."""
        out: dict[str, str] = {}
        for i in range(0, len(keys), 500):
            chunk = keys[i : i + 500]
            rows = self.db.execute(f"SELECT key, status FROM runs WHERE key IN ({','.join('?' * len(chunk))})", chunk)
            out.update(dict(rows))
        return out

    def set_jobs(self, campaign: str, jobs: list[tuple[str, dict[str, Any], int]]) -> None:
        """The keys that answer a campaign's grid points and seeds, replacing earlier ones."""
        with self.db:
            self.db.execute("DELETE FROM jobs WHERE campaign = ?", (campaign,))
            self.db.executemany(
                "INSERT OR REPLACE INTO jobs VALUES (?, ?, ?, ?)",
                [(campaign, key, json.dumps(point), seed) for key, point, seed in jobs],
            )

    def save_campaign(self, name: str, record: dict[str, Any]) -> None:
        write_atomic(self.root / "campaigns" / f"{name}.json", json.dumps(record, indent=1), self.tmp)

    def record_ok(self, key: str, seed: int, build: str, result_text: str, host: str) -> None:
        result = json.loads(result_text)
        write_atomic(self.result_path(key), result_text, self.tmp)
        self._index_ok(key, seed, build, result, host)

    def _index_ok(self, key: str, seed: int, build: str, result: dict[str, Any], host: str) -> None:
        prov = result.get("provenance", {})
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO runs VALUES (?, 'ok', ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, ?)",
                (
                    key,
                    seed,
                    build,
                    prov.get("commit"),
                    prov.get("ns3_version"),
                    prov.get("wall_s"),
                    host,
                    json.dumps(scalars(result)),
                    time.strftime("%Y-%m-%dT%H:%M:%S"),
                ),
            )

    def recover(self, key: str, seed: int, build: str) -> bool:
        """Indexes a finished result file that lacks its row (a kill between the two)."""
        path = self.result_path(key)
        if not path.is_file():
            return False
        try:
            result = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError):
            return False  # cannot happen with atomic renames; run it again if it does
        self._index_ok(key, seed, build, result, "")
        return True

    def record_failed(
        self, key: str, seed: int, build: str, returncode: int, stderr: str, command: str, host: str
    ) -> None:
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO runs VALUES (?, 'failed', ?, ?, NULL, NULL, NULL, ?, NULL, ?, ?, ?, ?)",
                (key, seed, build, host, returncode, stderr, command, time.strftime("%Y-%m-%dT%H:%M:%S")),
            )

    # -- readers ---------------------------------------------------------------------
    def campaigns(self) -> dict[str, dict[str, Any]]:
        return {p.stem: json.loads(p.read_text()) for p in sorted((self.root / "campaigns").glob("*.json"))}

    def frame(self) -> pd.DataFrame:
        """Every campaign's runs as one table: campaign, key, seed, the grid point's axes,
        status, provenance, failure details and every scalar metric by its dotted path."""
        rows = self.db.execute(
            "SELECT j.campaign, j.key, j.point, j.seed, r.status, r.build, r.commit_id, r.ns3_version,"
            " r.sim_wall_s, r.host, r.metrics, r.returncode, r.stderr, r.command"
            " FROM jobs j LEFT JOIN runs r ON r.key = j.key ORDER BY j.rowid"
        ).fetchall()
        records = []
        for campaign, key, point, seed, status, build, commit, ns3, wall, host, metrics, rc, stderr, command in rows:
            records.append(
                {
                    "campaign": campaign,
                    "key": key,
                    "seed": seed,
                    **json.loads(point),
                    "status": status or "missing",
                    "build": build,
                    "commit": commit,
                    "ns3_version": ns3,
                    "sim_wall_s": wall,
                    "host": host,
                    "returncode": rc,
                    "stderr": stderr,
                    "command": command,
                    **(json.loads(metrics) if metrics else {}),
                }
            )
        return pd.DataFrame.from_records(records)

    def result(self, key: str) -> dict[str, Any]:
        result: dict[str, Any] = json.loads(self.result_path(key).read_text())
        return result

    def close(self) -> None:
        self.db.close()
        if self._lock_file is not None:
            self._lock_file.close()
