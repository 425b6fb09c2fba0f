"""The campaign runner's own cost per run: everything `mantra run` does besides
mantra-sim (Python start-up, loading and checking the campaign, hashing, planning,
writing specs, results and index rows, the progress bar).

A campaign of RUNS short wired runs goes through `mantra run --workers 1` (the CLI,
`python -m mantra`, with MANTRA_SIM naming the binary; the `./mantra` wrapper's build
check is left out, since a --sim binary is not the project's build), so runs do not
overlap; then the same stored specs run through mantra-sim directly, one after another.
Overhead per run = (campaign wall time - sum of direct mantra-sim times) / RUNS.
The issue's bound is 0.5 s per run.

With several --sim (e.g. two ns-3 versions) the campaigns run A, B, then the direct
runs spec by spec A, B, A, B, ..., all of it --reps times with the binaries' order
reversed on every other repetition, so machine load falls on all alike; each binary
gets its own overhead and ratio and its absolute wall times.

    make bench   (or: PYTHONPATH=python .venv/bin/python bench/runner_overhead.py
                      [--runs N] [--reps N] [--sim PATH ...] [--json FILE])
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

import sims
from mantra.simulator import ROOT


def campaign(runs: int) -> dict:
    return {
        "campaign": "runner-overhead",
        "base": {
            "duration": 2,
            "topology": {"kind": "p2p", "bandwidth": "2Mbps", "delay": "20ms"},
            "flows": [{"protocol": "tfrc", "src": 0, "dst": 1}],
        },
        "grid": {"protocol": {"tfrc": {"flows.0.protocol": "tfrc"}, "tcp": {"flows.0.protocol": "tcp"}}},
        "seeds": runs // 2,
        "metrics": {"throughput_kbps": "flows.0.throughput_kbps"},
    }


def run_campaign(path: Path, out: Path, sim: Path) -> float:
    env = dict(os.environ, MANTRA_SIM=str(sim), PYTHONPATH=str(ROOT / "python"))
    began = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mantra", "run", str(path), "--workers", "1", "--out", str(out)],
        check=True,
        capture_output=True,
        env=env,
        cwd=ROOT,
    )
    return time.perf_counter() - began


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=60)
    ap.add_argument("--reps", type=int, default=1, help="repetitions of the whole measurement")
    ap.add_argument("--json", help="write the measurements here")
    sims.add_argument(ap)
    args = ap.parse_args()
    if not args.sim and "MANTRA_SIM" not in os.environ:
        subprocess.run([str(ROOT / "mantra"), "--help"], check=True, capture_output=True)  # build up to date
    binaries = sims.resolve(args)
    infos = [sims.describe(b) for b in binaries]
    names = sims.labels(infos)
    reps = {n: [] for n in names}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.yaml"
        path.write_text(yaml.safe_dump(campaign(args.runs)))
        for rep in range(args.reps):
            order = list(zip(names, binaries, strict=True))
            if rep % 2:
                order.reverse()
            campaign_s, sims_s = {}, {name: 0.0 for name, _ in order}
            for i, (name, sim) in enumerate(order):
                campaign_s[name] = run_campaign(path, Path(tmp) / f"out-{rep}-{i}", sim)
            specs = sorted((Path(tmp) / f"out-{rep}-0" / "specs").glob("*.json"))
            for spec in specs:
                for name, sim in order:
                    began = time.perf_counter()
                    subprocess.run(
                        [str(sim), str(spec), "--out", str(Path(tmp) / "r.json")], check=True, capture_output=True
                    )
                    sims_s[name] += time.perf_counter() - began
            n = len(specs)
            for name, _ in order:
                per_run = (campaign_s[name] - sims_s[name]) / n
                reps[name].append(
                    {
                        "runs": n,
                        "campaign_s": campaign_s[name],
                        "sims_s": sims_s[name],
                        "overhead_per_run_s": per_run,
                        "ratio": campaign_s[name] / sims_s[name],
                    }
                )
                prefix = f"{name}: " if len(names) > 1 else ""
                print(f"{prefix}runs {n}: mantra run {campaign_s[name]:.2f} s, mantra-sim alone {sims_s[name]:.2f} s")
                print(
                    f"{prefix}runner overhead per run: {per_run:.3f} s (bound 0.5 s); "
                    f"runner/sim time ratio {campaign_s[name] / sims_s[name]:.3f}",
                    flush=True,
                )
    if args.reps > 1:
        for name in names:
            r = reps[name]
            c, s, n = sum(x["campaign_s"] for x in r), sum(x["sims_s"] for x in r), sum(x["runs"] for x in r)
            print(
                f"{name}: over {args.reps} repetitions: mantra run {c:.2f} s, mantra-sim alone {s:.2f} s, "
                f"overhead per run {(c - s) / n:.3f} s, ratio {c / s:.3f}"
            )
    sims.write_json(args.json, "runner_overhead", infos, names, reps=reps)


if __name__ == "__main__":
    main()
