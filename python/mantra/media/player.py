"""What a player with a fixed playout delay shows, slot by slot, given what the simulator delivered
(result["flows"][i]["media"], read by mantra.media.delivery: per frame and unit, whether it arrived
by the frame's deadline; the representation chosen per GOP; the video's start).

A global display index j = L * N + i (i the display index within the video, L the loop) has its
slot at video_start + playout_delay_s + j / fps.

Concealment "freeze" (the issue's player, `video`). A frame is shown if it is whole (every unit in
time) or, with packetization slices and the description's `partial: conceal`, usable (some units in
time: mantra.media.delivery), and every frame it references is shown (mantra.media.gop). A slot
shows its own frame if that is shown; else the picture of the last frame shown before it (a
freeze, as a player would conceal); before the first, a mid-grey picture (Y = U = V = 128), which is
what a player shows before its first picture and scores as badly as missing video should. With
`partial: freeze` (and with packetization frames, where a frame is one unit) a frame partly there
counts as not there.

The pictures shown are decoded for real: per GOP, a fresh decoder is given that GOP's frames to be
shown, each with the units that arrived in time, in decode order, and its output is used. A shown
frame that is intact (it and its references whole) must decode to the representation's no-loss
decode of that frame; a difference raises, as it would be a pipeline bug. A frame given partly may
yet give no picture (FFmpeg refuses it); it then counts as not shown, and the GOP is decoded again
without it and the frames that reference it.

Concealment "decoder" (EvalVid's, `video_ec`): the decoder conceals. One decoder
(mantra.media.decode.decode_concealed) is fed every usable frame, with its units that arrived in
time, in global decode order, each in the representation the sender used for it, from the first
frame of the GOP of the first evaluated slot to the end of the GOP of the last (so it always starts
at a GOP start, and goes on across GOPs and rung switches as a real player's decoder would); a
frame that is not usable is not fed. A frame whose reference was lost is decoded anyway, against
whatever the decoder holds (drift, blocking). A slot shows the picture the decoder output for its
own frame; if it output none (the frame was not fed, FFmpeg refused it, or the decoder did not
output it), the last picture shown before it (grey before any). The packets FFmpeg refused are
counted (`decode_errors`). The pictures are not checked against the no-loss decode: drift is the
point.

In both, a slot is `damaged` if it shows its own frame but that frame is not intact (a unit of it
or of a frame it references did not arrive in time). `first_picture_s` is the same in both modes:
the display time of the first frame the freeze player shows (a decoder fed from the video's start
outputs nothing before its first I frame, where the sequence headers travel).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from mantra.media.content import Picture, grey_picture
from mantra.media.decode import decode_concealed
from mantra.media.delivery import Bools, Delivery, Received, frame_bytes, received
from mantra.media.ladder import PreparedMedia

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
GREY = -1  # `shown` of a slot before any picture
_SLOT_EPS_S = 1e-9  # slack when placing the window's ends on the slot grid
CONCEALMENTS = ("freeze", "decoder")
"""What a player shows for a frame it cannot show whole (the module's two ways)."""


@dataclass(frozen=True)
class Playout:
    """The evaluated slots: what each showed, and the pictures."""

    fps: float
    frames: int  # N, the video's length
    video_start_s: float
    playout_delay_s: float
    slots: Ints  # global display index of each evaluated slot
    shown: Ints  # global display index of the frame whose picture the slot showed, GREY if none
    shown_rep: Ints  # the representation of that picture, -1 for GREY
    sender_rep: Ints  # the representation the sender chose for the slot's own frame's GOP
    pictures: dict[int, Picture]  # by global display index: every picture shown
    grey: Picture
    first_picture_s: float | None  # absolute time the first decoded picture was displayed
    damaged: npt.NDArray[np.bool_]  # per slot: its own frame shown, not intact
    concealment: str = "freeze"  # one of CONCEALMENTS
    decode_errors: int = 0  # "decoder": packets FFmpeg refused

    @property
    def time_s(self) -> Floats:
        """Absolute display time of each slot."""
        result: Floats = self.video_start_s + self.playout_delay_s + self.slots / self.fps
        return result

    @property
    def source_frame(self) -> Ints:
        """Each slot's frame in the source video (its display index within the loop)."""
        result: Ints = self.slots % self.frames
        return result

    @property
    def frozen(self) -> npt.NDArray[np.bool_]:
        """Slots showing a picture other than their own frame's (a freeze, or grey)."""
        result: npt.NDArray[np.bool_] = self.shown != self.slots
        return result

    def picture(self, k: int) -> Picture:
        """The picture slot k (an index into `slots`) showed."""
        shown = int(self.shown[k])
        return self.grey if shown == GREY else self.pictures[shown]


def play(
    prepared: PreparedMedia,
    media: Mapping[str, Any],
    eval_from_s: float,
    eval_to_s: float,
    concealment: str = "freeze",
) -> Playout:
    """What the player showed in the slots displayed within [eval_from_s, eval_to_s] (absolute
    seconds), given the simulator's media result of the flow, with the concealment given (one of
    CONCEALMENTS: "freeze" or "decoder", the module's)."""
    if concealment not in CONCEALMENTS:
        raise ValueError(f"concealment {concealment!r}: not one of {', '.join(CONCEALMENTS)}")
    delivery = Delivery.from_result(media, prepared)
    n, fps, delay = prepared.frames, prepared.fps, prepared.desc.playout_delay_s
    origin = delivery.video_start_s + delay
    first_slot = max(0, math.ceil((eval_from_s - origin) * fps - _SLOT_EPS_S))
    last_slot = math.floor((eval_to_s - origin) * fps + _SLOT_EPS_S)
    if last_slot < first_slot:
        raise ValueError(f"no frame is displayed within [{eval_from_s}, {eval_to_s}] s")
    loops = max(last_slot, len(delivery.rep) - 1) // n + 1
    got = received(prepared, delivery, loops)
    intact = _chained(prepared, got.whole)
    slots = np.arange(first_slot, last_slot + 1, dtype=np.int64)
    gop_frames = prepared.desc.gop_frames
    if concealment == "freeze":
        shown_frames, pictures = _freeze(prepared, delivery, got, intact, slots)
        errors = 0
    else:
        shown_frames = _chained(prepared, got.whole if prepared.desc.partial != "conceal" else got.usable)
        pictures, errors = _decode_span(prepared, delivery, got, first_slot // gop_frames, last_slot // gop_frames)
    by_display = _by_display(prepared, shown_frames)
    g = np.arange(loops * n)
    if concealment == "freeze":
        output = by_display
    else:
        output = np.zeros(loops * n, dtype=bool)
        output[list(pictures)] = True
    shown = np.maximum.accumulate(np.where(output, g, GREY))[slots]
    firsts = np.flatnonzero(by_display)
    own = shown == slots
    return Playout(
        fps=fps,
        frames=n,
        video_start_s=delivery.video_start_s,
        playout_delay_s=delay,
        slots=slots,
        shown=shown,
        shown_rep=np.where(shown == GREY, -1, _gop_rep(delivery, shown // gop_frames)),
        sender_rep=_gop_rep(delivery, slots // gop_frames),
        pictures={j: pictures[j] for j in np.unique(shown[shown != GREY]).tolist()},
        grey=grey_picture(prepared.content.video.width, prepared.content.video.height),
        first_picture_s=float(origin + firsts[0] / fps) if firsts.size else None,
        damaged=own & ~_by_display(prepared, intact)[slots],
        concealment=concealment,
        decode_errors=errors,
    )


def _freeze(
    prepared: PreparedMedia, delivery: Delivery, got: Received, intact: Bools, slots: Ints
) -> tuple[Bools, dict[int, Picture]]:
    """The freeze player: per global decode-order frame whether it is shown, and the pictures of the
    frames shown in `slots`, by global display index (the module's rule)."""
    conceal = prepared.desc.partial == "conceal"
    base = got.usable.copy() if conceal else got.whole
    gop_frames = prepared.desc.gop_frames
    g = np.arange(base.size)
    while True:
        shown_frames = _chained(prepared, base)
        shown = np.maximum.accumulate(np.where(_by_display(prepared, shown_frames), g, GREY))[slots]
        pictures: dict[int, Picture] = {}
        absent: list[int] = []
        for gop in np.unique(shown[shown != GREY] // gop_frames):
            decoded, missing = _decode_gop(prepared, delivery, got, shown_frames, intact, int(gop))
            pictures.update(decoded)
            absent += missing
        if not absent:
            return shown_frames, pictures
        base[absent] = False  # no picture came of them: not shown, nor the frames that reference them


def _by_display(prepared: PreparedMedia, per_frame: Bools) -> Bools:
    """A per global decode-order frame flag, by global display index."""
    n = prepared.frames
    g = np.arange(per_frame.size)
    out = np.zeros(per_frame.size, dtype=bool)
    out[g - g % n + np.asarray(prepared.display)[g % n]] = per_frame
    return out


def _chained(prepared: PreparedMedia, ok: Bools) -> Bools:
    """Per global decode-order frame: it is ok and so is every frame it references, recursively."""
    n, refs = prepared.frames, prepared.refs
    came = ok.tolist()
    chained = [False] * len(came)
    for f in range(len(came)):  # references precede their frame in decode order
        base = f - f % n
        chained[f] = came[f] and all(chained[base + r] for r in refs[f % n])
    return np.array(chained, dtype=bool)


def _gop_rep(delivery: Delivery, gops: Ints) -> Ints:
    """The representation chosen for each global GOP; for GOPs the sender never reached, the last
    one chosen (the lowest before any)."""
    last = int(delivery.gop_reps[-1]) if delivery.gop_reps.size else 0
    padded = np.append(delivery.gop_reps, last)
    result: Ints = padded[np.minimum(gops, delivery.gop_reps.size)]
    return result


def _decode_gop(
    prepared: PreparedMedia, delivery: Delivery, got: Received, shown: Bools, intact: Bools, gop: int
) -> tuple[dict[int, Picture], list[int]]:
    """The pictures of global GOP `gop`'s frames to be shown, decoded alone from their units that
    arrived, by global display index; and the global frames given that gave no picture (only a
    frame given partly may: an intact one raises, as does one that is not its no-loss decode)."""
    n, gop_frames = prepared.frames, prepared.desc.gop_frames
    first = gop * gop_frames
    loop_start = first - first % n
    r = int(delivery.gop_reps[gop])
    rep = prepared.reps[r]
    kept = [d for d in range(first % n, first % n + gop_frames) if shown[loop_start + d]]
    out = decode_concealed(
        rep.codec, ((frame_bytes(prepared, r, d, got.units[loop_start + d]), rep.display[d]) for d in kept)
    )[0]
    absent = [loop_start + d for d in kept if rep.display[d] not in out]
    if any(intact[g] for g in absent):
        raise RuntimeError(f"GOP {gop} ({rep.rate_bps} b/s): the decoder output no picture of an intact frame")
    for d in kept:
        if intact[loop_start + d] and not rep.decoded.equals(rep.display[d], out[rep.display[d]].picture):
            raise RuntimeError(
                f"GOP {gop} ({rep.rate_bps} b/s): frame {rep.display[d]} decoded from the kept frames is not its"
                " no-loss decode"
            )
    return {loop_start + i: decoded.picture for i, decoded in out.items()}, absent


def _decode_span(
    prepared: PreparedMedia, delivery: Delivery, got: Received, first_gop: int, last_gop: int
) -> tuple[dict[int, Picture], int]:
    """What one decoder fed every usable frame of global GOPs first_gop..last_gop (in decode order,
    each in the representation it was sent in, with its units that arrived) output, by global
    display index; and how many packets FFmpeg refused."""
    n, gop_frames, display = prepared.frames, prepared.desc.gop_frames, prepared.display
    fed = [g for g in range(first_gop * gop_frames, (last_gop + 1) * gop_frames) if got.usable[g]]
    out, errors = decode_concealed(
        prepared.desc.codec,
        ((frame_bytes(prepared, int(delivery.rep[g]), g % n, got.units[g]), g - g % n + display[g % n]) for g in fed),
    )
    expected = {g - g % n + display[g % n] for g in fed}
    return {j: decoded.picture for j, decoded in out.items() if j in expected}, errors
