"""The mantra command line: `mantra sim SPEC [--set k=v ...] [--out FILE] [--json]`."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from mantra.errors import InputError
from mantra.simulator import SimulationFailed, run_spec
from mantra.spec import build_spec
from mantra.table import format_result


def cmd_sim(args: argparse.Namespace) -> int:
    spec = build_spec(args.spec, args.set or [])
    result = run_spec(spec)
    if args.out:
        out = Path(args.out)
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(json.dumps(result, indent=1))
        tmp.replace(out)
    table = format_result(result, title=str(args.spec))
    if args.json:
        print(table, file=sys.stderr)
        json.dump(result, sys.stdout)
        print()
    else:
        print(table)
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mantra", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("sim", help="run one simulation from a run spec")
    sim.add_argument("spec", help="run spec, YAML or JSON")
    sim.add_argument("--set", action="append", metavar="KEY=VALUE", help="override a dotted key, e.g. mobility.speed=10")
    sim.add_argument("--out", metavar="FILE", help="write the result JSON here")
    sim.add_argument("--json", action="store_true", help="print the result JSON on stdout (table on stderr)")
    sim.set_defaults(func=cmd_sim)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except InputError as e:
        print(f"mantra: {e}", file=sys.stderr)
        return 2
    except SimulationFailed as e:
        print(f"mantra: simulation failed ({e.returncode}): {e}\n  reproduce: {' '.join(e.command)}", file=sys.stderr)
        return 1
