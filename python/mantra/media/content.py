"""Synthetic test video: deterministic content with motion and texture, in place of the
standard test sequences (Foreman, Stefan, ...), which cannot be fetched here.

A scene is a pure function of (resolution, seconds, fps, seed): every random draw comes from one
numpy Generator seeded with `seed`, in a fixed order. It composites, in yuv420p (8-bit Y at full
size, U and V at half size in each direction):

- a textured background (oriented gratings, smooth blobs and fine grain, coloured by smooth
  chroma blobs) that pans, faster horizontally than vertically;
- a smooth gradient of light that sweeps across the picture (slow, global brightness change);
- five textured moving objects (stripes, checkerboards, noise, discs and boxes) with different
  speeds and directions, bouncing off the picture's edges, so that their paths cross and they
  occlude each other;
- a little per-frame noise (camera grain, sigma 1.5 grey levels), which no encoder can predict.

Frame i is captured at i / fps seconds.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

Plane = npt.NDArray[np.uint8]

RESOLUTIONS: dict[str, tuple[int, int]] = {"qcif": (176, 144), "cif": (352, 288)}
"""Width and height in pixels of each resolution name."""

_PAN_PX_PER_FRAME = (1.5, 0.4)  # background pan, x and y, at QCIF (scaled with the width)
_GRAIN_SIGMA = 1.5  # per-frame noise, grey levels
_OBJECTS = 5


class Picture(NamedTuple):
    """One yuv420p picture: Y (height, width), U and V (height/2, width/2)."""

    y: Plane
    u: Plane
    v: Plane


def grey_picture(width: int, height: int) -> Picture:
    """A mid-grey picture (Y = U = V = 128), what a player shows before its first picture."""
    return Picture(
        np.full((height, width), 128, np.uint8),
        np.full((height // 2, width // 2), 128, np.uint8),
        np.full((height // 2, width // 2), 128, np.uint8),
    )


@dataclass(frozen=True)
class Video:
    """Pictures in display order: `y` (frames, height, width), `u` and `v` (frames, height/2, width/2)."""

    y: Plane
    u: Plane
    v: Plane

    @property
    def frames(self) -> int:
        return int(self.y.shape[0])

    @property
    def width(self) -> int:
        return int(self.y.shape[2])

    @property
    def height(self) -> int:
        return int(self.y.shape[1])

    def picture(self, i: int) -> Picture:
        """Frame i's three planes."""
        return Picture(self.y[i], self.u[i], self.v[i])

    def sha256(self) -> str:
        """A digest of every sample."""
        h = hashlib.sha256()
        for plane in (self.y, self.u, self.v):
            h.update(np.ascontiguousarray(plane).data)
        return h.hexdigest()

    def equals(self, i: int, picture: Picture) -> bool:
        """Whether frame i is `picture`, pixel for pixel."""
        return all(np.array_equal(a, b) for a, b in zip(self.picture(i), picture, strict=True))


@dataclass(frozen=True)
class Content:
    """A raw (source) video and what made it."""

    resolution: str
    fps: float
    seed: int
    video: Video

    @property
    def frames(self) -> int:
        return self.video.frames

    def trimmed(self, frames: int) -> Content:
        """The first `frames` frames."""
        if not 0 < frames <= self.frames:
            raise ValueError(f"cannot trim {self.frames} frames to {frames}")
        v = self.video
        return Content(self.resolution, self.fps, self.seed, Video(v.y[:frames], v.u[:frames], v.v[:frames]))


def frame_count(seconds: float, fps: float) -> int:
    """The number of frames captured in `seconds` at `fps` (at least one)."""
    return max(1, round(seconds * fps))


