"""The campaign runner's own cost per run: everything `./mantra run` does besides
mantra-sim (Python start-up, loading and checking the campaign, hashing, planning,
writing specs, results and index rows, the progress bar).

A campaign of RUNS short wired runs goes through `./mantra run --workers 1`, so runs do
not overlap; then the same stored specs run through mantra-sim directly, one after
another. Overhead per run = (campaign wall time - sum of direct mantra-sim times) / RUNS.
The issue's bound is 0.5 s per run.

    make bench   (or: PYTHONPATH=python .venv/bin/python bench/runner_overhead.py [--runs N])
"""
import argparse
import subprocess
import tempfile
import time
from pathlib import Path

import yaml

from mantra.simulator import ROOT, sim_binary


def campaign(runs: int) -> dict:
    return {
        "campaign": "runner-overhead",
        "base": {"duration": 2, "topology": {"kind": "p2p", "bandwidth": "2Mbps", "delay": "20ms"},
                 "flows": [{"protocol": "tfrc", "src": 0, "dst": 1}]},
        "grid": {"protocol": {"tfrc": {"flows.0.protocol": "tfrc"}, "tcp": {"flows.0.protocol": "tcp"}}},
        "seeds": runs // 2,
        "metrics": {"throughput_kbps": "flows.0.throughput_kbps"},
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=60)
    args = ap.parse_args()
    subprocess.run([str(ROOT / "mantra"), "--help"], check=True, capture_output=True)  # build up to date
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.yaml"
        path.write_text(yaml.safe_dump(campaign(args.runs)))
        out = Path(tmp) / "out"
        began = time.perf_counter()
        subprocess.run([str(ROOT / "mantra"), "run", str(path), "--workers", "1", "--out", str(out)],
                       check=True, capture_output=True)
        campaign_s = time.perf_counter() - began
        specs = sorted((out / "specs").glob("*.json"))
        sim = str(sim_binary())
        began = time.perf_counter()
        for spec in specs:
            subprocess.run([sim, str(spec), "--out", str(Path(tmp) / "r.json")], check=True, capture_output=True)
        sims_s = time.perf_counter() - began
    n = len(specs)
    per_run = (campaign_s - sims_s) / n
    print(f"runs {n}: ./mantra run {campaign_s:.2f} s, mantra-sim alone {sims_s:.2f} s")
    print(f"runner overhead per run: {per_run:.3f} s (bound 0.5 s); runner/sim time ratio {campaign_s / sims_s:.3f}")


if __name__ == "__main__":
    main()
