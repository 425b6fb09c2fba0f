"""A campaign read and checked whole before anything runs: its grid, seeds and metrics
(campaign.py), its plots (plots.py) and its claims (claims.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from mantra.errors import InputError
from mantra.lab.campaign import Campaign, parse_campaign
from mantra.lab.claims import check_claims
from mantra.lab.located_yaml import Located, load_located
from mantra.lab.plots import check_plots


def load_campaign(path: str | Path, quick: bool = False, first_seeds: int | None = None) -> Campaign:
    """Reads and checks a campaign file."""
    return build_campaign(load_located(path), quick, first_seeds)


def build_campaign(doc: Located, quick: bool = False, first_seeds: int | None = None) -> Campaign:
    """A checked campaign from a loaded document (a file, or a results directory's copy);
    with `first_seeds`, only that many of its profile's seeds (a stated subset)."""
    camp = parse_campaign(doc, quick)
    check_plots(camp)
    check_claims(camp)
    if first_seeds is None:
        return camp
    if first_seeds < 1:
        raise InputError(f"--seeds: must be at least 1, not {first_seeds}")
    if first_seeds > len(camp.seeds):
        raise InputError(f"--seeds: {camp.name}'s profile has {len(camp.seeds)} seeds, fewer than {first_seeds}")
    if first_seeds == len(camp.seeds):
        return camp
    return replace(camp, seeds=camp.seeds[:first_seeds], seeds_of_profile=len(camp.seeds))
