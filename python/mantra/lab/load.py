"""A campaign read and checked whole before anything runs: its grid, seeds and metrics
(campaign.py), its plots (plots.py) and its claims (claims.py)."""

from __future__ import annotations

from pathlib import Path

from mantra.lab.campaign import Campaign, parse_campaign
from mantra.lab.claims import check_claims
from mantra.lab.located_yaml import Located, load_located
from mantra.lab.plots import check_plots


def load_campaign(path: str | Path, quick: bool = False) -> Campaign:
    """Reads and checks a campaign file."""
    return build_campaign(load_located(path), quick)


def build_campaign(doc: Located, quick: bool = False) -> Campaign:
    """A checked campaign from a loaded document (a file, or a results directory's copy)."""
    camp = parse_campaign(doc, quick)
    check_plots(camp)
    check_claims(camp)
    return camp
