"""Cost of the protocol apps: a 30-node, 300-s, 400 m x 800 m random-waypoint
run at 10 m/s with one TFRC flow, against the same run with a CBR flow at
TFRC's average sending rate (same seed: same mobility). Reports wall times
and their ratio; the issue's bound is a ratio of at most 1.30.

    make bench        (or: PYTHONPATH=python .venv/bin/python bench/apps_overhead.py [--seeds N])
"""
import argparse
import statistics

from mantra.simulator import run_spec

BASE = {
    "duration": 300, "seed": 1,
    "topology": {"kind": "manet", "nodes": 30, "width": 400, "height": 800},
    "mobility": {"model": "rwp", "speed": 10, "pause": 0},
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()
    rows = []
    for seed in range(1, args.seeds + 1):
        tfrc = run_spec(dict(BASE, seed=seed, flows=[{"protocol": "tfrc", "src": 0, "dst": 1, "start": 0}]))
        f = tfrc["flows"][0]
        rate_bps = max(1000, round(f["sent_bytes"] * 8 / (f["stop"] - f["start"])))
        cbr = run_spec(dict(BASE, seed=seed, flows=[{"protocol": "cbr", "src": 0, "dst": 1, "start": 0, "rate": rate_bps}]))
        t, c = tfrc["provenance"], cbr["provenance"]
        rows.append((seed, rate_bps, t["wall_s"], t["events"], c["wall_s"], c["events"]))
        print(f"seed {seed}: tfrc {t['wall_s']:.2f} s ({t['events']} events, {rate_bps/1e3:.1f} kb/s sent)  "
              f"cbr {c['wall_s']:.2f} s ({c['events']} events)  ratio {t['wall_s']/c['wall_s']:.3f}", flush=True)
    ratio = sum(r[2] for r in rows) / sum(r[4] for r in rows)
    ev = sum(r[3] for r in rows) / sum(r[5] for r in rows)
    print(f"total wall-time ratio tfrc/cbr {ratio:.3f} (events ratio {ev:.3f}); median per seed "
          f"{statistics.median(r[2]/r[4] for r in rows):.3f}")


if __name__ == "__main__":
    main()
