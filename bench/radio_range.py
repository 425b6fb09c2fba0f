"""Radio-range check of the ns2-80211b preset through mantra-sim alone (any binary):

reception: two nodes d metres apart, CBR 80 kb/s from node 0 to node 1, t = 1..10 s
    (tests/test_wireless.py's check): packets received at d = 240..260 m.
carrier sense: two one-hop pairs side by side, receiver 1 at x = 0, sender 1 at 100,
    sender 2 at 100 + d, receiver 2 at 200 + d, both senders saturated (CBR 2 Mb/s,
    t = 1..20 s). Only the sender-sender distance d crosses 550 m over the tested
    distances (every receiver is more than 600 m from the other pair's sender), so when
    the senders sense each other (d < 550 m) they share the medium (each about half of a
    lone pair's throughput), and beyond they send at once (each a full pair's).

    PYTHONPATH=python .venv/bin/python bench/radio_range.py --sim A [--sim B] [--out FILE.json]
"""

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, "bench")
import sims  # noqa: E402
from mantra.simulator import run_spec  # noqa: E402

RX_DISTANCES = [100, 240, 249, 250, 251, 260, 300]
CS_DISTANCES = [300, 500, 540, 545, 549, 551, 555, 560, 600]


def reception(d, sim):
    r = run_spec(
        {
            "duration": 10,
            "seed": 1,
            "topology": {"kind": "positions", "positions": [[0, 0], [d, 0]]},
            "flows": [{"protocol": "cbr", "src": 0, "dst": 1, "start": 1, "rate": "80kbps"}],
        },
        sim,
    )
    f = r["flows"][0]
    return {"sent": f["sent"], "received": f["received"]}


def sensing(d, sim):
    r = run_spec(
        {
            "duration": 20,
            "seed": 1,
            "topology": {"kind": "positions", "positions": [[0, 0], [100, 0], [100 + d, 0], [200 + d, 0]]},
            "flows": [
                {"protocol": "cbr", "src": 1, "dst": 0, "start": 1, "rate": "2Mbps"},
                {"protocol": "cbr", "src": 2, "dst": 3, "start": 1, "rate": "2Mbps"},
            ],
        },
        sim,
    )
    return {"pair_kbps": [round(f["throughput_kbps"], 1) for f in r["flows"]]}


def main():
    ap = argparse.ArgumentParser()
    sims.add_argument(ap)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    binaries = sims.resolve(args)
    infos = [sims.describe(b) for b in binaries]
    names = sims.labels(infos)
    doc = {"sims": [dict(i, label=n) for i, n in zip(infos, names, strict=True)], "reception": {}, "sensing": {}}
    for d in RX_DISTANCES:
        for n, b in zip(names, binaries, strict=True):
            doc["reception"].setdefault(n, {})[d] = reception(d, b)
    for d in CS_DISTANCES:
        for n, b in zip(names, binaries, strict=True):
            doc["sensing"].setdefault(n, {})[d] = sensing(d, b)
    print("reception: CBR 80 kb/s over one link of d metres, packets received / sent (t = 1..10 s)\n")
    print("| d (m) | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for d in RX_DISTANCES:
        print(
            f"| {d} | "
            + " | ".join(f"{doc['reception'][n][d]['received']} / {doc['reception'][n][d]['sent']}" for n in names)
            + " |"
        )
    print("\ncarrier sense: two saturated one-hop pairs whose senders are d metres apart, kb/s of each pair\n")
    print("| d (m) | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for d in CS_DISTANCES:
        print(
            f"| {d} | "
            + " | ".join(" + ".join(f"{x:.0f}" for x in doc["sensing"][n][d]["pair_kbps"]) for n in names)
            + " |"
        )
    if args.out:
        args.out.write_text(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
