"""The two media pictures are drawn (PNG files), and BT.601 colour conversion."""

import numpy as np

from mantra.media.assess import SlotTrace, evaluate
from mantra.media.content import Picture, grey_picture
from mantra.media.figures import frame_strip_png, psnr_trace_png, yuv_to_rgb
from media_helpers import on_time, prepared, window

PNG = b"\x89PNG\r\n\x1a\n"


def test_yuv_to_rgb():
    assert np.all(yuv_to_rgb(grey_picture(4, 4)) == 128)
    red = Picture(np.full((2, 2), 76, np.uint8), np.full((1, 1), 85, np.uint8), np.full((1, 1), 255, np.uint8))
    assert yuv_to_rgb(red)[0, 0].tolist() == [254, 0, 0]  # BT.601 full range: (255, 0, 0) -> Y 76, U 85, V 255


def test_pictures_are_drawn(tmp_path):
    p = prepared("mpeg4", 0, "ladder")
    media = on_time(p)
    media["frames"][20][1] = -1.0
    q = evaluate(p, media, *window(p))
    psnr_trace_png(
        tmp_path / "trace.png", {"lossy": q.psnr_trace()}, SlotTrace(q.time_s, q.slot_encoder_psnr_db), "test"
    )
    frame = 22
    pictures = {"lossy": p.reps[0].decoded.picture(19), "no loss": p.reps[0].decoded.picture(frame)}
    frame_strip_png(tmp_path / "strip.png", pictures, p.content.video.picture(frame), frame)
    for name in ("trace.png", "strip.png"):
        assert (tmp_path / name).read_bytes().startswith(PNG)
