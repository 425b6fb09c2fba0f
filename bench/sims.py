"""Which mantra-sim binaries a benchmark runs: `--sim PATH`, repeatable, default the
project's build (or MANTRA_SIM). With two or more, a benchmark runs them alternately
(A, B, A, B, ...), so a slow spell of the machine falls on all of them alike.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
from pathlib import Path

from mantra.execute import build_id
from mantra.simulator import sim_binary


def add_argument(ap: argparse.ArgumentParser) -> None:
    ap.add_argument(
        "--sim",
        action="append",
        type=Path,
        metavar="PATH",
        help="a mantra-sim binary (repeatable; default build/sim/mantra-sim or MANTRA_SIM)",
    )


def arguments(default_seeds: int = 3) -> argparse.Namespace:
    """A bench's command line: --seeds N, --json FILE (every run written there) and --sim."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=default_seeds)
    ap.add_argument("--json", help="write every run here")
    add_argument(ap)
    return ap.parse_args()


def resolve(args: argparse.Namespace) -> list[Path]:
    """The binaries, as absolute paths. MANTRA_SIM is dropped from the environment
    afterwards: mantra.execute would otherwise run it in place of every --sim."""
    sims = [p.resolve() for p in (args.sim or [sim_binary()])]
    for p in sims:
        if not p.is_file():
            raise SystemExit(f"{p}: no such mantra-sim")
    os.environ.pop("MANTRA_SIM", None)
    return sims


def describe(sim: Path) -> dict:
    """Path, build hash and ns-3 version (from `--version`, or the provenance of a
    one-second run for binaries without it)."""
    info = {"path": str(sim), "build": build_id(sim)}
    proc = subprocess.run([str(sim), "--version"], capture_output=True, text=True)
    if proc.returncode == 0 and proc.stdout.strip():
        info["version_text"] = proc.stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        spec, out = Path(tmp) / "s.json", Path(tmp) / "r.json"
        spec.write_text(
            json.dumps(
                {
                    "duration": 1,
                    "seed": 1,
                    "topology": {"kind": "p2p", "bandwidth": "2Mbps", "delay": "20ms"},
                    "flows": [{"protocol": "cbr", "src": 0, "dst": 1, "rate": 8000}],
                }
            )
        )
        subprocess.run([str(sim), str(spec), "--out", str(out)], check=True, capture_output=True)
        prov = json.loads(out.read_text())["provenance"]
    info["ns3_version"] = prov["ns3_version"]
    info["commit"] = prov["commit"]
    return info


def labels(infos: list[dict]) -> list[str]:
    """Short column names: "ns-3 3.37", or the path where versions repeat."""
    names = [f"ns-3 {i['ns3_version']}" for i in infos]
    return names if len(set(names)) == len(names) else [i["path"] for i in infos]


def write_json(path: str | None, bench: str, infos: list[dict], names: list[str], **data) -> None:
    """Writes a bench's raw numbers with the binaries they came from (no-op without a path)."""
    if path:
        with open(path, "w") as out:
            json.dump(
                {"bench": bench, "sims": [dict(i, label=n) for i, n in zip(infos, names, strict=True)], **data},
                out,
                indent=1,
            )
