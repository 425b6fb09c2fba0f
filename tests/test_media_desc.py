"""A media description: every key required and checked, errors naming the key."""

import pytest

from mantra.errors import InputError
from mantra.media.desc import MediaDesc
from media_helpers import desc

GOOD = desc().as_dict()


def test_a_good_description_round_trips():
    d = MediaDesc.from_dict(GOOD)
    assert d == desc()
    assert d.frames == 60  # 2.4 s at 25 fps, a whole number of GOPs of 12
    assert MediaDesc.from_dict({**GOOD, "content": {**GOOD["content"], "seconds": 2.5}}).frames == 60  # trimmed


def _with(path, value):
    d = {**GOOD, "content": dict(GOOD["content"])}
    *outer, last = path.split(".")
    target = d["content"] if outer else d
    if value is _with:
        del target[last]
    else:
        target[last] = value
    return d


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("codec", "vp9", "media.codec: 'vp9' is not one of mpeg4, h264"),
        ("codec", _with, "media.codec: missing"),
        ("ladder_bps", [], "media.ladder_bps: "),
        ("ladder_bps", [64000, 64000], "media.ladder_bps: [64000, 64000] is not strictly ascending"),
        ("ladder_bps", [64000, "1M"], "media.ladder_bps: '1M' is not an integer"),
        ("gop_frames", 3, "media.gop_frames: 3 is out of range"),  # with b_frames 2 below
        ("b_frames", 9, "media.b_frames: 9 is out of range"),
        ("b_frames", True, "media.b_frames: True is not an integer"),
        ("mode", "svc", "media.mode: 'svc' is not one of ladder, layered"),
        ("playout_delay_s", -0.1, "media.playout_delay_s: -0.1 is not positive"),
        ("playout_delay_s", 0, "media.playout_delay_s: 0 is not positive"),  # as the simulator refuses it
        ("playout_delay_s", "1s", "media.playout_delay_s: '1s' is not a finite number"),
        ("packet_bytes", 0, "media.packet_bytes: 0 is out of range"),
        ("packet_bytes", 1461, "media.packet_bytes: 1461 is out of range"),  # a flow's packet_size
        ("packet_bytes", _with, "media.packet_bytes: missing"),
        ("content.resolution", "4k", "media.content.resolution: '4k' is not one of qcif, cif"),
        ("content.seconds", 0, "media.content.seconds: 0 is not positive"),
        ("content.seconds", 0.2, "media.content.seconds: 0.2 s at 25.0 fps is 5 frames, less than one GOP"),
        ("content.fps", float("nan"), "media.content.fps: nan is not a finite number"),
        ("content.seed", 1.5, "media.content.seed: 1.5 is not an integer"),
        ("content.seed", _with, "media.content.seed: missing"),
        ("extra", 1, "media.extra: unknown key"),
        ("packetization", "nal", "media.packetization: 'nal' is not one of slices, frames"),
        ("packetization", _with, "media.packetization: missing"),
        ("partial", "maybe", "media.partial: 'maybe' is not one of conceal, freeze"),
        ("partial", "conceal", "media.partial: conceal needs packetization slices"),
        ("partial", _with, "media.partial: missing"),
    ],
)
def test_a_bad_key_is_named(path, value, message):
    d = _with(path, value)
    if path == "gop_frames":
        d["b_frames"], d["mode"] = 2, "layered"
    with pytest.raises(InputError) as e:
        MediaDesc.from_dict(d)
    assert str(e.value).startswith(message)


def test_layered_needs_b_frames():
    with pytest.raises(InputError, match=r"^media\.b_frames: layered mode needs B frames"):
        MediaDesc.from_dict({**GOOD, "mode": "layered", "b_frames": 0})


def test_slices_leave_room_for_the_transports_header_and_need_room_for_a_slice():
    sliced = MediaDesc.from_dict({**GOOD, "packetization": "slices", "partial": "conceal"})
    assert sliced.slice_bytes == 1000 - 64 and MediaDesc.from_dict(GOOD).slice_bytes is None
    with pytest.raises(InputError, match=r"^media\.packet_bytes: 300 leaves 236 bytes for slices, below 256"):
        MediaDesc.from_dict({**GOOD, "packetization": "slices", "partial": "freeze", "packet_bytes": 300})
