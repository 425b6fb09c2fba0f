"""Cost of the TF-WMFC paper's Fig. 8 run (192 flows on a 128 Mb/s RED bottleneck: 32 ECN-TCP
from 0 s, 64 TF-WMFC from 10 s, 96 ECN-TCP from 100 s) against a bare ns-3 run of the same
network (the same scenario code builds it) whose 192 flows are ns-3's own OnOff CBR sources at
the fair share, 128/192 Mb/s, with the same start times, into ns-3's PacketSink: no mantra app,
tag, trace or metric. Reports, for each, the wall time per simulated second and the events per
second, and their ratios (mantra / bare), measured in one run of this script.

    make bench   (or: PYTHONPATH=python .venv/bin/python bench/fig8_cost.py [--duration S] [--json FILE])
"""

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

import yaml

from mantra.simulator import ROOT, run_spec, sim_binary

CAMPAIGN = ROOT / "campaigns" / "tfwmfc" / "transient.yaml"


def fig8_spec(duration: float) -> dict:
    spec = yaml.safe_load(CAMPAIGN.read_text())["base"]
    spec = dict(spec, seed=1, duration=duration)
    spec.pop("phases", None)
    if duration < 200:  # a shorter run keeps the joins at the same share of it
        spec["flows"][1]["start"] = 10 * duration / 200
        spec["flows"][2]["start"] = 100 * duration / 200
    return spec


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--duration", type=float, default=200, help="simulated seconds (the paper's figure: 200)")
    ap.add_argument("--json", help="write both runs' numbers here")
    args = ap.parse_args()
    spec = fig8_spec(args.duration)
    flows = sum(f.get("count", 1) for f in spec["flows"])
    mantra = run_spec(spec)["provenance"]
    bare_bin = Path(sim_binary()).with_name("mantra-bare-cbr")
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(spec, f)
        f.flush()
        out = subprocess.run([str(bare_bin), f.name, str(128e6 / flows)], check=True, capture_output=True, text=True)
    bare = json.loads(out.stdout)
    rows = {}
    for name, run in (("mantra", mantra), ("bare ns-3 CBR", bare)):
        rows[name] = {
            "wall_s": run["wall_s"],
            "events": run["events"],
            "wall_per_sim_s": run["wall_s"] / args.duration,
            "events_per_s": run["events"] / run["wall_s"],
        }
        r = rows[name]
        print(
            f"{name}: {r['wall_s']:.1f} s wall for {args.duration:g} s simulated "
            f"({r['wall_per_sim_s']:.3f} s per simulated s), {r['events']} events, "
            f"{r['events_per_s'] / 1e3:.0f} k events/s"
        )
    m, b = rows["mantra"], rows["bare ns-3 CBR"]
    print(
        f"mantra / bare: wall per simulated second {m['wall_per_sim_s'] / b['wall_per_sim_s']:.2f}, "
        f"events {m['events'] / b['events']:.2f}, wall per event "
        f"{(m['wall_s'] / m['events']) / (b['wall_s'] / b['events']):.2f}"
    )
    if args.json:
        Path(args.json).write_text(json.dumps({"duration_s": args.duration, "flows": flows, **rows}, indent=2))


if __name__ == "__main__":
    main()
