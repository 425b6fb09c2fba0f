"""Running campaigns: expand, check, skip what is done, run the rest, store each result.

Jobs run in a local thread pool (one mantra-sim per worker, default one per core) or,
with a scheduler address, on a Dask distributed cluster through its concurrent.futures
executor. Either way workers only run mantra-sim and hand back its output; this process
(the coordinator) is the only writer of the results directory.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from concurrent.futures import Executor, Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from tqdm import tqdm

from mantra import execute as execute_module
from mantra.errors import InputError, SpecKeyError
from mantra.execute import build_id, execute
from mantra.lab.campaign import Campaign, Job, expand, points
from mantra.lab.store import Store, run_key
from mantra.simulator import ROOT, sim_binary, sim_check, with_video_quality
from mantra.spec_check import check_spec


@dataclass
class Plan:
    """What one `mantra run` has to do for a campaign."""

    campaign: Campaign
    jobs: list[tuple[str, Job]]  # (key, job) for every grid point and seed
    to_run: list[tuple[str, Job]] = field(default_factory=list)
    done: int = 0
    recovered: int = 0


@dataclass
class Tally:
    ran: int = 0
    failed: int = 0
    failures: list[str] = field(default_factory=list)  # 'campaign key: why'


def check_specs(camp: Campaign, sim: Path) -> None:
    """Asks mantra-sim to validate one spec per grid point before anything runs; a spec
    it refuses is reported at the grid entry that set the key it names."""
    assert camp.doc is not None
    jobs = expand(camp)
    per_point = len(camp.seeds)
    for (point, sets, origin), job in zip(points(camp), jobs[::per_point], strict=True):
        try:
            check_spec(job.spec)  # first what JSON cannot carry (NaN, dates) and the ranges, as ./mantra sim does
            refused = sim_check(sim, job.spec)
        except SpecKeyError as e:
            refused = e
        if refused is None:
            continue
        named = refused.key.replace("[", ".").replace("]", "")  # flows[0].rate -> flows.0.rate
        place = next((origin[k] for k in sets if named == k or named.startswith(k + ".")), ("base",))
        raise camp.doc.error(place, f"at grid point {point}: mantra-sim refuses the spec: {refused.text}")


def reproduce_command(store: Store, key: str) -> str:
    """The command that reruns one job from its stored spec."""
    return f"./mantra sim {shlex.quote(str(store.spec_path(key)))}"


def plan(camp: Campaign, store: Store, build: str) -> Plan:
    p = Plan(camp, [(run_key(job.spec, build), job) for job in expand(camp)])
    status = store.status([k for k, _ in p.jobs])
    seen: set[str] = set()
    for key, job in p.jobs:
        if key in seen:
            continue  # two grid points that produce the same spec run once
        seen.add(key)
        if status.get(key) == "ok":
            p.done += 1
        elif status.get(key) is None and store.recover(key, job.seed, build):
            p.recovered += 1
        else:
            p.to_run.append((key, job))  # never run, or failed before: try again
    return p


def make_executor(workers: int, scheduler: str | None) -> tuple[Executor, Any]:
    """A local thread pool, or a Dask cluster's executor (and its client, to close)."""
    if scheduler is None:
        return ThreadPoolExecutor(max_workers=workers), None
    try:
        import cloudpickle
        from distributed import Client
    except ImportError:
        raise InputError("--scheduler needs dask distributed; run 'make setup'") from None
    cloudpickle.register_pickle_by_value(execute_module)  # see _run: workers need no mantra package
    try:
        client = Client(scheduler, timeout=20)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as e:
        raise InputError(f"--scheduler {scheduler}: cannot reach the Dask scheduler: {e}") from None
    return client.get_executor(pure=False), client  # type: ignore[no-untyped-call]


def run_campaigns(
    campaigns: list[Campaign],
    out: Path,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool = True,
) -> Tally:
    """Runs what is missing of each campaign into `out`; returns what ran and failed."""
    sim = sim_binary()
    build = build_id(sim)
    for camp in campaigns:
        check_specs(camp, sim)
    store = Store(out)
    store.acquire()
    tally = Tally()
    try:
        plans = [plan(camp, store, build) for camp in campaigns]
        for p in plans:
            store.set_jobs(p.campaign.name, [(k, j.point, j.seed) for k, j in p.jobs])
            store.save_campaign(p.campaign.name, campaign_record(p.campaign, build))
            say(
                f"{p.campaign.name}: {len(p.jobs)} runs, {p.done} done, "
                f"{f'{p.recovered} recovered, ' if p.recovered else ''}{len(p.to_run)} to run",
                progress,
            )
        todo = [(key, job) for p in plans for key, job in p.to_run]
        if todo:
            _run(todo, store, sim, build, workers or os.cpu_count() or 1, scheduler, progress, tally)
    finally:
        store.close()
    return tally


