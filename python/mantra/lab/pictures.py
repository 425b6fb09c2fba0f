"""Pictures: images a report shows that are not plots of the run index (a video's decoded
frames beside its per-frame quality, say), made by a picture maker registered under a name.

A campaign asks for them as a plot, and the report shows them with their captions where the
plot stands:

    plots:
      - {kind: pictures, maker: video-frames, title: Decoded frames, where: {speed: 20},
         options: {seed: 1}, metric: psnr_db}

`maker` names the registered maker; `options` (any mapping) goes to it as written; `metric`
(optional) is the campaign metric the pictures are about, so that claims on it link to them.
A module defining a maker registers it when imported:

    from mantra.lab.pictures import PictureRequest, register

    def frames(request: PictureRequest) -> list[tuple[str, str]]:
        path = request.out_dir / "pictures" / f"{request.name}-frames.png"
        ...                                  # write the PNG
        return [(f"pictures/{path.name}", "seed 1, 20 m/s: frames 100-104")]

    register("video-frames", frames)

The maker writes its PNG files under `request.out_dir` (the report's directory; pictures/ is
the place, with file names starting with `request.name`) and returns, in the order to show,
(path relative to out_dir, caption) per picture. The page links the files rather than
embedding them, so they must stay beside report.html.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import pandas as pd

from mantra.errors import InputError
from mantra.lab.campaign import Campaign
from mantra.lab.store import Store


@dataclass(frozen=True)
class Picture:
    path: str  # relative to the report's directory, '/'-separated
    caption: str


@dataclass(frozen=True)
class PictureRequest:
    """What a picture maker is given for one `pictures` plot."""

    store: Store  # the results directory: store.result(key) reads a run's whole result
    campaign: Campaign
    runs: pd.DataFrame  # the campaign's finished runs at the plot's `where`, a column per metric
    out_dir: Path  # the report's directory: write the pictures under it
    options: Mapping[str, Any]  # the plot's `options`, as written
    name: str  # unique to this plot in the report ("CAMPAIGN-N"): a prefix for file names


PictureMaker = Callable[[PictureRequest], Sequence[tuple[str, str]]]

_MAKERS: dict[str, PictureMaker] = {}


def register(name: str, maker: PictureMaker) -> None:
    """Makes `maker` the one called for plots `{kind: pictures, maker: NAME}`. Registering
    the same function again does nothing; another one under a taken name is refused."""
    if _MAKERS.get(name, maker) is not maker:
        raise ValueError(f"picture maker {name!r} is already registered ({_MAKERS[name]!r})")
    _MAKERS[name] = maker


def registered() -> list[str]:
    return sorted(_MAKERS)


def make_pictures(maker: str, request: PictureRequest) -> list[Picture]:
    """Calls the maker registered as `maker` and checks that each file it names exists under
    the report's directory."""
    plot = f"{request.campaign.source}: plot {request.name}"
    make = _MAKERS.get(maker)
    if make is None:
        known = ", ".join(registered()) or "none"
        raise InputError(f"{plot}: no picture maker {maker!r} is registered (registered: {known})")
    pictures = []
    for path, caption in make(request):
        relative = PurePosixPath(path)
        if relative.is_absolute() or ".." in relative.parts or not (request.out_dir / relative).is_file():
            raise InputError(f"{plot}: picture maker {maker!r} returned {path!r}, not a file under {request.out_dir}")
        pictures.append(Picture(relative.as_posix(), str(caption)))
    return pictures
