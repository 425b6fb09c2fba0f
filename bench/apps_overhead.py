"""Cost of the protocol apps: a 30-node, 300-s, 400 m x 800 m random-waypoint
run at 10 m/s with one TFRC flow, against the same run with a CBR flow at
TFRC's average sending rate (same seed: same mobility). Reports wall times
and their ratio; the issue's bound is a ratio of at most 1.30.

With several --sim (e.g. two ns-3 versions) every seed runs on each binary in
turn, TFRC runs first on all, then CBR, the binaries' order alternating by
seed, so machine load falls on all alike; each binary gets its own ratio and
its absolute wall times (its CBR rate is its own TFRC's sending rate).

    make bench        (or: PYTHONPATH=python .venv/bin/python bench/apps_overhead.py
                           [--seeds N] [--sim PATH ...] [--json FILE])
"""

import statistics

import sims
from mantra.simulator import run_spec

BASE = {
    "duration": 300,
    "seed": 1,
    "topology": {"kind": "manet", "nodes": 30, "width": 400, "height": 800},
    "mobility": {"model": "rwp", "speed": 10, "pause": 0},
}


def main():
    args = sims.arguments()
    binaries = sims.resolve(args)
    infos = [sims.describe(b) for b in binaries]
    names = sims.labels(infos)
    rows = {n: [] for n in names}
    for seed in range(1, args.seeds + 1):
        order = list(zip(names, binaries, strict=True))
        if seed % 2 == 0:
            order.reverse()
        tfrc, rate = {}, {}
        for name, sim in order:
            tfrc[name] = run_spec(
                dict(BASE, seed=seed, flows=[{"protocol": "tfrc", "src": 0, "dst": 1, "start": 0}]), sim
            )
            f = tfrc[name]["flows"][0]
            rate[name] = max(1000, round(f["sent_bytes"] * 8 / (f["stop"] - f["start"])))
        for name, sim in order:
            cbr = run_spec(
                dict(BASE, seed=seed, flows=[{"protocol": "cbr", "src": 0, "dst": 1, "start": 0, "rate": rate[name]}]),
                sim,
            )
            t, c = tfrc[name]["provenance"], cbr["provenance"]
            rows[name].append(
                {
                    "seed": seed,
                    "rate_bps": rate[name],
                    "tfrc_wall_s": t["wall_s"],
                    "tfrc_events": t["events"],
                    "cbr_wall_s": c["wall_s"],
                    "cbr_events": c["events"],
                    "ns3_version": t["ns3_version"],
                }
            )
            prefix = f"{name}: " if len(names) > 1 else ""
            print(
                f"{prefix}seed {seed}: tfrc {t['wall_s']:.2f} s "
                f"({t['events']} events, {rate[name] / 1e3:.1f} kb/s sent)  "
                f"cbr {c['wall_s']:.2f} s ({c['events']} events)  ratio {t['wall_s'] / c['wall_s']:.3f}",
                flush=True,
            )
    for name in names:
        r = rows[name]
        tw, cw = sum(x["tfrc_wall_s"] for x in r), sum(x["cbr_wall_s"] for x in r)
        ev = sum(x["tfrc_events"] for x in r) / sum(x["cbr_events"] for x in r)
        prefix = f"{name}: " if len(names) > 1 else ""
        print(
            f"{prefix}total wall-time ratio tfrc/cbr {tw / cw:.3f} (events ratio {ev:.3f}); median per seed "
            f"{statistics.median(x['tfrc_wall_s'] / x['cbr_wall_s'] for x in r):.3f}; "
            f"wall time tfrc {tw:.2f} s + cbr {cw:.2f} s = {tw + cw:.2f} s"
        )
    sims.write_json(args.json, "apps_overhead", infos, names, runs=rows)


if __name__ == "__main__":
    main()
