"""Two pictures of delivered video, as PNG files: the per-frame PSNR over time of several schemes
against the encoder's ceiling, and one frame as each scheme showed it beside the source.

Pictures are shown in RGB converted from yuv420p by BT.601 in full range (JFIF: Y, U and V use
0..255, as the synthetic content does), chroma upsampled by repeating each sample 2x2.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import numpy.typing as npt
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from mantra.media.assess import SlotTrace
from mantra.media.content import Picture
from mantra.media.quality import psnr_db


def yuv_to_rgb(picture: Picture) -> npt.NDArray[np.uint8]:
    """The picture as (height, width, 3) 8-bit RGB (BT.601, full range)."""
    y = picture.y.astype(np.float64)
    u = picture.u.repeat(2, axis=0).repeat(2, axis=1)[: y.shape[0], : y.shape[1]].astype(np.float64) - 128
    v = picture.v.repeat(2, axis=0).repeat(2, axis=1)[: y.shape[0], : y.shape[1]].astype(np.float64) - 128
    rgb = np.stack([y + 1.402 * v, y - 0.344136 * u - 0.714136 * v, y + 1.772 * u], axis=-1)
    return np.clip(np.rint(rgb), 0, 255).astype(np.uint8)


def psnr_trace_png(path: Path, traces: Mapping[str, SlotTrace], encoder_trace: SlotTrace, title: str) -> None:
    """Per-frame PSNR over display time, one line per scheme, the encoder's ceiling dashed."""
    fig = Figure(figsize=(9, 4))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for label, trace in traces.items():
        ax.plot(trace.time_s, trace.value, linewidth=0.9, label=label)
    ax.plot(encoder_trace.time_s, encoder_trace.value, "k--", linewidth=0.9, label="encoder (no network)")
    ax.set_xlabel("display time (s)")
    ax.set_ylabel("PSNR of Y (dB)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def frame_strip_png(path: Path, pictures: Mapping[str, Picture], source: Picture, frame_number: int) -> None:
    """Frame `frame_number` side by side: the source, then each scheme's picture, captioned with
    the scheme and that picture's PSNR."""
    panels = [("source", source, None), *((label, p, psnr_db(source.y, p.y)) for label, p in pictures.items())]
    h, w = source.y.shape
    fig = Figure(figsize=(2.6 * len(panels), 2.6 * h / w + 0.7))
    FigureCanvasAgg(fig)
    for k, (label, picture, db) in enumerate(panels):
        ax = fig.add_subplot(1, len(panels), k + 1)
        ax.imshow(yuv_to_rgb(picture), interpolation="nearest")
        ax.set_axis_off()
        ax.set_title(label if db is None else f"{label}\n{db:.1f} dB", fontsize="small")
    fig.suptitle(f"frame {frame_number}", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
