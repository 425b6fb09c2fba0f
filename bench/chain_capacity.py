"""Chain capacity: the best fixed CBR rate at low delay on 1-, 4- and 7-hop chains.

Each chain (200 m spacing, ns2-80211b radio, AODV) carries one CBR flow from node 0 to the
last node, 1000-byte packets, from t = 1 s to the end of a 60-s run. Delay, loss and
throughput count the packets sent from t = 5 s on (the spec's measurement window): setting up
the first route along the chain loses about a second's worth of packets (on ns-3.37 about 2 %
of a 7-hop run's at any rate), a start-up cost and not the chain's capacity.
That start-up loss is reported apart (`startup_lost`, from the per-second series).
Every rate of the chain's LADDER runs on every seed and every binary.

A rate is "at low delay" when, over the seeds, its mean one-way delay (the mean of the
seeds' means) is below 100 ms and its loss (1 - received/sent, summed over the seeds) is
below 1 %. The chain's capacity at low delay is the highest ladder rate that is at low delay
together with every lower rate of the ladder; the next step is the ladder rate just above it,
the first that is not. Per seed the same rule gives one knee per seed, the run-to-run spread.

    make bench   (or: PYTHONPATH=python .venv/bin/python bench/chain_capacity.py
                      [--sim PATH ...] [--seeds N] [--hops 1 4 7] [--out FILE.json])

With several --sim the binaries run alternately, point by point, on the same seeds.
Writes all points to the JSON file (default results/bench/chain_capacity.json) and prints
markdown tables; the progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import sims
from mantra.simulator import ROOT, run_spec

# kb/s. 10-kb/s steps around the knees measured on ns-3.37 when the project began
# (1 hop about 1.23 Mb/s, 4 hops 450, 7 hops 400), 50 kb/s and coarser elsewhere.
LADDER = {
    1: [
        600,
        800,
        1000,
        1100,
        1150,
        1200,
        1230,
        1250,
        1280,
        1300,
        1320,
        1340,
        1350,
        1360,
        1370,
        1380,
        1390,
        1400,
        1450,
        1500,
        1600,
        1700,
    ],
    4: [200, 300, 350, 380, 400, 410, 420, 430, 440, 450, 460, 470, 480, 490, 500, 525, 550, 600, 650],
    7: [150, 250, 300, 340, 360, 370, 380, 390, 400, 410, 420, 430, 440, 450, 475, 500, 550, 600],
}
DURATION_S = 60
START_S = 1
MEASURE_FROM_S = 5
MAX_DELAY_MS = 100.0
MAX_LOSS = 0.01


def spec(hops: int, rate_kbps: int, seed: int) -> dict:
    return {
        "duration": DURATION_S,
        "seed": seed,
        "radio": "ns2-80211b",
        "routing": "aodv",
        "topology": {"kind": "chain", "hops": hops, "spacing": 200},
        "measure": {"from": MEASURE_FROM_S},
        "flows": [
            {"protocol": "cbr", "src": 0, "dst": hops, "start": START_S, "rate": rate_kbps * 1000, "packet_size": 1000}
        ],
    }


def point(result: dict) -> dict:
    f = result["flows"][0]
    d = f["delay_ms"] or {}
    s = f["series"]
    width = s["t"][1] - s["t"][0] if len(s["t"]) > 1 else 1.0
    early = [i for i, t in enumerate(s["t"]) if t <= MEASURE_FROM_S]
    startup_lost = round(sum(s["tx_kbps"][i] - s["rx_kbps"][i] for i in early) * width / 8)  # 1000-byte packets
    return {
        "startup_lost": startup_lost,
        "loss_causes": f.get("loss_causes"),
        "sent": f["sent"],
        "received": f["received"],
        "plr": f["plr"],
        "delay_ms": d.get("mean"),
        "delay_p95_ms": d.get("p95"),
        "throughput_kbps": f["throughput_kbps"],
        "drops": result["drops"],
        "wall_s": result["provenance"]["wall_s"],
        "events": result["provenance"]["events"],
        "ns3_version": result["provenance"]["ns3_version"],
    }


def aggregate(runs: list[dict]) -> dict:
    """One rate over its seeds."""
    sent, received = sum(r["sent"] for r in runs), sum(r["received"] for r in runs)
    delays = [r["delay_ms"] if r["delay_ms"] is not None else float("inf") for r in runs]
    return {
        "seeds": len(runs),
        "delay_ms": statistics.fmean(delays),
        "delay_ms_min": min(delays),
        "delay_ms_max": max(delays),
        "loss": 1 - received / sent if sent else 1.0,
        "throughput_kbps": statistics.fmean(r["throughput_kbps"] for r in runs),
        "drops": {k: sum(r["drops"][k] for r in runs) for k in runs[0]["drops"]},
        "loss_causes": {k: sum((r["loss_causes"] or {}).get(k, 0) for r in runs) for k in ("cong", "cherr", "rtchg")},
        "startup_lost": sum(r["startup_lost"] for r in runs),
        "wall_s": sum(r["wall_s"] for r in runs),
    }


def low_delay(a: dict) -> bool:
    return a["delay_ms"] < MAX_DELAY_MS and a["loss"] < MAX_LOSS


def knee(rates: list[int], aggs: dict[int, dict]) -> tuple[int | None, int | None]:
    """(highest rate at low delay with every lower rate, the next rate) of one ladder."""
    best = None
    for rate in rates:
        if not low_delay(aggs[rate]):
            return best, rate
        best = rate
    return best, None


def fmt_rate(kbps: int | None) -> str:
    if kbps is None:
        return "-"
    return f"{kbps / 1000:.2f} Mb/s" if kbps >= 1000 else f"{kbps} kb/s"


def fmt_ms(ms: float) -> str:
    return "∞" if ms == float("inf") else f"{ms:.0f} ms" if ms >= 10 else f"{ms:.1f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sims.add_argument(ap)
    ap.add_argument("--seeds", type=int, default=3, help="seeds 1..N (default 3)")
    ap.add_argument("--hops", type=int, nargs="+", default=sorted(LADDER), choices=sorted(LADDER))
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "bench" / "chain_capacity.json")
    args = ap.parse_args()
    binaries = sims.resolve(args)
    infos = [sims.describe(b) for b in binaries]
    names = sims.labels(infos)
    points = []
    began = time.perf_counter()
    total = sum(len(LADDER[h]) for h in args.hops) * args.seeds * len(binaries)
    for hops in args.hops:
        for rate in LADDER[hops]:
            for seed in range(1, args.seeds + 1):
                # Alternate which binary goes first, so neither always follows the other.
                order = list(enumerate(binaries))
                if (seed + rate // 10) % 2 == 0:
                    order.reverse()
                for i, sim in order:
                    p = {
                        "sim": names[i],
                        "hops": hops,
                        "rate_kbps": rate,
                        "seed": seed,
                        **point(run_spec(spec(hops, rate, seed), sim)),
                    }
                    points.append(p)
                    print(
                        f"[{len(points)}/{total}] {names[i]} hops {hops} rate {rate} seed {seed}: "
                        f"delay {fmt_ms(p['delay_ms'] if p['delay_ms'] is not None else float('inf'))} "
                        f"loss {p['plr']:.3f} thr {p['throughput_kbps']:.0f} drops {p['drops']} "
                        f"wall {p['wall_s']:.2f} s",
                        file=sys.stderr,
                        flush=True,
                    )

    summary = []
    for name in names:
        for hops in args.hops:
            rates = LADDER[hops]
            runs = {
                r: [p for p in points if p["sim"] == name and p["hops"] == hops and p["rate_kbps"] == r] for r in rates
            }
            aggs = {r: aggregate(runs[r]) for r in rates}
            best, nxt = knee(rates, aggs)
            per_seed = {}
            for seed in range(1, args.seeds + 1):
                one = {r: aggregate([p for p in runs[r] if p["seed"] == seed]) for r in rates}
                per_seed[seed] = knee(rates, one)[0]
            summary.append(
                {
                    "sim": name,
                    "hops": hops,
                    "best_kbps": best,
                    "next_kbps": nxt,
                    "best": aggs.get(best),
                    "next": aggs.get(nxt),
                    "knee_per_seed": per_seed,
                    "rates": {r: aggs[r] for r in rates},
                }
            )
    doc = {
        "bench": "chain_capacity",
        "duration_s": DURATION_S,
        "start_s": START_S,
        "seeds": args.seeds,
        "criteria": {"max_mean_delay_ms": MAX_DELAY_MS, "max_loss": MAX_LOSS},
        "ladder_kbps": LADDER,
        "sims": [dict(info, label=n) for info, n in zip(infos, names, strict=True)],
        "points": points,
        "summary": summary,
        "bench_wall_s": time.perf_counter() - began,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1))

    print(
        f"chain capacity at low delay (mean delay < {MAX_DELAY_MS:.0f} ms, loss < {MAX_LOSS:.0%}), "
        f"seeds 1..{args.seeds}, {DURATION_S} s runs; all points in {args.out}\n"
    )
    head = (
        "| hops | "
        + " | ".join(f"{n}: best rate | delay (seed range) | knee per seed | next step: delay, loss" for n in names)
        + " |"
    )
    print(head)
    print("|---|" + "---|---|---|---|" * len(names))
    for hops in args.hops:
        cells = []
        for name in names:
            s = next(x for x in summary if x["sim"] == name and x["hops"] == hops)
            b, n = s["best"], s["next"]
            cells.append(fmt_rate(s["best_kbps"]))
            cells.append(
                f"{fmt_ms(b['delay_ms'])} ({fmt_ms(b['delay_ms_min'])}–{fmt_ms(b['delay_ms_max'])})" if b else "-"
            )
            cells.append(", ".join(fmt_rate(k) for k in s["knee_per_seed"].values()))
            cells.append(f"{fmt_rate(s['next_kbps'])} → {fmt_ms(n['delay_ms'])}, {n['loss']:.1%}" if n else "-")
        print(f"| {hops} | " + " | ".join(cells) + " |")
    print(
        f"\nevery rate: mean delay over seeds, loss and throughput from t = {MEASURE_FROM_S} s; whole-run drops "
        "summed over seeds (ifq/mac_retry/no_route); packets lost before the window (start-up)\n"
    )
    print("| hops | kb/s | " + " | ".join(f"{n}: delay | loss | kb/s | drops | start-up lost" for n in names) + " |")
    print("|---|---|" + "---|---|---|---|---|" * len(names))
    for hops in args.hops:
        for rate in LADDER[hops]:
            cells = []
            for name in names:
                a = next(x for x in summary if x["sim"] == name and x["hops"] == hops)["rates"][rate]
                d = a["drops"]
                cells += [
                    fmt_ms(a["delay_ms"]),
                    f"{a['loss']:.1%}",
                    f"{a['throughput_kbps']:.0f}",
                    f"{d['ifq']}/{d['mac_retry']}/{d['no_route']}",
                    str(a["startup_lost"]),
                ]
            print(f"| {hops} | {rate} | " + " | ".join(cells) + " |")
    print(
        "\nwall time of the simulations: "
        + ", ".join(f"{n} {sum(p['wall_s'] for p in points if p['sim'] == n):.1f} s" for n in names)
    )


if __name__ == "__main__":
    main()
