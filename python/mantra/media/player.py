"""What a player with a fixed playout delay shows, slot by slot, given what the simulator delivered
(result["flows"][i]["media"]: per global frame the representation sent and when it was complete,
the representation chosen per GOP, and the video's start).

Time line. The video starts (its first capture) at `video_start` and loops: global frame g in
decode order is frame g % N of loop g // N, and loop L is offset by L * N / fps. A global display
index j = L * N + i (i the display index within the video) has its slot at
video_start + playout_delay_s + j / fps.

A frame arrived if the simulator sent it (rep >= 0) and it was complete (complete_s >= 0) no later
than its deadline, video_start + L * N / fps + playout_delay_s + due_s (mantra.media.gop); frames
past the end of the simulator's list were never reached and did not arrive. A frame is decodable
if it arrived and every frame it references is decodable (mantra.media.gop).

A slot shows its own frame if that is decodable; else the picture of the last decodable frame
displayed before it (a freeze, as a player would conceal); before the first decodable frame, a
mid-grey picture (Y = U = V = 128), which is what a player shows before its first picture and
scores as badly as missing video should.

The pictures shown are decoded for real: per GOP, a fresh decoder is given only that GOP's
decodable frames of the representation chosen for it, in decode order, and its output is used.
Each decoded picture is then checked to be the representation's no-loss decode of that frame (its
references are intact, so it must be); a difference raises, as it would be a pipeline bug.

That is concealment "freeze". Concealment "decoder" is EvalVid's: the decoder conceals. One
decoder (mantra.media.decode.decode_concealed) is fed every frame that arrived, in global decode
order, each in the representation the sender used for it, from the first frame of the GOP of the
first evaluated slot to the end of the GOP of the last (so it always starts at a GOP start, and
goes on across GOPs and rung switches as a real player's decoder would); a frame that did not
arrive is not fed. A frame whose reference was lost is decoded anyway, against whatever the
decoder holds (drift, blocking). A slot shows the picture the decoder output for its own frame;
if it output none (the frame was not fed, FFmpeg refused it, or the decoder did not output it),
the last picture shown before it (grey before any). The packets FFmpeg refused are counted
(`decode_errors`). The pictures are not checked against the no-loss decode: drift is the point.
`first_picture_s` is the same in both modes: a decoder fed from the video's start outputs nothing
before its first I frame (the sequence headers travel in I frames), which is the first decodable
frame.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from mantra.media.content import Picture, grey_picture
from mantra.media.decode import decode, decode_concealed
from mantra.media.ladder import PreparedMedia

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
GREY = -1  # `shown` of a slot before any picture
_SLOT_EPS_S = 1e-9  # slack when placing the window's ends on the slot grid
CONCEALMENTS = ("freeze", "decoder")
"""What a player shows for a frame it cannot show whole (the module's two ways)."""


@dataclass(frozen=True)
class Delivery:
    """The simulator's media outcome of one flow (CONTRACT B), checked against the prepared media."""

    rep: Ints  # per global decode-order frame reached: its representation, -1 if not sent
    complete_s: Floats  # per global frame reached: when its last datagram arrived, -1 if never
    gop_reps: Ints  # per global GOP: the representation chosen
    video_start_s: float

    @staticmethod
    def from_result(media: Mapping[str, Any], prepared: PreparedMedia) -> Delivery:
        try:
            frames = np.array(media["frames"], dtype=np.float64)
            chosen = np.array(media["gop_reps"], dtype=np.float64)
            start = float(media["video_start"])
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"the simulator's media result is malformed: {e}") from e
        frames = frames.reshape(0, 2) if frames.size == 0 else frames
        if frames.ndim != 2 or frames.shape[1] != 2:
            raise ValueError("media frames: not a list of [rep, complete_s] pairs")
        reps = len(prepared.reps)
        rep = frames[:, 0].astype(np.int64)
        if not np.array_equal(rep, frames[:, 0]) or np.any((rep < -1) | (rep >= reps)):
            raise ValueError(f"media frames: a representation index is not an integer in -1..{reps - 1}")
        gop_reps = chosen.astype(np.int64)
        if chosen.ndim != 1 or not np.array_equal(gop_reps, chosen) or np.any((gop_reps < 0) | (gop_reps >= reps)):
            raise ValueError(f"media gop_reps: not a list of representation indices in 0..{reps - 1}")
        complete = frames[:, 1]
        if np.any((complete < 0) & (complete != -1)) or not np.all(np.isfinite(complete)):
            raise ValueError("media frames: a completion time is neither -1 nor a finite time")
        sent = np.flatnonzero(rep >= 0)
        gop_of = sent // prepared.desc.gop_frames
        if np.any(gop_of >= len(gop_reps)):
            raise ValueError(f"media frames: frame {sent[gop_of >= len(gop_reps)][0]} was sent in a GOP past gop_reps")
        wrong = sent[rep[sent] != gop_reps[gop_of]]
        if wrong.size:
            g = int(wrong[0])
            raise ValueError(
                f"media frames: frame {g} was sent in representation {rep[g]}, its GOP's is"
                f" {gop_reps[g // prepared.desc.gop_frames]}"
            )
        return Delivery(rep, complete, gop_reps, start)


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
    arrived = _arrived(prepared, delivery, loops)  # global decode order
    decodable = _decodable(prepared, arrived)
    g = np.arange(loops * n)
    by_display = np.zeros(loops * n, dtype=bool)
    by_display[g - g % n + np.asarray(prepared.display)[g % n]] = decodable
    slots = np.arange(first_slot, last_slot + 1, dtype=np.int64)
    gop_frames = prepared.desc.gop_frames
    pictures: dict[int, Picture] = {}
    errors = 0
    if concealment == "freeze":
        shown = np.maximum.accumulate(np.where(by_display, g, GREY))[slots]
        for gop in np.unique(shown[shown != GREY] // gop_frames):
            pictures.update(_decode_gop(prepared, delivery, decodable, int(gop)))
    else:
        pictures, errors = _decode_span(prepared, delivery, arrived, first_slot // gop_frames, last_slot // gop_frames)
        output = np.zeros(loops * n, dtype=bool)
        output[list(pictures)] = True
        shown = np.maximum.accumulate(np.where(output, g, GREY))[slots]
    firsts = np.flatnonzero(by_display)
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
        concealment=concealment,
        decode_errors=errors,
    )


def _arrived(prepared: PreparedMedia, delivery: Delivery, loops: int) -> npt.NDArray[np.bool_]:
    """Per global decode-order frame of the first `loops` loops: whether it arrived whole by its
    deadline."""
    n, fps = prepared.frames, prepared.fps
    total = loops * n
    reached = min(total, len(delivery.rep))
    rep = np.full(total, -1, dtype=np.int64)
    rep[:reached] = delivery.rep[:reached]
    complete = np.full(total, -1.0)
    complete[:reached] = delivery.complete_s[:reached]
    g = np.arange(total)
    loop_start = g - g % n
    deadline = delivery.video_start_s + loop_start / fps + prepared.desc.playout_delay_s + prepared.due_s[g % n]
    result: npt.NDArray[np.bool_] = (rep >= 0) & (complete >= 0) & (complete <= deadline)
    return result


def _decodable(prepared: PreparedMedia, arrived: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Per global decode-order frame: whether it is decodable (it and its references arrived)."""
    n, refs = prepared.frames, prepared.refs
    came = arrived.tolist()
    decodable = [False] * len(came)
    for f in range(len(came)):  # references precede their frame in decode order
        base = f - f % n
        decodable[f] = came[f] and all(decodable[base + r] for r in refs[f % n])
    return np.array(decodable, dtype=bool)


def _gop_rep(delivery: Delivery, gops: Ints) -> Ints:
    """The representation chosen for each global GOP; for GOPs the sender never reached, the last
    one chosen (the lowest before any)."""
    last = int(delivery.gop_reps[-1]) if delivery.gop_reps.size else 0
    padded = np.append(delivery.gop_reps, last)
    result: Ints = padded[np.minimum(gops, delivery.gop_reps.size)]
    return result


def _decode_gop(
    prepared: PreparedMedia, delivery: Delivery, decodable: npt.NDArray[np.bool_], gop: int
) -> dict[int, Picture]:
    """The pictures of global GOP `gop`'s decodable frames, decoded alone, by global display index."""
    n, gop_frames = prepared.frames, prepared.desc.gop_frames
    first = gop * gop_frames
    loop_start = first - first % n
    rep = prepared.reps[int(delivery.gop_reps[gop])]
    kept = [d for d in range(first % n, first % n + gop_frames) if decodable[loop_start + d]]
    out = decode(rep.codec, ((rep.packets[d], rep.display[d]) for d in kept))
    if sorted(out) != sorted(rep.display[d] for d in kept):
        raise RuntimeError(
            f"GOP {gop} ({rep.rate_bps} b/s): the decoder output frames {sorted(out)}"
            f" for the kept frames {sorted(rep.display[d] for d in kept)}"
        )
    for i, decoded in out.items():
        if not rep.decoded.equals(i, decoded.picture):
            raise RuntimeError(
                f"GOP {gop} ({rep.rate_bps} b/s): frame {i} decoded from the kept frames is not its no-loss decode"
            )
    return {loop_start + i: decoded.picture for i, decoded in out.items()}


def _decode_span(
    prepared: PreparedMedia, delivery: Delivery, arrived: npt.NDArray[np.bool_], first_gop: int, last_gop: int
) -> tuple[dict[int, Picture], int]:
    """What one decoder fed every arrived frame of global GOPs first_gop..last_gop (in decode order,
    each in the representation it was sent in) output, by global display index; and how many
    packets FFmpeg refused."""
    n, gop_frames, display = prepared.frames, prepared.desc.gop_frames, prepared.display
    fed = [g for g in range(first_gop * gop_frames, (last_gop + 1) * gop_frames) if arrived[g]]
    out, errors = decode_concealed(
        prepared.desc.codec,
        ((prepared.reps[int(delivery.rep[g])].packets[g % n], g - g % n + display[g % n]) for g in fed),
    )
    expected = {g - g % n + display[g % n] for g in fed}
    return {j: decoded.picture for j, decoded in out.items() if j in expected}, errors