def make_content(resolution: str, seconds: float, fps: float, seed: int) -> Content:
    """The synthetic scene of this resolution ("qcif" or "cif"), `seconds` long at `fps`."""
    if resolution not in RESOLUTIONS:
        raise ValueError(f"resolution: {resolution!r} is not one of {', '.join(RESOLUTIONS)}")
    if not (seconds > 0 and fps > 0):
        raise ValueError(f"seconds ({seconds}) and fps ({fps}) must be positive")
    width, height = RESOLUTIONS[resolution]
    n = frame_count(seconds, fps)
    rng = np.random.default_rng(seed)
    scale = width / 176  # motion in pixels per frame grows with the picture
    pan_x, pan_y = (p * scale for p in _PAN_PX_PER_FRAME)
    # The background is larger than the picture by the whole pan, so a frame is a window into it.
    bg_w = width + int(np.ceil(pan_x * n)) + 2
    bg_h = height + int(np.ceil(pan_y * n)) + 2
    bg_y = _background_luma(rng, bg_h, bg_w, scale)
    bg_u, bg_v = _background_chroma(rng, bg_h // 2 + 1, bg_w // 2 + 1)
    objects = [_random_object(rng, width, height, scale) for _ in range(_OBJECTS)]

    ys = np.empty((n, height, width), np.uint8)
    us = np.empty((n, height // 2, width // 2), np.uint8)
    vs = np.empty((n, height // 2, width // 2), np.uint8)
    rows = np.arange(height, dtype=np.float64)[:, None]
    cols = np.arange(width, dtype=np.float64)[None, :]
    for i in range(n):
        x0, y0 = round(pan_x * i), round(pan_y * i)
        y = bg_y[y0 : y0 + height, x0 : x0 + width].copy()
        u = bg_u[y0 // 2 : y0 // 2 + height // 2, x0 // 2 : x0 // 2 + width // 2].copy()
        v = bg_v[y0 // 2 : y0 // 2 + height // 2, x0 // 2 : x0 // 2 + width // 2].copy()
        # Light sweeping across: a wide diagonal ramp whose phase moves one picture per 8 s.
        phase = 2 * np.pi * (i / (8 * fps))
        y += 18 * np.sin((cols / width + rows / height) * np.pi + phase)
        for obj in objects:
            obj.draw(i, y, u, v)
        y += rng.normal(0.0, _GRAIN_SIGMA, y.shape)
        ys[i] = _to_u8(y)
        us[i] = _to_u8(u)
        vs[i] = _to_u8(v)
    return Content(resolution, float(fps), seed, Video(ys, us, vs))


def _to_u8(x: npt.NDArray[np.float64]) -> Plane:
    return np.clip(np.rint(x), 0, 255).astype(np.uint8)


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cell: int) -> npt.NDArray[np.float64]:
    """Noise in [-1, 1] that varies smoothly over about `cell` pixels (bilinear upsampling)."""
    gh, gw = h // cell + 2, w // cell + 2
    grid = rng.uniform(-1.0, 1.0, (gh, gw))
    ry = np.arange(h) / cell
    rx = np.arange(w) / cell
    iy, fy = ry.astype(int), (ry % 1)[:, None]
    ix, fx = rx.astype(int), (rx % 1)[None, :]
    top = grid[iy][:, ix] * (1 - fx) + grid[iy][:, ix + 1] * fx
    bottom = grid[iy + 1][:, ix] * (1 - fx) + grid[iy + 1][:, ix + 1] * fx
    out: npt.NDArray[np.float64] = top * (1 - fy) + bottom * fy
    return out


def _background_luma(rng: np.random.Generator, h: int, w: int, scale: float) -> npt.NDArray[np.float64]:
    rows = np.arange(h, dtype=np.float64)[:, None]
    cols = np.arange(w, dtype=np.float64)[None, :]
    y = 110 + 35 * _smooth_noise(rng, h, w, max(4, round(24 * scale)))
    for _ in range(3):  # oriented gratings of random period and direction
        angle = rng.uniform(0, np.pi)
        period = rng.uniform(6, 30) * scale
        y += rng.uniform(6, 14) * np.sin(2 * np.pi * (np.cos(angle) * cols + np.sin(angle) * rows) / period)
    y += 10 * _smooth_noise(rng, h, w, 2)  # fine detail
    return y


def _background_chroma(
    rng: np.random.Generator, h: int, w: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    u = 128 + 20 * _smooth_noise(rng, h, w, 20)
    v = 128 + 20 * _smooth_noise(rng, h, w, 20)
    return u, v


@dataclass(frozen=True)
class _Object:
    """A textured sprite moving at constant velocity, bouncing off the picture's edges."""

    luma: npt.NDArray[np.float64]  # its texture, (oh, ow)
    mask: npt.NDArray[np.bool_]  # its shape within the texture's box
    u: float
    v: float
    x0: float
    y0: float
    vx: float  # pixels per frame
    vy: float
    width: int  # of the picture
    height: int

    def position(self, i: int) -> tuple[int, int]:
        oh, ow = self.mask.shape
        return _bounce(self.x0 + self.vx * i, self.width - ow), _bounce(self.y0 + self.vy * i, self.height - oh)

    def draw(self, i: int, y: Any, u: Any, v: Any) -> None:
        x, top = self.position(i)
        oh, ow = self.mask.shape
        window = y[top : top + oh, x : x + ow]
        window[self.mask] = self.luma[self.mask]
        cmask = self.mask[::2, ::2]
        ch, cw = cmask.shape
        u[top // 2 : top // 2 + ch, x // 2 : x // 2 + cw][cmask] = self.u
        v[top // 2 : top // 2 + ch, x // 2 : x // 2 + cw][cmask] = self.v


def _bounce(p: float, span: int) -> int:
    """Position p folded into [0, span] as if bouncing between its ends."""
    if span <= 0:
        return 0
    q = p % (2 * span)
    return round(q if q <= span else 2 * span - q)


def _random_object(rng: np.random.Generator, width: int, height: int, scale: float) -> _Object:
    ow = int(rng.integers(round(18 * scale), round(44 * scale)))
    oh = int(rng.integers(round(14 * scale), round(36 * scale)))
    rows = np.arange(oh, dtype=np.float64)[:, None]
    cols = np.arange(ow, dtype=np.float64)[None, :]
    kind = int(rng.integers(0, 3))
    base = rng.uniform(40, 220)
    if kind == 0:  # stripes
        period = rng.uniform(3, 8)
        texture = base + 45 * np.sign(np.sin(2 * np.pi * (cols + rows * rng.uniform(-1, 1)) / period))
    elif kind == 1:  # checkerboard
        cell = int(rng.integers(2, 6))
        texture = base + 40 * (((rows // cell + cols // cell) % 2) * 2 - 1)
    else:  # noise
        texture = base + 35 * _smooth_noise(rng, oh, ow, 3)
    if rng.uniform() < 0.5:  # a disc, else a box
        mask = ((rows - (oh - 1) / 2) / (oh / 2)) ** 2 + ((cols - (ow - 1) / 2) / (ow / 2)) ** 2 <= 1
    else:
        mask = np.ones((oh, ow), bool)
    speed = rng.uniform(0.5, 4.0) * scale
    angle = rng.uniform(0, 2 * np.pi)
    return _Object(
        luma=texture,
        mask=mask,
        u=float(rng.uniform(60, 196)),
        v=float(rng.uniform(60, 196)),
        x0=float(rng.uniform(0, width - ow)),
        y0=float(rng.uniform(0, height - oh)),
        vx=float(speed * np.cos(angle)),
        vy=float(speed * np.sin(angle)),
        width=width,
        height=height,
    )
