"""The two media pictures are drawn (PNG files), and BT.601 colour conversion."""

import matplotlib.pyplot as plt
import numpy as np

from mantra.media.assess import SlotTrace, evaluate
from mantra.media.content import Picture, grey_picture
from mantra.media.figures import frame_strip_png, psnr_trace_png, yuv_to_rgb
from media_helpers import on_time, prepared, set_arrival, window

PNG = b"\x89PNG\r\n\x1a\n"


def test_yuv_to_rgb():
    assert np.all(yuv_to_rgb(grey_picture(4, 4)) == 128)
    red = Picture(np.full((2, 2), 76, np.uint8), np.full((1, 1), 85, np.uint8), np.full((1, 1), 255, np.uint8))
    assert yuv_to_rgb(red)[0, 0].tolist() == [254, 0, 0]  # BT.601 full range: (255, 0, 0) -> Y 76, U 85, V 255


def panels(image):
    """The pictures of a strip, left to right: the runs of columns that are mostly not white,
    each cut to its rows that are mostly not white (titles are thin text), at one common size."""
    drawn = (image < 0.98).any(axis=2)
    columns = np.flatnonzero(drawn.mean(axis=0) > 0.5)
    runs = np.split(columns, np.flatnonzero(np.diff(columns) > 1) + 1)
    cuts = []
    for run in runs:
        rows = np.flatnonzero(drawn[:, run].mean(axis=1) > 0.5)
        cuts.append(image[rows[0] : rows[-1] + 1, run[0] : run[-1] + 1])
    h, w = min(c.shape[0] for c in cuts), min(c.shape[1] for c in cuts)
    return [c[:h, :w] for c in cuts]


def test_pictures_are_drawn(tmp_path):
    p = prepared("mpeg4", 0, "ladder")
    media = on_time(p)
    set_arrival(media, 20, -1.0)
    q = evaluate(p, media, *window(p))
    psnr_trace_png(
        tmp_path / "trace.png", {"lossy": q.psnr_trace()}, SlotTrace(q.time_s, q.slot_encoder_psnr_db), "test"
    )
    frame = 22
    pictures = {"lossy": p.reps[0].decoded.picture(19), "no loss": p.reps[0].decoded.picture(frame)}
    frame_strip_png(tmp_path / "strip.png", pictures, p.content.video.picture(frame), frame)
    for name in ("trace.png", "strip.png"):
        assert (tmp_path / name).read_bytes().startswith(PNG)
    # The strip shows, left to right, the source, the lossy picture and the loss-free decode of
    # frame 22: the loss-free panel looks like the source, the lossy one (frame 19) does not.
    source, lossy, clean = panels(plt.imread(tmp_path / "strip.png")[..., :3])
    assert np.abs(clean - source).mean() < 0.5 * np.abs(lossy - source).mean()
    trace = plt.imread(tmp_path / "trace.png")
    assert trace.std() > 0.05  # a drawn plot, not a blank canvas
