"""Slices: each picture cut into slices (H.264) or video packets (MPEG-4) that fit a datagram,
whole ones in each datagram; a lost datagram loses only its slices, the decoder conceals those
macroblocks and decodes the rest exactly; the player shows a frame partly there concealed or
frozen, by the description's key."""

import numpy as np
import pytest

from mantra.media import slices
from mantra.media.delivery import Delivery, received
from mantra.media.packetize import Datagram, packetize, units_arrived
from mantra.media.player import play
from media_helpers import lose_datagram, on_time, prepared, set_arrival, window

SLICED = {"ladder": (512000,), "packetization": "slices", "partial": "conceal"}
MB = 16  # a macroblock's side, luma pixels
DEBLOCK_REACH_PX = 3  # H.264's in-loop filter changes at most 3 pixels on each side of an edge


def test_whole_units_go_into_datagrams_and_only_an_oversized_one_is_cut():
    assert packetize([400, 500, 300, 900], 1000) == (
        Datagram(900, 0, 2),
        Datagram(300, 2, 3),  # 300 + 900 would not fit: never one unit across two datagrams
        Datagram(900, 3, 4),
    )
    assert packetize([100, 2500, 50], 1000) == (
        Datagram(100, 0, 1),
        Datagram(1000, 1, 2),  # a unit over the budget is cut: three fragments of unit 1
        Datagram(1000, 1, 2),
        Datagram(500, 1, 2),
        Datagram(50, 2, 3),
    )
    assert packetize([1000], 1000) == (Datagram(1000, 0, 1),)
    with pytest.raises(ValueError, match="budget_bytes"):
        packetize([10], 0)


def test_a_unit_arrives_only_with_every_datagram_covering_it():
    datagrams = packetize([100, 2500, 50, 60], 1000)  # [0], [1] x 3 fragments, [2, 3]
    assert units_arrived(datagrams, [True, True, False, True, True], 4) == (True, False, True, True)
    assert units_arrived(datagrams, [False, True, True, True, False], 4) == (False, True, False, False)


