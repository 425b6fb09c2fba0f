"""Which plots of its campaign a claim is about: those about one of the claim's metrics
(plots.shown_metrics) and whose `where` keeps every grid selection the claim draws on
(claims.claim_selections: `where`, with `num` and with `den`). A selection is kept unless,
on an axis both fix, they share no value; an axis only one of them fixes does not matter
(a plot over every speed still shows the claim at 20 m/s)."""

from __future__ import annotations

from typing import Any

from mantra.lab.campaign import Campaign
from mantra.lab.claims import claim_metrics, claim_selections
from mantra.lab.plots import shown_metrics


def _values(selection: dict[str, Any], axis: str) -> list[Any]:
    value = selection[axis]
    return value if isinstance(value, list) else [value]


def _keeps(where: dict[str, Any], selection: dict[str, Any]) -> bool:
    return all(any(v in _values(where, axis) for v in _values(selection, axis)) for axis in where if axis in selection)


def plots_of_claims(camp: Campaign) -> list[list[int]]:
    """Per claim of the campaign, in order, the indices of the plots it is about."""
    out = []
    for entry in camp.claims:
        check = entry["check"]
        metrics, selections = claim_metrics(check), claim_selections(check)
        out.append(
            [
                i
                for i, plot in enumerate(camp.plots)
                if shown_metrics(plot) & metrics
                and all(_keeps(plot.get("where", {}), selection) for selection in selections)
            ]
        )
    return out
