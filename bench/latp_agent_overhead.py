"""Cost of the LATP node agents: a 10-hop chain (400 s, Table 1 radio) carrying
one LATP flow whose media source is capped at 80 kb/s, well below what the
chain carries, run with the agents on every node (busyness meter, MAC
throughput meter, per-packet stamping in the interface queue) and with
`latp_agent: false`. The cap makes both runs send the same packets, so the
wall-time ratio is the agents' own cost; the issue's bound is at most 1.15.

With several --sim (e.g. two ns-3 versions) each seed's runs alternate between
the binaries (A on, B on, A off, B off; on even seeds B off, A off, B on, A on), so
machine load falls on all alike; each binary gets its own ratio and its
absolute wall times.

    make bench        (or: PYTHONPATH=python .venv/bin/python bench/latp_agent_overhead.py
                           [--seeds N] [--sim PATH ...] [--json FILE])
"""

import sims
from mantra.simulator import run_spec

HOPS = 10
BASE = {
    "duration": 400,
    "radio": {"preset": "ns2-80211b", "cs_range": 500, "queue": 25},
    "topology": {"kind": "chain", "hops": HOPS, "spacing": 200},
    "flows": [{"protocol": "latp", "src": 0, "dst": HOPS, "start": 10, "params": {"source_rate_bps": 80000}}],
}


def run(seed, agents, sim):
    r = run_spec(dict(BASE, seed=seed, latp_agent=agents), sim)
    f = r["flows"][0]
    stamped = sum(a["latp_stamped"] for a in r.get("latp_agents", []))
    return r["provenance"]["wall_s"], r["provenance"]["events"], f["sent"], stamped


def main():
    args = sims.arguments()
    binaries = sims.resolve(args)
    infos = [sims.describe(b) for b in binaries]
    names = sims.labels(infos)
    rows = {n: [] for n in names}
    for seed in range(1, args.seeds + 1):
        # Alternate the order so that a slow spell of the machine hits both.
        order = (True, False) if seed % 2 else (False, True)
        pairs = list(zip(names, binaries, strict=True)) if seed % 2 else list(zip(names, binaries, strict=True))[::-1]
        runs = {}
        for agents in order:
            for name, sim in pairs:
                runs[name, agents] = run(seed, agents, sim)
        for name in names:
            (on_s, on_ev, on_sent, stamped), (off_s, off_ev, off_sent, _) = runs[name, True], runs[name, False]
            rows[name].append(
                {
                    "seed": seed,
                    "agents_wall_s": on_s,
                    "agents_events": on_ev,
                    "agents_sent": on_sent,
                    "stamped": stamped,
                    "none_wall_s": off_s,
                    "none_events": off_ev,
                    "none_sent": off_sent,
                }
            )
            prefix = f"{name}: " if len(names) > 1 else ""
            print(
                f"{prefix}seed {seed}: agents {on_s:.2f} s ({on_ev} events, {on_sent} packets, {stamped} stamps)  "
                f"none {off_s:.2f} s ({off_ev} events, {off_sent} packets)  ratio {on_s / off_s:.3f}",
                flush=True,
            )
    for name in names:
        on_total = sum(r["agents_wall_s"] for r in rows[name])
        off_total = sum(r["none_wall_s"] for r in rows[name])
        prefix = f"{name}: " if len(names) > 1 else ""
        print(
            f"{prefix}total wall-time ratio agents/none {on_total / off_total:.3f} (bound 1.15); "
            f"wall time agents {on_total:.2f} s + none {off_total:.2f} s = {on_total + off_total:.2f} s"
        )
    sims.write_json(args.json, "latp_agent_overhead", infos, names, runs=rows)


if __name__ == "__main__":
    main()