@pytest.mark.parametrize("codec", ["h264", "mpeg4"])
def test_every_picture_is_cut_into_slices_that_fit_and_sum_to_the_frame(codec):
    p = prepared(codec, 0, "ladder", **SLICED)
    rep, budget = p.reps[0], p.desc.slice_bytes
    assert budget == 1000 - 64 and rep.slice_bytes == budget
    width, height = p.content.video.width, p.content.video.height
    intra_units = []
    for d, packet in enumerate(rep.packets):
        units = rep.units[d]
        assert sum(units) == len(packet) and min(units) > 0
        starts = slices.first_macroblocks(codec, packet, width, height)
        firsts = [mb for mb in starts if mb is not None]
        assert firsts[0] == 0 and firsts == sorted(set(firsts)) and firsts[-1] < (width // MB) * (height // MB)
        if codec == "h264":  # x264's limit is hard
            assert all(size <= budget for size, mb in zip(units, starts, strict=True) if mb is not None)
        if rep.types[d] == "I":
            intra_units.append(len(units))
        # The datagrams hold whole units of at most the budget, all the frame's bytes.
        datagrams = p.datagrams[0][d]
        assert sum(g.bytes for g in datagrams) == len(packet)
        assert all(g.bytes <= budget for g in datagrams)
    assert min(intra_units) >= 4  # at 512 kb/s an intra frame is several slices


@pytest.mark.parametrize("codec", ["h264", "mpeg4"])
def test_a_frame_encoded_without_slices_is_one_unit(codec):
    rep = prepared(codec, 0, "ladder").reps[0]
    assert rep.slice_bytes is None and all(u == (len(p),) for u, p in zip(rep.units, rep.packets, strict=True))


def _lost_area(p, d, datagram):
    """The luma pixels of the macroblocks of the slices datagram `datagram` of frame d covers."""
    rep = p.reps[0]
    width, height = p.content.video.width, p.content.video.height
    firsts = slices.first_macroblocks(p.desc.codec, rep.packets[d], width, height)
    g = p.datagrams[0][d][datagram]
    starts = [mb for mb in firsts[g.first_unit :] if mb is not None]
    end = next((mb for mb in firsts[g.end_unit :] if mb is not None), (width // MB) * (height // MB))
    mask = np.zeros((height, width), dtype=bool)
    for mb in range(starts[0], end):
        y, x = divmod(mb, width // MB)
        mask[y * MB : (y + 1) * MB, x * MB : (x + 1) * MB] = True
    return mask


def _grow(mask, px):
    """The mask and every pixel within `px` of it (a square neighbourhood)."""
    out = mask.copy()
    for dy in range(-px, px + 1):
        for dx in range(-px, px + 1):
            out |= np.roll(np.roll(mask, dy, axis=0), dx, axis=1)
    return out


@pytest.mark.parametrize("concealment", ["freeze", "decoder"])
@pytest.mark.parametrize("codec", ["h264", "mpeg4"])
def test_a_lost_datagram_of_an_intra_frame_loses_only_its_macroblocks(codec, concealment):
    p = prepared(codec, 0, "ladder", **SLICED)
    g = p.desc.gop_frames  # the second GOP's intra frame
    datagrams = p.datagrams[0][g]
    lost = len(datagrams) // 2  # a middle one: not the first (MPEG-4's VOP header is there)
    assert 0 < lost < len(datagrams) - 1
    media = on_time(p, gop_reps=[0] * len(p.gop_starts))
    lose_datagram(media, g, lost)
    first = play(p, media, *window(p), concealment)
    again = play(p, media, *window(p), concealment)
    k = int(np.flatnonzero(first.slots == g)[0])
    shown = first.picture(k)
    assert first.shown[k] == g and first.damaged[k]  # its own frame, concealed: not a freeze
    assert all(np.array_equal(a, b) for a, b in zip(shown, again.picture(k), strict=True))  # deterministic
    lost_area = _lost_area(p, g, lost)
    margin = DEBLOCK_REACH_PX if codec == "h264" else 0  # MPEG-4 Part 2 has no in-loop filter
    kept = ~_grow(lost_area, margin)
    reconstruction = p.reps[0].decoded
    differs = shown.y != reconstruction.y[g]
    assert not np.any(differs & kept), f"{np.count_nonzero(differs & kept)} pixels differ outside the lost slices"
    assert np.any(differs & lost_area)  # the lost macroblocks were concealed, not decoded
    half = ~_grow(lost_area, 2 * MB)[::2, ::2]  # chroma: away from the lost area by a macroblock
    assert np.array_equal(shown.u[half], reconstruction.u[g][half])
    assert np.array_equal(shown.v[half], reconstruction.v[g][half])


@pytest.mark.parametrize("codec", ["h264", "mpeg4"])
def test_the_partial_key_shows_a_frame_partly_there_concealed_or_frozen(codec):
    g_intra = 12
    for partial, frozen in (("conceal", 0), ("freeze", 12)):
        p = prepared(codec, 0, "ladder", ladder=(512000,), packetization="slices", partial=partial)
        media = on_time(p, gop_reps=[0] * len(p.gop_starts))
        lose_datagram(media, g_intra, 1)
        playout = play(p, media, *window(p))
        in_gop = (playout.slots >= g_intra) & (playout.slots < g_intra + 12)
        assert np.count_nonzero(playout.frozen) == frozen, partial  # the whole GOP, or none of it
        if partial == "conceal":
            assert np.all(playout.damaged[in_gop]) and not np.any(playout.damaged[~in_gop])


def test_an_mpeg4_frame_without_its_first_datagram_is_not_usable():
    p = prepared("mpeg4", 0, "ladder", **SLICED)
    media = on_time(p, gop_reps=[0] * len(p.gop_starts))
    lose_datagram(media, 12, 0)  # its VOP header: the rest cannot be decoded
    got = received(p, Delivery.from_result(media, p), 1)
    assert not got.usable[12] and any(got.units[12]) and not got.whole[12]
    playout = play(p, media, *window(p), "decoder")
    assert playout.decode_errors == 0  # not fed to the decoder
    assert np.count_nonzero(playout.frozen) == 1  # its slot repeats the last picture
    k = int(np.flatnonzero(playout.slots == 12)[0])
    assert playout.shown[k] == 11
    set_arrival(media, 12, -1.0)  # the same as losing it whole
    assert np.array_equal(play(p, media, *window(p), "decoder").shown, playout.shown)
