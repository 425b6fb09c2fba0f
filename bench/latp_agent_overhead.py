"""Cost of the LATP node agents: a 10-hop chain (400 s, Table 1 radio) carrying
one LATP flow whose media source is capped at 80 kb/s, well below what the
chain carries, run with the agents on every node (busyness meter, MAC
throughput meter, per-packet stamping in the interface queue) and with
`latp_agent: false`. The cap makes both runs send the same packets, so the
wall-time ratio is the agents' own cost; the issue's bound is at most 1.15.

    make bench        (or: PYTHONPATH=python .venv/bin/python bench/latp_agent_overhead.py [--seeds N])
"""
import argparse

from mantra.simulator import run_spec

HOPS = 10
BASE = {
    "duration": 400,
    "radio": {"preset": "ns2-80211b", "cs_range": 500, "queue": 25},
    "topology": {"kind": "chain", "hops": HOPS, "spacing": 200},
    "flows": [{"protocol": "latp", "src": 0, "dst": HOPS, "start": 10, "params": {"source_rate_bps": 80000}}],
}


def run(seed, agents):
    r = run_spec(dict(BASE, seed=seed, latp_agent=agents))
    f = r["flows"][0]
    stamped = sum(a["latp_stamped"] for a in r.get("latp_agents", []))
    return r["provenance"]["wall_s"], r["provenance"]["events"], f["sent"], stamped


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()
    on_total = off_total = 0.0
    for seed in range(1, args.seeds + 1):
        # Alternate the order so that a slow spell of the machine hits both.
        order = (True, False) if seed % 2 else (False, True)
        runs = {agents: run(seed, agents) for agents in order}
        (on_s, on_ev, on_sent, stamped), (off_s, off_ev, off_sent, _) = runs[True], runs[False]
        on_total += on_s
        off_total += off_s
        print(f"seed {seed}: agents {on_s:.2f} s ({on_ev} events, {on_sent} packets, {stamped} stamps)  "
              f"none {off_s:.2f} s ({off_ev} events, {off_sent} packets)  ratio {on_s / off_s:.3f}", flush=True)
    print(f"total wall-time ratio agents/none {on_total / off_total:.3f} (bound 1.15)")


if __name__ == "__main__":
    main()
