"""The smoke profile: one run of every campaign, so that a campaign whose runs abort is seen
in CI before a reproduction meets it (issue 27: a quick reproduction that exited 1 landed
unseen).

A campaign's smoke profile is its quick profile (its full one if it has none) cut to one run:
the last value of every grid axis (grids are written in rising order: the highest speed, the
most hops, the heaviest load) on the first seed, at the profile's duration. `mantra smoke` runs
them all into one results directory and exits 1 if any run failed, naming it.
"""

from __future__ import annotations

from dataclasses import replace

from mantra.lab.campaign import Campaign
from mantra.lab.load import build_campaign
from mantra.lab.located_yaml import Located


def smoke_profile(doc: Located) -> Campaign:
    """The campaign of `doc` on its quick profile (its full one if it has none), cut to one run."""
    camp = build_campaign(doc, quick=isinstance(doc.data, dict) and "quick" in doc.data)
    groups = [[replace(a, labels=a.labels[-1:], overrides=a.overrides[-1:]) for a in group] for group in camp.groups]
    return replace(camp, groups=groups, seeds=camp.seeds[:1])
