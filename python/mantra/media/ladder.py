"""A media flow's video made ready for the simulator: the content generated, every rung of the
ladder encoded (or found in the cache), and the per-frame trace the simulator sends.

All rungs share one GOP structure (checked: the same frame count, GOP starts, frame types and
display order), so one per-frame timing serves them all. Per decode-order frame d, as offsets from
the video's start (its first capture), before the playout delay (mantra.media.gop):

    capture_s[d] = max(display index of frames 0..d in decode order) / fps
    due_s[d]     = min(display index of frames d..end of its GOP in decode order) / fps

A frame can be encoded once every frame it may reference is captured; any later-decoded frame of
its GOP may need it, so it is due by the earliest display time among them. The player uses the
same rule.

`PreparedMedia.sim_block()` is the dict the simulator reads as flows[i].media:

    {"mode": "ladder" | "layered", "fps": ..., "playout_delay": seconds,
     "start": absolute seconds of the first capture (only if given; else the flow's start),
     "packetization": "slices" | "frames",
     "gop_starts": [decode index of each GOP's I frame],
     "representations": [{"rate_bps": target, "frames": [[bytes, layer, capture_s, due_s], ...]}]}

with representations in ascending rate and frames in decode order (layer 0: I and P, 1: B). With
slices each frame has a fifth element, the video bytes of each of its datagrams
(mantra.media.packetize: whole slices, within the description's slice_bytes), which the simulator
sends as they are; with frames the simulator cuts each frame into datagrams itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mantra.media import cache
from mantra.media.content import Content, make_content
from mantra.media.desc import MediaDesc
from mantra.media.encode import EncodedStream, codec_versions
from mantra.media.gop import Floats, capture_due_s, references
from mantra.media.packetize import Datagram, packetize

__all__ = ["PreparedMedia", "codec_versions", "prepare"]


@dataclass(frozen=True)
class PreparedMedia:
    desc: MediaDesc
    content: Content  # the source, trimmed to whole GOPs
    reps: tuple[EncodedStream, ...]  # ascending rate
    capture_s: Floats  # decode order
    due_s: Floats  # decode order
    refs: tuple[tuple[int, ...], ...]  # decode order: the decode indices each frame references
    cache_hits: int  # how many representations came from the cache
    datagrams: tuple[tuple[tuple[Datagram, ...], ...], ...]  # [rung][decode order]: slices only, else ()

    @property
    def frames(self) -> int:
        return self.content.frames

    @property
    def fps(self) -> float:
        return self.content.fps

    @property
    def gop_starts(self) -> tuple[int, ...]:
        return self.reps[0].gop_starts

    @property
    def display(self) -> tuple[int, ...]:
        """Decode order: each frame's display index."""
        return self.reps[0].display

    def sim_block(self, start_s: float | None = None) -> dict[str, Any]:
        """The simulator's flows[i].media; `start_s` the absolute time of the first capture, if
        not the flow's start."""
        block: dict[str, Any] = {
            "mode": self.desc.mode,
            "fps": self.fps,
            "playout_delay": self.desc.playout_delay_s,
        }
        if start_s is not None:
            block["start"] = float(start_s)
        block["packetization"] = self.desc.packetization
        block["gop_starts"] = list(self.gop_starts)
        block["representations"] = [
            {"rate_bps": rep.rate_bps, "frames": self._sim_frames(r)} for r, rep in enumerate(self.reps)
        ]
        return block

    def _sim_frames(self, r: int) -> list[list[Any]]:
        rep = self.reps[r]
        frames: list[list[Any]] = [
            [size, layer, float(c), float(d)]
            for size, layer, c, d in zip(rep.frame_bytes, rep.layers, self.capture_s, self.due_s, strict=True)
        ]
        if self.datagrams:
            for frame, datagrams in zip(frames, self.datagrams[r], strict=True):
                frame.append([d.bytes for d in datagrams])
        return frames

    def rungs(self) -> list[dict[str, Any]]:
        """Per representation: target and achieved bitrate, the encoder's mean PSNR and SSIM."""
        return [
            {
                "rate_bps": rep.rate_bps,
                "achieved_bps": rep.achieved_bps,
                "psnr_db": float(rep.psnr_db.mean()),
                "ssim": float(rep.ssim.mean()),
            }
            for rep in self.reps
        ]


def prepare(desc: MediaDesc, cache_dir: Path) -> PreparedMedia:
    """The video of `desc`, each rung encoded or taken from `cache_dir`."""
    c = desc.content
    content = make_content(c.resolution, c.seconds, c.fps, c.seed).trimmed(desc.frames)
    found = [
        cache.encoded(content, desc.codec, rate, desc.gop_frames, desc.b_frames, desc.slice_bytes, cache_dir)
        for rate in desc.ladder_bps
    ]
    reps = tuple(stream for stream, _ in found)
    first = reps[0]
    for rep in reps[1:]:
        # The same frame types in decode order and display order: the same frames, GOPs and timing.
        if (rep.types, rep.display) != (first.types, first.display):
            raise RuntimeError(
                f"the rungs at {first.rate_bps} and {rep.rate_bps} b/s differ in structure: {first.types[:24]}..."
                f" and {rep.types[:24]}..."
            )
    capture, due = capture_due_s(first.display, first.gop_starts, content.fps)
    return PreparedMedia(
        desc=desc,
        content=content,
        reps=reps,
        capture_s=capture,
        due_s=due,
        refs=tuple(references(first.types, first.display, first.gop_starts)),
        cache_hits=sum(hit for _, hit in found),
        datagrams=_datagrams(reps, desc.slice_bytes),
    )


def _datagrams(
    reps: tuple[EncodedStream, ...], slice_bytes: int | None
) -> tuple[tuple[tuple[Datagram, ...], ...], ...]:
    """Each rung's frames' datagrams (slices: whole slices of at most slice_bytes), or () (frames)."""
    if slice_bytes is None:
        return ()
    return tuple(tuple(packetize(units, slice_bytes) for units in rep.units) for rep in reps)
