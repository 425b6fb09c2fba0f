"""Picture quality against the source: PSNR and SSIM of the luma (Y) plane, and EvalVid's MOS.

PSNR (dB) = 10 log10(255^2 / MSE) over the 8-bit Y plane; identical pictures (MSE 0) give
PSNR_CAP_DB = 100 dB, and no value exceeds it, so that means stay finite. The squared errors are
summed exactly in integers, so the same two pictures always give the same PSNR, bit for bit.

SSIM (Wang, Bovik, Sheikh, Simoncelli 2004) over every 8x8 window of the Y plane (sliding by one
pixel, uniform weights, statistics normalised by the window's 64 pixels), with K1 = 0.01,
K2 = 0.03, L = 255; a picture's SSIM is the mean of its windows'. Identical pictures give 1.

MOS: EvalVid's mapping of PSNR (Klaue et al. 2003): > 37 dB excellent (5), 31-37 good (4),
25-31 fair (3), 20-25 poor (2), < 20 bad (1).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

PSNR_CAP_DB = 100.0
SSIM_WINDOW = 8
_C1 = (0.01 * 255) ** 2
_C2 = (0.03 * 255) ** 2
_MOS_LOWER_DB = ((37.0, 5), (31.0, 4), (25.0, 3), (20.0, 2))

Plane = npt.NDArray[np.uint8]  # (height, width)
Planes = npt.NDArray[np.uint8]  # (frames, height, width)
Floats = npt.NDArray[np.float64]


def psnr_db(reference: Plane, test: Plane) -> float:
    """PSNR (dB) of the `test` Y plane against `reference`'s."""
    _check_shapes(reference, test)
    err = np.subtract(reference, test, dtype=np.int32)
    sse = int(np.einsum("ij,ij->", err, err, dtype=np.int64))  # exact
    if sse == 0:
        return PSNR_CAP_DB
    return min(PSNR_CAP_DB, float(10 * np.log10(255.0**2 * reference.size / sse)))


def ssim(reference: Plane, test: Plane) -> float:
    """Mean SSIM of the `test` Y plane against `reference`'s."""
    return SsimReference(reference).ssim(test)


class SsimReference:
    """A reference Y plane's window statistics, computed once for every picture scored against it
    (the same numbers as `ssim`, bit for bit)."""

    def __init__(self, reference: Plane):
        if reference.ndim != 2 or min(reference.shape) < SSIM_WINDOW:
            raise ValueError(f"a {reference.shape} picture is smaller than the SSIM window ({SSIM_WINDOW})")
        self.reference = reference
        self._x = reference.astype(np.int32)
        n = SSIM_WINDOW * SSIM_WINDOW
        # Window sums are exact in int32 (at most 64 * 255^2); the statistics are in float64.
        self._mx = _window_sums(self._x) / n
        self._vx = _window_sums(self._x * self._x) / n - self._mx * self._mx

    def ssim(self, test: Plane) -> float:
        """Mean SSIM of the `test` Y plane against the reference."""
        _check_shapes(self.reference, test)
        y = test.astype(np.int32)
        n = SSIM_WINDOW * SSIM_WINDOW
        mx, vx = self._mx, self._vx
        my = _window_sums(y) / n
        vy = _window_sums(y * y) / n - my * my
        cxy = _window_sums(self._x * y) / n - mx * my
        index = ((2 * mx * my + _C1) * (2 * cxy + _C2)) / ((mx * mx + my * my + _C1) * (vx + vy + _C2))
        return float(index.mean())


def psnr_db_frames(reference: Planes, test: Planes) -> Floats:
    """psnr_db of each plane of two (frames, height, width) stacks."""
    return np.array([psnr_db(r, t) for r, t in zip(reference, test, strict=True)], dtype=np.float64)


def ssim_frames(reference: Planes, test: Planes) -> Floats:
    """ssim of each plane of two (frames, height, width) stacks."""
    return np.array([ssim(r, t) for r, t in zip(reference, test, strict=True)], dtype=np.float64)


def mos(psnr_db: float) -> int:
    """EvalVid's MOS (1 bad .. 5 excellent) for a PSNR."""
    for lower, score in _MOS_LOWER_DB:
        if psnr_db > lower:
            return score
    return 1


def _check_shapes(reference: Plane, test: Plane) -> None:
    if reference.shape != test.shape or reference.ndim != 2:
        raise ValueError(f"pictures of different or unexpected shapes: {reference.shape} and {test.shape}")


def _window_sums(a: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
    """The sum over every SSIM_WINDOW x SSIM_WINDOW window of a plane."""
    w = SSIM_WINDOW
    h = a.shape[0] - w + 1
    rows = a[:h].copy()
    for k in range(1, w):
        rows += a[k : k + h]
    acc = np.cumsum(rows, axis=1, dtype=np.int32)
    sums = np.empty((h, a.shape[1] - w + 1), np.int32)
    sums[:, 0] = acc[:, w - 1]
    np.subtract(acc[:, w:], acc[:, :-w], out=sums[:, 1:])
    return sums
