"""Cost of our DSR against ns-3's: the wall time per delivered packet on the same spec, Broch et
al.'s field (50 nodes, 1500 m x 300 m, random waypoint up to 20 m/s without pause, 10 CBR
sources of 4 packets/s of 64 bytes), 100 s, with `routing: dsr` and `routing: dsr-ns3`. Each
seed runs both, in alternating order, so a slow spell of the machine falls on both alike; the
ratio ours / ns-3's is per delivered packet (ns-3's DSR delivers fewer). Issue 28's bound: at
most 1.

    make bench        (or: PYTHONPATH=python .venv/bin/python bench/dsr_cost.py [--seeds N] [--json FILE])
"""

import sims
from mantra.simulator import run_spec

SOURCES = 10
BASE = {
    "duration": 100,
    "radio": "ns2-80211b",
    "topology": {"kind": "manet", "nodes": 50, "width": 1500, "height": 300},
    "mobility": {"model": "setdest", "speed": 20, "pause": 0},
    "flows": [
        {"protocol": "cbr", "src": i, "dst": SOURCES + i, "start": 1 + 0.1 * i, "rate": "2048bps", "packet_size": 64}
        for i in range(SOURCES)
    ],
}


def run(seed, routing, sim):
    r = run_spec(dict(BASE, seed=seed, routing=routing), sim)
    delivered = sum(f["received"] for f in r["flows"])
    return {"wall_s": r["provenance"]["wall_s"], "delivered": delivered, "sent": sum(f["sent"] for f in r["flows"])}


def main():
    args = sims.arguments()
    binaries = sims.resolve(args)[:1]
    infos = [sims.describe(b) for b in binaries]
    sim = binaries[0]
    rows = []
    for seed in range(1, args.seeds + 1):
        order = ("dsr", "dsr-ns3") if seed % 2 else ("dsr-ns3", "dsr")
        runs = {routing: run(seed, routing, sim) for routing in order}
        rows.append({"seed": seed, **{f"{k}_{m}": v for k, r in runs.items() for m, v in r.items()}})
        ours, theirs = runs["dsr"], runs["dsr-ns3"]
        print(
            f"seed {seed}: ours {ours['wall_s']:.2f} s for {ours['delivered']}/{ours['sent']} delivered, "
            f"ns-3's {theirs['wall_s']:.2f} s for {theirs['delivered']}/{theirs['sent']}",
            flush=True,
        )
    per = {
        k: sum(r[f"{k}_wall_s"] for r in rows) / max(1, sum(r[f"{k}_delivered"] for r in rows))
        for k in ("dsr", "dsr-ns3")
    }
    print(
        f"wall time per delivered packet: ours {1e3 * per['dsr']:.3f} ms, ns-3's {1e3 * per['dsr-ns3']:.3f} ms, "
        f"ratio {per['dsr'] / per['dsr-ns3']:.3f}"
    )
    sims.write_json(args.json, "dsr_cost", infos, sims.labels(infos), runs=rows)


if __name__ == "__main__":
    main()
