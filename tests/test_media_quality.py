"""PSNR and SSIM of the luma plane, and EvalVid's MOS mapping."""

import math

import numpy as np
import pytest

from mantra.media.content import make_content
from mantra.media.quality import PSNR_CAP_DB, mos, psnr_db, psnr_db_frames, ssim, ssim_frames


def _picture(seed=0):
    return make_content("qcif", 0.04, 25, seed).video.y[0]


def test_identical_pictures_give_ssim_1_and_the_capped_psnr():
    y = _picture()
    assert ssim(y, y.copy()) == 1.0
    assert psnr_db(y, y.copy()) == PSNR_CAP_DB == 100.0


def test_psnr_of_a_known_uniform_error():
    y = np.full((144, 176), 100, np.uint8)
    for error in (1, 3, 10):
        assert psnr_db(y, y + np.uint8(error)) == pytest.approx(10 * math.log10(255**2 / error**2), abs=1e-12)
    # Half the pixels off by 4: MSE 8.
    z = y.copy()
    z[::2] += 4
    assert psnr_db(y, z) == pytest.approx(10 * math.log10(255**2 / 8), abs=1e-12)


def test_ssim_of_known_pictures():
    flat = np.full((16, 16), 100, np.uint8)
    # Two flat pictures: only the luminance term, (2 m1 m2 + C1) / (m1^2 + m2^2 + C1).
    c1 = (0.01 * 255) ** 2
    assert ssim(flat, flat + np.uint8(20)) == pytest.approx((2 * 100 * 120 + c1) / (100**2 + 120**2 + c1))
    # Inverting the texture of a picture turns its structure term negative.
    y = _picture()
    assert ssim(y, 255 - y) < 0
    noisy = np.clip(y + np.random.default_rng(0).normal(0, 8, y.shape), 0, 255).astype(np.uint8)
    assert 0.5 < ssim(y, noisy) < 0.99


def test_the_stack_versions_are_the_per_picture_values():
    a = make_content("qcif", 0.2, 25, 1).video.y
    b = make_content("qcif", 0.2, 25, 2).video.y
    assert psnr_db_frames(a, b).tolist() == [psnr_db(x, y) for x, y in zip(a, b, strict=True)]
    assert ssim_frames(a, b).tolist() == [ssim(x, y) for x, y in zip(a, b, strict=True)]


def test_mos_follows_evalvids_table():
    assert [mos(db) for db in (45, 37.01, 37, 31.01, 31, 25.01, 25, 20.01, 20, 5)] == [5, 5, 4, 4, 3, 3, 2, 2, 1, 1]
