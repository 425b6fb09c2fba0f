"""The quality a viewer saw: every evaluated slot's picture scored against the source frame due in
that slot (mantra.media.quality), summed up next to the ceiling the encoder allowed.

Every displayed slot counts: a frozen slot (showing an earlier picture) or a grey one (before the
first picture) is compared with the frame that should have been shown, never skipped.

    mean_psnr_db, mean_ssim   over the slots (PSNR capped at 100 dB per slot)
    mean_mos                  mean of the slots' EvalVid MOS (1..5)
    share_below_25db          share of slots under 25 dB (EvalVid's "poor" and worse)
    frozen_share              share of slots showing a picture other than their own frame
    damaged_share             share of slots showing their own frame with some of it, or of a frame
                              it references, not arrived in time (concealed by the decoder)
    startup_delay_s           from the video's first capture to the display of its first decoded
                              picture (None if none was); it includes the playout delay
    encoder_psnr_db           the mean PSNR of the same slots with no network: the representations
                              the sender chose (per GOP), every frame on time (the ceiling)
    top_rung_psnr_db          the mean PSNR of the same slots in the highest rung, every frame on time
    decode_errors             concealment "decoder" only: the packets FFmpeg refused

The concealment is the player's (mantra.media.player): "freeze" (a frame is shown only with every
reference shown, and partly only with `partial: conceal`) or "decoder" (EvalVid's: the decoder is
fed what arrived and conceals).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from mantra.media.ladder import PreparedMedia
from mantra.media.player import Floats, Playout, play
from mantra.media.quality import Plane, SsimReference, mos, psnr_db

POOR_DB = 25.0


class SlotTrace(NamedTuple):
    """A per-slot series: display times (s) and values."""

    time_s: Floats
    value: Floats


@dataclass(frozen=True)
class VideoQuality:
    mean_psnr_db: float
    mean_ssim: float
    mean_mos: float
    share_below_25db: float
    frozen_share: float
    damaged_share: float
    startup_delay_s: float | None
    frames_evaluated: int
    encoder_psnr_db: float
    top_rung_psnr_db: float
    concealment: str
    decode_errors: int
    # Per slot, for plots:
    time_s: Floats  # absolute display time
    psnr_db: Floats
    ssim: Floats
    slot_encoder_psnr_db: Floats  # the ceiling, per slot

    def psnr_trace(self) -> SlotTrace:
        return SlotTrace(self.time_s, self.psnr_db)

    def summary(self) -> dict[str, Any]:
        """The scalar results, for a table or JSON (`decode_errors` only for concealment "decoder")."""
        summary: dict[str, Any] = {
            "mean_psnr_db": self.mean_psnr_db,
            "mean_ssim": self.mean_ssim,
            "mean_mos": self.mean_mos,
            "share_below_25db": self.share_below_25db,
            "frozen_share": self.frozen_share,
            "damaged_share": self.damaged_share,
            "startup_delay_s": self.startup_delay_s,
            "frames_evaluated": self.frames_evaluated,
            "encoder_psnr_db": self.encoder_psnr_db,
            "top_rung_psnr_db": self.top_rung_psnr_db,
        }
        if self.concealment == "decoder":
            summary["decode_errors"] = self.decode_errors
        return summary


class SlotScores:
    """PSNR and SSIM of pictures against source frames, each pair scored once: the two players of
    one run show the same picture in most slots, and a source frame recurs in every loop."""

    def __init__(self, prepared: PreparedMedia):
        self._source = prepared.content.video
        self._references: dict[int, SsimReference] = {}
        self._scores: dict[tuple[int, bytes], tuple[float, float]] = {}

    def score(self, frame: int, picture: Plane) -> tuple[float, float]:
        """(PSNR dB, SSIM) of a Y plane against source frame `frame`."""
        key = (frame, hashlib.sha256(picture.tobytes()).digest())
        if key not in self._scores:
            if frame not in self._references:
                self._references[frame] = SsimReference(self._source.y[frame])
            self._scores[key] = (psnr_db(self._source.y[frame], picture), self._references[frame].ssim(picture))
        return self._scores[key]


def assess(prepared: PreparedMedia, playout: Playout, scores: SlotScores | None = None) -> VideoQuality:
    """The quality of what `playout` showed (`scores`: shared with other playouts of the video)."""
    scores = scores or SlotScores(prepared)
    frames = playout.source_frame
    pairs = np.array([scores.score(int(f), playout.picture(k).y) for k, f in enumerate(frames)])
    psnr, sim = pairs[:, 0], pairs[:, 1]
    ceiling = np.array([prepared.reps[r].psnr_db[f] for r, f in zip(playout.sender_rep, frames, strict=True)])
    start = playout.first_picture_s
    return VideoQuality(
        mean_psnr_db=float(psnr.mean()),
        mean_ssim=float(sim.mean()),
        mean_mos=float(np.mean([mos(p) for p in psnr])),
        share_below_25db=float(np.mean(psnr < POOR_DB)),
        frozen_share=float(np.mean(playout.frozen)),
        damaged_share=float(np.mean(playout.damaged)),
        startup_delay_s=None if start is None else start - playout.video_start_s,
        frames_evaluated=len(frames),
        encoder_psnr_db=float(ceiling.mean()),
        top_rung_psnr_db=float(prepared.reps[-1].psnr_db[frames].mean()),
        concealment=playout.concealment,
        decode_errors=playout.decode_errors,
        time_s=playout.time_s,
        psnr_db=psnr,
        ssim=sim,
        slot_encoder_psnr_db=ceiling,
    )


def evaluate(
    prepared: PreparedMedia,
    media: Mapping[str, Any],
    eval_from_s: float,
    eval_to_s: float,
    concealment: str = "freeze",
) -> VideoQuality:
    """The quality of the slots displayed within [eval_from_s, eval_to_s] (absolute seconds), given
    the simulator's media result of the flow (result["flows"][i]["media"]), with the player's
    concealment ("freeze" or "decoder": mantra.media.player)."""
    return assess(prepared, play(prepared, media, eval_from_s, eval_to_s, concealment))
