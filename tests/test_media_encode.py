"""Encoding: the same input gives the same bytes; the GOP structure is the one asked for; every GOP
decodes alone or after a GOP of another rung; the cache gives the encoded rungs back."""

import json
import time

import numpy as np
import pytest

from mantra.media.content import make_content
from mantra.media.decode import decode
from mantra.media.encode import codec_versions, encode, stream_from_packets
from mantra.media.ladder import prepare
from media_helpers import desc, prepared


def test_the_content_is_a_pure_function_of_its_arguments():
    a, b = make_content("qcif", 1, 25, 5), make_content("qcif", 1, 25, 5)
    assert a.video.sha256() == b.video.sha256()
    assert make_content("qcif", 1, 25, 6).video.sha256() != a.video.sha256()
    assert (a.frames, a.video.width, a.video.height, a.video.u.shape) == (25, 176, 144, (25, 72, 88))
    # It moves: consecutive frames differ, and not only by the grain.
    assert np.abs(a.video.y[1].astype(int) - a.video.y[0]).mean() > 5


@pytest.mark.parametrize("codec", ["mpeg4", "h264"])
@pytest.mark.parametrize("b_frames", [0, 2])
def test_encoding_twice_gives_the_same_bytes(codec, b_frames):
    # (libx264's macroblock-tree rate control with a fixed B pattern gave different bytes on most
    # runs; a few encodes of some length show it.)
    content = make_content("qcif", 2.4, 25, 3)
    first, *others = (encode(content, codec, 256000, 12, b_frames) for _ in range(3))
    for other in others:
        assert other.packets == first.packets
        assert other.decoded.sha256() == first.decoded.sha256()


@pytest.mark.parametrize("codec", ["mpeg4", "h264"])
def test_the_gop_structure_and_layers(codec):
    ladder = prepared(codec, 0, "ladder").reps[0]
    assert ladder.types == "IPPPPPPPPPPP" * 5
    assert ladder.display == tuple(range(60)) and set(ladder.layers) == {0}
    layered = prepared(codec, 2, "layered").reps[0]
    assert layered.types == "IPBBPBBPBBPB" * 5
    assert layered.display[:12] == (0, 3, 1, 2, 6, 4, 5, 9, 7, 8, 11, 10)
    assert layered.layers[:4] == (0, 0, 1, 1)
    assert layered.gop_starts == (0, 12, 24, 36, 48)


def test_a_stream_without_the_requested_structure_is_refused():
    p = prepared("mpeg4", 0, "ladder")
    rep = p.reps[0]
    with pytest.raises(RuntimeError, match="GOP at decode index 6"):  # claimed GOPs of 6: no I at 6
        stream_from_packets(p.content, "mpeg4", rep.rate_bps, 6, 0, None, rep.settings, rep.packets, rep.display)


