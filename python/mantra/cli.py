"""The mantra command line.

mantra sim SPEC [--set k=v ...] [--out FILE] [--json]     one run
mantra run CAMPAIGN... [--quick] [--seeds N] [--workers N] [--scheduler tcp://HOST:PORT] [--out DIR]
mantra status [DIR ...]                                   what each results directory holds
mantra report DIR [--ledger]                              write DIR/report.html (and the claims' summaries)
mantra reproduce PAPER [--quick] [--seeds N] [--workers N] [--scheduler ADDR]
mantra ledger                                             write docs/claims.md
mantra smoke [PAPER|CAMPAIGN.yaml ...]                    one run of each campaign (CI)
mantra udp-parity [--seeds N]                             mantra-udp through mantra-relay against mantra-sim
mantra udp-video [--seeds N]                              a live video the same way, scored by the player
mantra emu-check [--hops N] [--seeds N]                   ping and a light mantra-udp flow in mantra-emu (root)
mantra emu-parity [--hops N] [--seeds N] [--flow-s S]     TFRC and LATP through mantra-emu against mantra-sim (root)
mantra emu-limits                                         the largest chain and MANET real time holds (root)
mantra emu-video [--seeds N]                              a live video across the moving 30-node network (root)
mantra video-encode VIDEO.yaml --out FILE.json            the file `mantra-udp send --video` reads
mantra video-score SENDER.json RECEIVER.json [--out FILE] a live video's quality from mantra-udp's results
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mantra.errors import InputError, SpecKeyError
from mantra.simulator import ROOT, SimulationFailed, run_spec, with_video_quality
from mantra.spec import build_spec
from mantra.spec_check import one_line
from mantra.table import format_result

# Each campaign's claim summary, written by `report --ledger` and `reproduce` (lab/ledger.py).
LEDGER_RUNS = ROOT / "docs" / "ledger" / "runs"

if TYPE_CHECKING:  # the lab is imported where a command needs it
    from mantra.lab.campaign import Campaign


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


def _load(paths: list[Path], args: argparse.Namespace) -> list[Campaign]:
    from mantra.lab.load import load_campaign

    if args.workers is not None and args.workers < 1:
        raise InputError("--workers: must be at least 1")
    campaigns = [load_campaign(p, quick=args.quick, first_seeds=args.seeds) for p in paths]
    names = [c.name for c in campaigns]
    if len(set(names)) != len(names):
        raise InputError(f"campaign {next(n for n in names if names.count(n) > 1)} is named twice")
    return campaigns


def _run(campaigns: list[Campaign], out: Path, args: argparse.Namespace) -> int:
    from mantra.lab.runner import run_campaigns

    tally = run_campaigns(campaigns, out, workers=args.workers, scheduler=args.scheduler)
    print(f"{out}: {tally.ran} ran, {tally.failed} failed", file=sys.stderr)
    for failure in tally.failures:
        print(f"mantra: run failed: {failure}", file=sys.stderr)
    return 1 if tally.failed else 0


def cmd_run(args: argparse.Namespace) -> int:
    campaigns = _load([Path(p) for p in args.campaign], args)
    if args.out:
        out = Path(args.out)
    elif len(campaigns) == 1:
        out = Path("results") / (campaigns[0].name + ("-quick" if args.quick else ""))
    else:
        raise InputError("several campaigns: name their results directory with --out")
    code = _run(campaigns, out, args)
    print(f"results: {out}  (report: ./mantra report {out})")
    return code


def cmd_status(args: argparse.Namespace) -> int:
    from mantra.lab.status import status_lines

    dirs = [Path(d) for d in args.dirs] or sorted(p.parent for p in Path("results").glob("*/index.sqlite"))
    if not dirs:
        print("no results directories under results/")
    for line in status_lines(dirs):
        print(line)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from mantra.lab.report import write_report

    print(write_report(args.dir, title=args.title, ledger=LEDGER_RUNS if args.ledger else None))
    return 0


def cmd_ledger(args: argparse.Namespace) -> int:
    from mantra.lab.ledger import build_ledger

    print(build_ledger(ROOT))
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    from mantra.lab.diff import diff_stores, format_diff

    try:
        d = diff_stores(Path(args.old), Path(args.new), args.ignore, args.read)
    except ValueError as e:
        raise InputError(str(e)) from None
    print(format_diff(d))
    return 1 if d.differ else 0


def reproducible() -> list[str]:
    """What `reproduce` can run: the folders of campaigns/ that hold campaigns."""
    return sorted(p.name for p in (ROOT / "campaigns").iterdir() if p.is_dir() and any(p.glob("*.yaml")))


def cmd_reproduce(args: argparse.Namespace) -> int:
    from mantra.lab.report import write_report

    have = reproducible()
    paths = sorted((ROOT / "campaigns" / args.paper).glob("*.yaml"))
    if not paths:
        raise InputError(
            f"reproduce {args.paper}: no campaigns under campaigns/{args.paper}/ (have: {', '.join(have)})"
        )
    out = Path(args.out) if args.out else Path("results") / (args.paper + ("-quick" if args.quick else ""))
    code = _run(_load(paths, args), out, args)
    subset = f" (first {args.seeds} seeds)" if args.seeds else ""
    title = f"{args.paper}{' (quick)' if args.quick else ''}{subset}"
    print(f"report: {write_report(out, title=title, ledger=LEDGER_RUNS)}")
    print("ledger: the campaigns' claims are in docs/ledger/runs/; ./mantra ledger writes docs/claims.md")
    return code


def cmd_udp_parity(args: argparse.Namespace) -> int:
    from mantra.lab.udp_parity import run_parity

    out = Path(args.out or "results/udp-parity")
    print(run_parity(out, args.seeds, args.workers), end="")
    print(f"results: {out}/parity.md", file=sys.stderr)
    return 0


def cmd_udp_video(args: argparse.Namespace) -> int:
    from mantra.lab.udp_video import run_udp_video

    out = Path(args.out or "results/udp-video")
    print(run_udp_video(out, args.seeds, args.workers), end="")
    print(f"results: {out}/video.md", file=sys.stderr)
    return 0


def cmd_emu_check(args: argparse.Namespace) -> int:
    from mantra.lab.emu_check import run_low_load

    out = Path(args.out or "results/emu-check")
    print(run_low_load(args.hops, args.seeds, out), end="")
    print(f"results: {out}/low-load.md", file=sys.stderr)
    return 0


def cmd_emu_parity(args: argparse.Namespace) -> int:
    from mantra.lab.emu_check import run_parity

    out = Path(args.out or "results/emu-parity")
    print(run_parity(args.hops, args.seeds, args.flow_s, out), end="")
    print(f"results: {out}/parity.md", file=sys.stderr)
    return 0


def cmd_emu_limits(args: argparse.Namespace) -> int:
    from mantra.lab.emu_limits import run_limits

    out = Path(args.out or "results/emu-limits")
    print(run_limits(out), end="")
    print(f"results: {out}/limits.md", file=sys.stderr)
    return 0


def cmd_emu_video(args: argparse.Namespace) -> int:
    from mantra.lab.emu_video import run_emu_video

    out = Path(args.out or "results/emu-video")
    print(run_emu_video(args.seeds, out), end="")
    print(f"results: {out}/video.md", file=sys.stderr)
    return 0


def _read_json(path: str, what: str) -> dict[str, Any]:
    try:
        value = json.loads(Path(path).read_text())
    except OSError as e:
        raise InputError(f"{what} {path}: {e.strerror}") from None
    except ValueError as e:
        raise InputError(f"{what} {path}: not JSON ({e})") from None
    if not isinstance(value, dict):
        raise InputError(f"{what} {path}: must be a JSON object")
    return value


def cmd_video_encode(args: argparse.Namespace) -> int:
    import yaml

    from mantra.media.udp_video import write_video_file

    try:
        video = yaml.safe_load(Path(args.video).read_text())
    except OSError as e:
        raise InputError(f"video {args.video}: {e.strerror}") from None
    except yaml.YAMLError as e:
        raise InputError(f"video {args.video}: not YAML ({one_line(str(e))})") from None
    try:
        out = write_video_file(video, args.packet_size, Path(args.out))
    except SpecKeyError as e:
        if e.key == "video.packet_size":
            raise InputError(f"--packet-size {args.packet_size}: {e.message}") from None
        raise InputError(f"video {args.video}: {e.text}") from None
    except OSError as e:
        raise InputError(f"--out {args.out}: cannot write it ({e.strerror})") from None
    print(f"{out} and {out.with_suffix('.bin')}: send with mantra-udp send HOST:PORT --video {out}")
    return 0


def cmd_video_score(args: argparse.Namespace) -> int:
    from mantra.media.udp_video import udp_media_result

    merged = udp_media_result(_read_json(args.sender, "sender"), _read_json(args.receiver, "receiver"))
    result = with_video_quality(merged)
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    flow = result["flows"][0]
    video, media = flow["video"], flow["media"]
    print(
        f"{flow['protocol']}: {flow['throughput_kbps']:.1f} kb/s, loss rate {flow['plr']:.4f}; video: "
        f"mean PSNR {video['mean_psnr_db']:.2f} dB, frozen share {video['frozen_share']:.3f}, "
        f"MOS {video['mean_mos']:.2f}, {sum(f[1] >= 0 for f in media['frames'])} of {len(media['frames'])} frames whole"
    )
    return 0


def cmd_smoke(args: argparse.Namespace) -> int:
    from mantra.lab.located_yaml import load_located
    from mantra.lab.smoke import smoke_profile

    paths: list[Path] = []
    for name in args.targets or reproducible():
        folder = ROOT / "campaigns" / name
        if name.endswith((".yaml", ".yml")):
            paths.append(Path(name))
        elif folder.is_dir():
            paths += sorted(folder.glob("*.yaml"))
        else:
            raise InputError(
                f"smoke {name}: neither a campaign file nor a folder of campaigns/ (have: {', '.join(reproducible())})"
            )
    campaigns = [smoke_profile(load_located(p)) for p in paths]
    return _run(campaigns, Path(args.out or "results/smoke"), args)


def _execution_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quick", action="store_true", help="use each campaign's quick profile (fewer seeds, shorter runs)")
    p.add_argument(
        "--seeds", type=int, metavar="N", help="run only the first N seeds of the profile (a subset the report states)"
    )
    p.add_argument("--workers", type=int, metavar="N", help="local parallel runs (default: one per core)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="run on this Dask distributed scheduler's workers")
    p.add_argument("--out", metavar="DIR", help="results directory (default results/NAME[-quick])")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mantra", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("sim", help="run one simulation from a run spec")
    sim.add_argument("spec", help="run spec, YAML or JSON")
    sim.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="override a dotted key, e.g. mobility.speed=10"
    )
    sim.add_argument("--out", metavar="FILE", help="write the result JSON here")
    sim.add_argument("--json", action="store_true", help="print the result JSON on stdout (table on stderr)")
    sim.set_defaults(func=cmd_sim)

    run = sub.add_parser("run", help="run what is missing of one or more campaigns")
    run.add_argument("campaign", nargs="+", help="campaign YAML files")
    _execution_options(run)
    run.set_defaults(func=cmd_run)

    status = sub.add_parser("status", help="runs finished, failed and missing per campaign")
    status.add_argument("dirs", nargs="*", metavar="DIR", help="results directories (default: all under results/)")
    status.set_defaults(func=cmd_status)

    report = sub.add_parser("report", help="write DIR/report.html from a results directory")
    report.add_argument("dir", metavar="DIR")
    report.add_argument("--title", help="the page's title (default: the directory's name)")
    report.add_argument(
        "--ledger", action="store_true", help="also write each campaign's claim summary into docs/ledger/runs/"
    )
    report.set_defaults(func=cmd_report)

    diff = sub.add_parser("diff", help="compare two results directories run by run (same spec and seed: same result?)")
    diff.add_argument("old", metavar="DIR")
    diff.add_argument("new", metavar="DIR")
    diff.add_argument(
        "--ignore",
        metavar="KEY",
        action="append",
        default=[],
        help="a dotted result key to leave out, `*` for any one part (an intended difference); repeatable",
    )
    diff.add_argument(
        "--read",
        metavar="KEY=OLD:NEW",
        action="append",
        default=[],
        help="read spec value OLD at dotted KEY as NEW in both stores (empty NEW: the key left out), "
        "to pair runs across a rename; repeatable",
    )
    diff.set_defaults(func=cmd_diff)

    reproduce = sub.add_parser("reproduce", help="run a paper's campaigns (campaigns/PAPER/) and write the report")
    reproduce.add_argument(
        "paper", metavar="PAPER", help=f"one of: {', '.join(reproducible())} (the folders of campaigns/)"
    )
    _execution_options(reproduce)
    reproduce.set_defaults(func=cmd_reproduce)

    smoke = sub.add_parser("smoke", help="one run of each campaign's quick profile (CI): exit 1 if any fails")
    smoke.add_argument(
        "targets",
        nargs="*",
        metavar="PAPER|CAMPAIGN.yaml",
        help="folders of campaigns/ or campaign files (default: all)",
    )
    smoke.add_argument("--workers", type=int, metavar="N", help="local parallel runs (default: one per core)")
    smoke.add_argument("--out", metavar="DIR", help="results directory (default results/smoke)")
    smoke.set_defaults(func=cmd_smoke, scheduler=None)

    for name, what, func in (
        ("udp-parity", "mantra-udp", cmd_udp_parity),
        ("udp-video", "a live video over mantra-udp", cmd_udp_video),
    ):
        check = sub.add_parser(
            name, help=f"{what} through mantra-relay against mantra-sim on the same link (docs/udp.md)"
        )
        check.add_argument(
            "--seeds", type=int, default=5, metavar="N", help="seeds per protocol, each half (default 5)"
        )
        check.add_argument("--workers", type=int, metavar="N", help="parallel simulated runs (default: one per core)")
        check.add_argument("--out", metavar="DIR", help=f"results directory (default results/{name})")
        check.set_defaults(func=func)

    for name, what, func in (
        ("emu-check", "ping and a light mantra-udp flow across a chain", cmd_emu_check),
        ("emu-parity", "TFRC and LATP saturating a chain", cmd_emu_parity),
    ):
        emu = sub.add_parser(name, help=f"{what}, mantra-emu against mantra-sim (root; docs/emu.md)")
        emu.add_argument("--hops", type=int, default=4, metavar="N", help="the chain's hops (default 4)")
        emu.add_argument("--seeds", type=int, default=5, metavar="N", help="seeds, each run both ways (default 5)")
        emu.add_argument("--out", metavar="DIR", help=f"results directory (default results/{name})")
        if name == "emu-parity":
            emu.add_argument("--flow-s", type=float, default=60.0, metavar="S", help="each flow's length (default 60)")
        emu.set_defaults(func=func)

    limits = sub.add_parser("emu-limits", help="how far mantra-emu's real time holds (root; docs/performance.md)")
    limits.add_argument("--out", metavar="DIR", help="results directory (default results/emu-limits)")
    limits.set_defaults(func=cmd_emu_limits)

    emu_video = sub.add_parser("emu-video", help="a live video across the moving 30-node network in mantra-emu (root)")
    emu_video.add_argument("--seeds", type=int, default=5, metavar="N", help="seeds, each run both ways (default 5)")
    emu_video.add_argument("--out", metavar="DIR", help="results directory (default results/emu-video)")
    emu_video.set_defaults(func=cmd_emu_video)

    encode = sub.add_parser("video-encode", help="the file mantra-udp send --video reads, from a run spec's video keys")
    encode.add_argument("video", metavar="VIDEO.yaml", help="a flow's `video` keys (docs/run-spec.md)")
    encode.add_argument("--out", required=True, metavar="FILE.json", help="written with FILE.bin beside it")
    encode.add_argument(
        "--packet-size", type=int, default=1000, metavar="BYTES", help="the flow's packet_size (default 1000)"
    )
    encode.set_defaults(func=cmd_video_encode)

    score = sub.add_parser("video-score", help="a live video's quality from mantra-udp's two results")
    score.add_argument("sender", metavar="SENDER.json", help="mantra-udp send --video ... --result")
    score.add_argument("receiver", metavar="RECEIVER.json", help="mantra-udp recv --result")
    score.add_argument("--out", metavar="FILE", help="write the scored result (mantra-result/1) here")
    score.set_defaults(func=cmd_video_score)

    ledger = sub.add_parser(
        "ledger", help="write docs/claims.md: every paper claim, the campaign claims checking it, their last verdicts"
    )
    ledger.set_defaults(func=cmd_ledger)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parser().parse_args(argv)
    try:
        code: int = args.func(args)
        return code
    except InputError as e:
        print(f"mantra: {one_line(str(e), 2000)}", file=sys.stderr)  # one line, whatever a path or key holds
        return 2
    except KeyboardInterrupt:
        print("mantra: interrupted; finished runs are kept, run again to go on", file=sys.stderr)
        return 130
    except SimulationFailed as e:
        print(
            f"mantra: simulation failed ({e.returncode}): {e}\n  reproduce: ./mantra {shlex.join(argv)}",
            file=sys.stderr,
        )
        return 1