def campaign_record(camp: Campaign, build: str) -> dict[str, Any]:
    """What a report needs to redraw the campaign as it ran."""
    assert camp.doc is not None
    return {
        "name": camp.name,
        "source": _relative(camp.source),
        "quick": camp.quick,
        "first_seeds": len(camp.seeds) if camp.seeds_of_profile else None,
        "build": build,
        # YAML keeps what JSON would not: numeric labels of a labelled axis stay numbers.
        "definition_yaml": yaml.safe_dump({**camp.doc.data, "base": camp.base_as_written}, sort_keys=False),
    }


def _relative(path: Path) -> str:
    path = path.resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _run(
    todo: list[tuple[str, Job]],
    store: Store,
    sim: Path,
    build: str,
    workers: int,
    scheduler: str | None,
    progress: bool,
    tally: Tally,
) -> None:
    executor, client = make_executor(workers, scheduler)
    tmp_root = str(store.tmp) if scheduler is None else None
    # Dask pickles a task with plain pickle when it can, which would name mantra.lab.execute
    # and make the scheduler and workers import mantra. A lambda cannot be pickled so, and
    # cloudpickle then ships it, and the module registered by value, whole.
    # Local threads also evaluate a run's video (its decode and scoring, in parallel like the
    # runs); Dask workers have no mantra package, so the coordinator does it for theirs.
    job_function = _execute_and_assess if client is None else (lambda *args: execute(*args))
    futures: dict[Future[dict[str, Any]], tuple[str, Job]] = {}
    bar = tqdm(
        total=len(todo),
        unit="run",
        disable=not progress,
        file=sys.stderr,
        smoothing=0.1,
        dynamic_ncols=True,
        mininterval=0.2 if sys.stderr.isatty() else 10,
    )
    try:
        for key, job in todo:
            store.write_spec(key, job.spec)
            futures[executor.submit(job_function, json.dumps(job.spec), str(sim), tmp_root)] = (key, job)
        for future in as_completed(list(futures)):
            key, job = futures.pop(future)
            _store_outcome(store, key, job, build, future, tally)
            bar.update(1)
            bar.set_postfix_str(f"failed {tally.failed}" if tally.failed else "", refresh=False)
    finally:
        bar.close()
        for future in futures:
            future.cancel()
        if client is None:
            executor.shutdown(wait=True, cancel_futures=True)
        else:
            executor.shutdown(wait=False)
            client.close()


def _store_outcome(store: Store, key: str, job: Job, build: str, future: Future[dict[str, Any]], tally: Tally) -> None:
    command = reproduce_command(store, key)
    try:
        out = future.result()
    except Exception as e:  # a worker lost, or an error inside the executor
        out = {"returncode": -1, "stderr": f"the executor failed: {type(e).__name__}: {e}", "host": "", "build": build}
    if out.get("result") is not None and out["build"] != build:
        out = {
            **out,
            "result": None,
            "returncode": -1,
            "stderr": f"the worker's mantra-sim is build {out['build']}, not {build}; "
            "rebuild it or point MANTRA_SIM at the same build",
        }
    if out.get("result") is not None:  # finished (exit 0, or a teardown fault after the result: kept)
        if "video_error" not in out:  # run by a Dask worker: evaluated here
            out["result"], out["video_error"] = _with_video(out["result"])
        if out["video_error"]:
            tally.failures.append(f"{job.campaign} {job.point} seed {job.seed}: {out['video_error']}")
        store.record_ok(key, job.seed, build, out["result"], out["host"])
        tally.ran += 1
        return
    store.record_failed(key, job.seed, build, out["returncode"], out["stderr"], command, out["host"])
    tally.failed += 1
    last = (out["stderr"].strip().splitlines() or [f"exit status {out['returncode']}"])[-1]
    tally.failures.append(f"{job.campaign} {job.point} seed {job.seed}: {last}\n  reproduce: {command}")


def _execute_and_assess(spec_text: str, sim_path: str, tmp_root: str | None) -> dict[str, Any]:
    """execute(), then the finished run's video evaluated (_with_video), in the worker thread."""
    out = execute(spec_text, sim_path, tmp_root)
    if out.get("result") is not None:
        out["result"], out["video_error"] = _with_video(out["result"])
    return out


def _with_video(result_text: str) -> tuple[str, str | None]:
    """The result with its delivered video's quality (simulator.with_video_quality), and the
    error if that failed: the finished run is kept then, the flow's `video` holding the error.
    A result without media comes back as it is."""
    if '"media"' not in result_text:
        return result_text, None
    result = json.loads(result_text)
    try:
        return json.dumps(with_video_quality(result)), None
    except Exception as e:  # noqa: BLE001 (a bug in the evaluation must not lose the run)
        message = f"video evaluation failed: {type(e).__name__}: {e}"
        for flow in result.get("flows", []):
            if isinstance(flow.get("media"), dict):
                flow["video"] = {"error": message}
        return json.dumps(result), message


def say(text: str, progress: bool) -> None:
    if progress:
        print(text, file=sys.stderr)
