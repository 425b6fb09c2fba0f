"""The player's second concealment, EvalVid's: the decoder is fed every frame that arrived and
conceals the rest (drift), instead of freezing until the next decodable I frame. With no loss it
shows what the freeze player shows; a lost frame repeats the previous picture in its own slot and
drifts the frames that depend on it, up to the next I frame; it freezes less than the freeze
player."""

import av.logging
import numpy as np
import pytest

from mantra.media import flow_video
from mantra.media.assess import assess, evaluate
from mantra.media.desc import MediaDesc
from mantra.media.player import GREY, play
from media_helpers import CACHE_DIR, START_S, decode_index, desc, on_time, prepared, set_arrival, window

CONFIGS = [("mpeg4", 0, "ladder"), ("h264", 0, "ladder"), ("mpeg4", 2, "layered"), ("h264", 2, "layered")]


def _same(a, b):
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def _lose(media, *frames):
    for g in frames:
        set_arrival(media, g, -1.0)


def _no_loss_picture(p, media, k, playout):
    """The encoder's decode of slot k's own frame, in the rung the sender chose for it."""
    rep = p.reps[media["gop_reps"][int(playout.slots[k]) // p.desc.gop_frames]]
    return rep.decoded.picture(int(playout.source_frame[k]))


@pytest.mark.parametrize(("codec", "b_frames", "mode"), CONFIGS)
def test_without_loss_the_decoder_shows_what_the_freeze_player_shows(codec, b_frames, mode):
    p = prepared(codec, b_frames, mode)
    media = on_time(p, loops=2)  # GOPs alternate between the rungs: one decoder across the switches
    span = (window(p, loops=2)[0] + 5 / p.fps, window(p, loops=2)[1])  # starts mid-GOP
    freeze = play(p, media, *span)
    ec = play(p, media, *span, concealment="decoder")
    assert np.array_equal(ec.shown, ec.slots) and np.array_equal(ec.shown, freeze.shown)
    assert np.array_equal(ec.shown_rep, freeze.shown_rep)
    for k in range(len(ec.slots)):
        assert _same(ec.picture(k), freeze.picture(k)), k
        assert _same(ec.picture(k), _no_loss_picture(p, media, k, ec)), k
    qf, qe = assess(p, freeze), assess(p, ec)
    assert np.array_equal(qe.psnr_db, qf.psnr_db) and np.array_equal(qe.psnr_db, qe.slot_encoder_psnr_db)
    assert qe.decode_errors == 0 and qe.frozen_share == 0
    assert qe.startup_delay_s == qf.startup_delay_s
    assert qe.summary() == {**qf.summary(), "decode_errors": 0}


@pytest.mark.parametrize("codec", ["mpeg4", "h264"])
def test_a_lost_p_frame_repeats_in_its_slot_and_drifts_the_rest_of_its_gop(codec):
    p = prepared(codec, 0, "ladder")
    gop = p.desc.gop_frames
    lost = gop + 6  # a P frame of the second GOP (no B frames: decode order is display order)
    assert p.reps[0].types[lost] == "P"
    media = on_time(p)
    _lose(media, lost)
    playout = play(p, media, *window(p), concealment="decoder")
    q = assess(p, playout)
    assert playout.decode_errors == 0
    drifted = 0
    for k, j in enumerate(playout.slots.tolist()):
        if j == lost:  # its own slot repeats the previous picture
            assert playout.shown[k] == j - 1 and playout.frozen[k]
            assert _same(playout.picture(k), playout.picture(k - 1))
        elif lost < j < 2 * gop:  # decoded against the last picture the decoder had
            assert playout.shown[k] == j and not playout.frozen[k], j
            drifted += not _same(playout.picture(k), _no_loss_picture(p, media, k, playout))
        else:  # before the loss, and from the next I frame on: exact
            assert playout.shown[k] == j, j
            assert _same(playout.picture(k), _no_loss_picture(p, media, k, playout)), j
            assert q.psnr_db[k] == q.slot_encoder_psnr_db[k], j
    assert drifted >= 1
    assert q.frozen_share == pytest.approx(1 / p.frames)


@pytest.mark.parametrize(("codec", "b_frames", "mode"), CONFIGS)
def test_a_lost_i_frame_leaves_its_gop_to_the_previous_gops_picture(codec, b_frames, mode):
    p = prepared(codec, b_frames, mode)
    gop = p.desc.gop_frames
    assert p.reps[0].types[gop] == "I"
    media = on_time(p)
    _lose(media, gop)
    playout = play(p, media, *window(p), concealment="decoder")  # no exception escapes
    assert playout.decode_errors == 0
    assert not np.any(playout.shown == GREY)
    in_gop = [k for k, j in enumerate(playout.slots.tolist()) if gop <= j < 2 * gop]
    assert playout.shown[in_gop[0]] == gop - 1  # the I frame's own slot repeats the last picture
    if (codec, b_frames) == ("h264", 0):
        # FFmpeg's h264 decoder decodes the P frames (against the previous GOP's pictures: frame
        # num gap), but finds them out of display order (POC derived from frame_num, restarted by
        # the lost IDR) and outputs none but the last: the slots repeat the previous GOP's last
        # picture, then the GOP's last frame shows, drifted.
        assert np.all(playout.shown[in_gop[:-1]] == gop - 1)
        decoded = in_gop[-1:]
    else:
        decoded = in_gop[1:]  # every P (and B) frame of the GOP decoded against the previous GOP
    for k in decoded:
        assert not playout.frozen[k], playout.slots[k]
        assert not _same(playout.picture(k), _no_loss_picture(p, media, k, playout))
        assert not _same(playout.picture(k), playout.grey)
    for k in np.flatnonzero(playout.slots >= 2 * gop):  # the next GOP: exact again
        assert _same(playout.picture(k), _no_loss_picture(p, media, k, playout))


@pytest.mark.parametrize("codec", ["mpeg4", "h264"])
def test_the_first_i_frame_lost_gives_grey_and_decode_errors(codec):
    p = prepared(codec, 0, "ladder")
    gop = p.desc.gop_frames
    media = on_time(p)
    _lose(media, 0)
    freeze = assess(p, play(p, media, *window(p)))
    playout = play(p, media, *window(p), concealment="decoder")
    q = assess(p, playout)
    # A fresh decoder has no sequence headers (they travel in I frames): FFmpeg refuses the P frames.
    assert playout.decode_errors == gop - 1
    assert np.all(playout.shown[:gop] == GREY)
    assert np.array_equal(playout.shown[gop:], playout.slots[gop:])
    assert q.startup_delay_s == freeze.startup_delay_s
    assert q.summary()["decode_errors"] == gop - 1 and "decode_errors" not in freeze.summary()
    assert av.logging.get_level() is None  # FFmpeg's log, silenced during the decode, is as it was


@pytest.mark.parametrize("codec", ["mpeg4", "h264"])
def test_with_nested_losses_quality_falls_and_the_decoder_freezes_less(codec):
    p = prepared(codec, 0, "ladder")
    loops = 4
    total = loops * p.frames
    order = np.random.default_rng(3).permutation(total)
    means = {}
    for pct in (0, 10):
        media = on_time(p, loops=loops)
        _lose(media, *order[: round(total * pct / 100)].tolist())
        freeze = evaluate(p, media, *window(p, loops=loops))
        ec = evaluate(p, media, *window(p, loops=loops), concealment="decoder")
        assert ec.encoder_psnr_db == freeze.encoder_psnr_db
        means[pct] = ec.mean_psnr_db
    assert means[10] < means[0], means
    assert ec.frozen_share < freeze.frozen_share, (ec.frozen_share, freeze.frozen_share)
    assert ec.mean_psnr_db > freeze.mean_psnr_db  # drift beats a freeze to the next I frame, here


@pytest.mark.parametrize(("codec", "b_frames", "mode"), [("mpeg4", 2, "layered"), ("h264", 0, "ladder")])
def test_the_same_delivery_gives_the_same_pictures(codec, b_frames, mode):
    p = prepared(codec, b_frames, mode)
    media = on_time(p, loops=2)
    _lose(media, *np.random.default_rng(5).permutation(2 * p.frames)[:20].tolist())
    first, again = (play(p, media, *window(p, loops=2), concealment="decoder") for _ in range(2))
    assert np.array_equal(first.shown, again.shown)
    assert first.pictures.keys() == again.pictures.keys()
    assert all(_same(first.pictures[j], again.pictures[j]) for j in first.pictures)


def test_an_unknown_concealment_is_refused():
    p = prepared("mpeg4", 0, "ladder")
    with pytest.raises(ValueError, match="concealment 'blur'"):
        play(p, on_time(p), *window(p), concealment="blur")


def test_a_run_result_gets_video_and_video_ec(monkeypatch):
    monkeypatch.setenv("MANTRA_MEDIA_CACHE", str(CACHE_DIR))  # the helpers' encodings
    p = prepared("h264", 0, "ladder")
    assert p.desc == desc("h264")
    media = on_time(p, loops=2)
    _lose(media, decode_index(p, 18))
    media["source"] = {"desc": p.desc.as_dict()}
    assert MediaDesc.from_dict(media["source"]["desc"]) == p.desc
    first, last = window(p, loops=2)
    result = {"spec": {"duration": last + 1, "measure": {"from": first, "to": last}}, "flows": [{"media": media}]}
    flow = flow_video.add_video_quality(result)["flows"][0]
    video, ec = flow["video"], flow["video_ec"]
    # The rung extremes are the sender's, said once in `video`.
    assert set(ec) == set(video) - {"gops_at_bottom_share", "gops_at_top_share"} | {"decode_errors"}
    assert set(ec["series"]) == {"t", "psnr_db"} and ec["series"]["t"] == video["series"]["t"]
    assert ec["frames_evaluated"] == video["frames_evaluated"] == 2 * p.frames
    assert ec["decode_errors"] == 0 and ec["encoder_psnr_db"] == video["encoder_psnr_db"]
    assert ec["frozen_share"] == pytest.approx(1 / (2 * p.frames))  # the lost frame's slot
    assert video["frozen_share"] == pytest.approx(6 / (2 * p.frames))  # the rest of its GOP
    assert ec["series"]["t"][0] == pytest.approx(START_S + p.desc.playout_delay_s)