@pytest.mark.parametrize(("codec", "b_frames", "mode"), [("mpeg4", 2, "layered"), ("h264", 2, "layered")])
def test_gops_decode_alone_and_spliced_after_another_rungs(codec, b_frames, mode):
    p = prepared(codec, b_frames, mode)
    low, high = p.reps
    gop = p.desc.gop_frames
    # One decoder, the GOPs taken from alternating rungs.
    chosen = [low, high, low, high, low]
    stream = [(chosen[d // gop].packets[d], chosen[d // gop].display[d]) for d in range(p.frames)]
    out = decode(codec, stream)
    for i in range(p.frames):
        assert chosen[i // gop].decoded.equals(i, out[i].picture), i
    # The third GOP alone.
    alone = decode(codec, [(high.packets[d], high.display[d]) for d in range(2 * gop, 3 * gop)])
    assert all(high.decoded.equals(i, alone[i].picture) for i in range(2 * gop, 3 * gop))


def test_prepare_reuses_the_cache(tmp_path):
    d = desc("mpeg4", 0, "ladder", ladder=(48000, 96000, 160000))
    t0 = time.perf_counter()
    cold = prepare(d, tmp_path)
    t1 = time.perf_counter()
    warm = prepare(d, tmp_path)
    t2 = time.perf_counter()
    assert (cold.cache_hits, warm.cache_hits) == (0, 3)
    assert [r.packets for r in warm.reps] == [r.packets for r in cold.reps]
    assert all(np.array_equal(a.psnr_db, b.psnr_db) for a, b in zip(warm.reps, cold.reps, strict=True))
    assert t2 - t1 < t1 - t0
    # A rung shared with another ladder is found; a damaged file is encoded again.
    assert len(list(tmp_path.glob("*.npz"))) == 3
    (damaged,) = tmp_path.glob("mpeg4-48000-*.npz")
    damaged.write_bytes(b"not a cache file")
    again = prepare(desc("mpeg4", 0, "ladder", ladder=(48000, 96000)), tmp_path)
    assert again.cache_hits == 1 and again.reps[0].packets == cold.reps[0].packets
    assert prepare(d, tmp_path).cache_hits == 3
    other_content = desc("mpeg4", 0, "ladder", ladder=(48000, 96000, 160000), seed=8)
    assert prepare(other_content, tmp_path).cache_hits == 0


def test_the_simulators_block():
    p = prepared("h264", 2, "layered")
    block = json.loads(json.dumps(p.sim_block(start_s=60.0)))
    assert list(block) == ["mode", "fps", "playout_delay", "start", "packetization", "gop_starts", "representations"]
    assert block["packetization"] == "frames"
    assert (block["mode"], block["fps"], block["playout_delay"], block["start"]) == ("layered", 25.0, 0.5, 60.0)
    assert block["gop_starts"] == [0, 12, 24, 36, 48]
    assert [r["rate_bps"] for r in block["representations"]] == [64000, 192000]
    for rep, r in zip(p.reps, block["representations"], strict=True):
        assert [f[0] for f in r["frames"]] == [len(x) for x in rep.packets]
        assert [f[1] for f in r["frames"]] == [1 if t == "B" else 0 for t in rep.types]
        assert [f[2:] for f in r["frames"]] == [[c, d] for c, d in zip(p.capture_s, p.due_s, strict=True)]
    assert block["representations"][0]["frames"][1] == [len(p.reps[0].packets[1]), 0, 0.12, 0.04]  # P3
    assert "start" not in p.sim_block()


def test_the_simulators_block_with_slices_lists_each_frames_datagrams():
    p = prepared("mpeg4", 0, "ladder", ladder=(512000,), packetization="slices", partial="conceal")
    block = json.loads(json.dumps(p.sim_block()))
    assert block["packetization"] == "slices"
    frames = block["representations"][0]["frames"]
    assert [f[4] for f in frames] == [[g.bytes for g in datagrams] for datagrams in p.datagrams[0]]
    assert all(sum(f[4]) == f[0] and max(f[4]) <= 936 for f in frames)


@pytest.mark.parametrize("codec", ["mpeg4", "h264"])
def test_encoding_in_slices_twice_gives_the_same_bytes(codec):
    content = make_content("qcif", 0.96, 25, 3)
    first, second = (encode(content, codec, 512000, 12, 0, 936) for _ in range(2))
    assert first.packets == second.packets and first.units == second.units
    assert first.settings != encode(content, codec, 512000, 12, 0).settings


def test_codec_versions():
    v = codec_versions()
    assert v["pyav"] == "18.1.0"
    assert v["libavcodec"].startswith("62.")
    assert v["encoders"] == {"mpeg4": "mpeg4", "h264": "libx264"}
    assert v["libx264"].startswith("x264 - core ")


def test_cif_content_encodes_and_decodes_at_its_size():
    """CIF (352x288) as well as QCIF: the content, the encoder and the decoder keep its size, and
    the decode of the stream is the encoder's own (the pictures its PSNR was measured on)."""
    content = make_content("cif", 0.48, 25, 2)
    assert (content.video.width, content.video.height, content.video.u.shape[1:]) == (352, 288, (144, 176))
    for codec in ("mpeg4", "h264"):
        stream = encode(content, codec, 512000, 12, 0)
        pictures = decode(codec, [(p, d) for p, d in zip(stream.packets, stream.display, strict=True)])
        assert len(pictures) == 12
        for i in range(12):
            assert np.array_equal(pictures[i].picture.y, stream.decoded.y[i])
        assert stream.psnr_db.mean() > 25
