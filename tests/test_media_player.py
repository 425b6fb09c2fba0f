"""The player: with every frame on time it shows exactly the encoder's pictures; a lost or late
frame freezes exactly the slots whose frames depend on it; more loss never helps."""

from dataclasses import replace

import numpy as np
import pytest

from mantra.media.assess import assess, evaluate
from mantra.media.player import GREY, play
from media_helpers import START_S, deadline_s, decode_index, on_time, prepared, set_arrival, window

CONFIGS = [("mpeg4", 0, "ladder"), ("h264", 0, "ladder"), ("mpeg4", 2, "layered"), ("h264", 2, "layered")]


@pytest.mark.parametrize(("codec", "b_frames", "mode"), CONFIGS)
def test_without_loss_every_slot_is_the_encoders_picture(codec, b_frames, mode):
    p = prepared(codec, b_frames, mode)
    media = on_time(p, loops=2)  # GOPs alternate between the two rungs: each GOP spliced after the other's
    playout = play(p, media, *window(p, loops=2))
    q = assess(p, playout)
    assert q.frames_evaluated == 2 * p.frames
    reps = np.array(media["gop_reps"])[playout.slots // p.desc.gop_frames]
    assert np.array_equal(playout.shown, playout.slots)
    assert np.array_equal(playout.shown_rep, reps)
    expected = np.array([p.reps[r].psnr_db[f] for r, f in zip(reps, playout.source_frame, strict=True)])
    assert np.array_equal(q.psnr_db, expected)  # exactly, per slot
    assert np.array_equal(q.ssim, [p.reps[r].ssim[f] for r, f in zip(reps, playout.source_frame, strict=True)])
    for k, (r, f) in enumerate(zip(reps, playout.source_frame, strict=True)):
        assert p.reps[r].decoded.equals(int(f), playout.picture(k))
    assert q.mean_psnr_db == q.encoder_psnr_db
    assert q.frozen_share == 0
    assert q.startup_delay_s == pytest.approx(p.desc.playout_delay_s)


def _lose(media, g):
    set_arrival(media, g, -1.0)


def _expect_freeze(p, q, playout, frozen_display, shows_display):
    """Slots `frozen_display` (display indices of the first loop) show the picture of
    `shows_display`; every other slot is the encoder's."""
    frozen = set(frozen_display)
    for k, j in enumerate(playout.slots.tolist()):
        if j in frozen:
            assert playout.shown[k] == shows_display, f"slot {j}"
            assert q.psnr_db[k] != q.slot_encoder_psnr_db[k], f"slot {j}"
        else:
            assert playout.shown[k] == j, f"slot {j}"
            assert q.psnr_db[k] == q.slot_encoder_psnr_db[k], f"slot {j}"
    before = int(np.flatnonzero(playout.slots == shows_display)[0])
    for k in np.flatnonzero(np.isin(playout.slots, list(frozen))):
        assert all(np.array_equal(a, b) for a, b in zip(playout.picture(k), playout.picture(before), strict=True))


@pytest.mark.parametrize(("codec", "b_frames", "mode"), CONFIGS)
def test_a_lost_p_frame_freezes_the_rest_of_its_gop(codec, b_frames, mode):
    p = prepared(codec, b_frames, mode)
    gop = p.desc.gop_frames
    lost_display = gop + 6  # a P frame of the second GOP (I B B P B B P: display 6 is a P)
    g = decode_index(p, lost_display)
    assert p.reps[0].types[g] == "P"
    media = on_time(p)
    _lose(media, g)
    playout = play(p, media, *window(p))
    q = assess(p, playout)
    # Damaged: every frame displayed after the previous anchor, up to the GOP's end (the B frames
    # just before the lost P need it too); they show that anchor's picture.
    previous_anchor = lost_display - (b_frames + 1)
    _expect_freeze(p, q, playout, range(previous_anchor + 1, 2 * gop), previous_anchor)
    assert q.frozen_share == pytest.approx((2 * gop - previous_anchor - 1) / p.frames)


@pytest.mark.parametrize("codec", ["mpeg4", "h264"])
def test_a_lost_or_unsent_b_frame_damages_only_its_slot(codec):
    p = prepared(codec, 2, "layered")
    b_display = p.desc.gop_frames + 4  # I B B P B(4) B P ...
    g = decode_index(p, b_display)
    assert p.reps[0].types[g] == "B"
    for how in ("lost", "not sent"):
        media = on_time(p)
        if how == "lost":
            _lose(media, g)
        else:
            media["frames"][g] = [-1, -1.0, []]  # the layered sender left the enhancement frame out
        playout = play(p, media, *window(p))
        _expect_freeze(p, assess(p, playout), playout, [b_display], b_display - 1)


def test_psnr_falls_as_nested_loss_sets_grow():
    p = prepared("h264", 0, "ladder", seconds=4.8)
    loops = 2
    total = loops * p.frames
    order = np.random.default_rng(3).permutation(total)
    sets = {pct: set(order[: round(total * pct / 100)].tolist()) for pct in (0, 1, 5, 10)}
    assert sets[0] <= sets[1] <= sets[5] <= sets[10]
    means = []
    for pct, lost in sets.items():
        media = on_time(p, loops=loops)
        for g in lost:
            _lose(media, g)
        q = evaluate(p, media, *window(p, loops=loops))
        means.append(q.mean_psnr_db)
        assert q.encoder_psnr_db == pytest.approx(means[0]), pct  # the same ceiling: the same choices
    assert all(a >= b for a, b in zip(means, means[1:], strict=False)), means
    assert means[-1] < means[0], means


@pytest.mark.parametrize(("codec", "b_frames", "mode"), [("mpeg4", 0, "ladder"), ("h264", 2, "layered")])
def test_a_frame_after_its_deadline_is_lost_and_one_just_before_is_shown(codec, b_frames, mode):
    p = prepared(codec, b_frames, mode)
    display = p.desc.gop_frames + 3  # a P frame in both structures
    g = decode_index(p, display)
    k = display  # its slot in a one-loop window from the first slot
    for slack, shown in ((-1e-6, True), (1e-6, False)):
        media = on_time(p)
        set_arrival(media, g, deadline_s(p, g) + slack)
        playout = play(p, media, *window(p))
        assert playout.slots[k] == display
        assert bool(playout.shown[k] == display) is shown, slack


def test_grey_before_the_first_picture_and_startup_delay():
    p = prepared("mpeg4", 0, "ladder")
    media = on_time(p)
    _lose(media, 0)  # the first I frame: nothing of the first GOP can be decoded
    playout = play(p, media, *window(p))
    q = assess(p, playout)
    gop = p.desc.gop_frames
    assert np.all(playout.shown[:gop] == GREY)
    assert all(np.all(plane == 128) for plane in playout.picture(0))
    assert q.startup_delay_s == pytest.approx(p.desc.playout_delay_s + gop / p.fps)
    assert q.frozen_share == pytest.approx(gop / p.frames)


def test_loops_and_frames_never_reached():
    p = prepared("mpeg4", 0, "ladder")
    n = p.frames
    media = on_time(p, loops=2)
    media["frames"] = media["frames"][: n + 5]  # the run ended after 5 frames of the second loop
    playout = play(p, media, *window(p, loops=2))
    assert np.array_equal(playout.shown[: n + 5], np.arange(n + 5))
    assert np.all(playout.shown[n + 5 :] == n + 4)  # frozen on the last frame received
    assert np.all(playout.source_frame == playout.slots % n)
    # The second loop's slots are displayed one loop (N / fps) after the first's.
    assert playout.time_s[n] - playout.time_s[0] == pytest.approx(n / p.fps)


def test_only_slots_in_the_window_are_evaluated():
    p = prepared("mpeg4", 0, "ladder")
    media = on_time(p, loops=2)
    first = START_S + p.desc.playout_delay_s
    playout = play(p, media, first + 10 / p.fps, first + 20 / p.fps)
    assert playout.slots.tolist() == list(range(10, 21))
    with pytest.raises(ValueError, match="no frame is displayed"):
        play(p, media, first + 10.2 / p.fps, first + 10.8 / p.fps)


def test_a_decoded_picture_unlike_the_no_loss_decode_is_a_pipeline_error():
    p = prepared("mpeg4", 0, "ladder")
    rep = p.reps[1]
    y = rep.decoded.y.copy()
    y[13, 0, 0] ^= 1  # the no-loss decode of frame 13 (second GOP, rung 1) altered by one bit
    broken = replace(p, reps=(p.reps[0], replace(rep, decoded=replace(rep.decoded, y=y))))
    with pytest.raises(RuntimeError, match="frame 13 decoded from the kept frames is not its no-loss decode"):
        play(broken, on_time(p), *window(p))


def test_a_delivery_that_contradicts_its_gop_choice_is_refused():
    p = prepared("mpeg4", 0, "ladder")
    media = on_time(p)
    media["frames"][3][0] = 1 - media["frames"][3][0]
    with pytest.raises(ValueError, match="frame 3 was sent in representation"):
        play(p, media, *window(p))
