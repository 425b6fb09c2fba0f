"""The smoke profile: one run of every campaign, so that a campaign whose runs abort is seen
in CI before a reproduction meets it (issue 27: a quick reproduction that exited 1 landed
unseen).

A campaign's smoke profile is its quick profile cut to one run: the last value of every grid
axis (grids are written in rising order: the highest speed, the most hops, the heaviest load)
on the first quick seed, at the quick profile's duration. `mantra smoke` runs them all into
one results directory and exits 1 if any run failed, naming it.
"""

from __future__ import annotations

from dataclasses import replace

from mantra.lab.campaign import Campaign


def smoke_profile(camp: Campaign) -> Campaign:
    """`camp` (loaded with its quick profile) cut to one run."""
    groups = [[replace(a, labels=a.labels[-1:], overrides=a.overrides[-1:]) for a in group] for group in camp.groups]
    return replace(camp, groups=groups, seeds=camp.seeds[:1])
