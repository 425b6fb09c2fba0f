"""A coded frame cut into its units: the pieces a packetiser may put into different datagrams, each
of which a decoder can use without the others (mantra.media.packetize puts them into datagrams).

H.264 (Annex B, as libx264 writes it): the frame's NAL units, each beginning at its start code.
Every coded slice (nal_unit_type 1 or 5) is a unit of its own; the other NAL units before a slice
(sequence and picture parameter sets, SEI) form one unit together, as do any after the last slice.
A slice carries its own header (first_mb_in_slice and the rest), so it decodes without the frame's
other slices once the decoder holds the parameter sets, which a keyframe repeats.

MPEG-4 Part 2 (as FFmpeg's mpeg4 encoder writes it with `ps`): the frame's video packets. The first
unit holds the headers before the VOP's data (VOL header in a keyframe, VOP header) and the first
video packet; every later video packet begins at a resync marker, which is byte-aligned (stuffing
before it) and is 16 to 22 zero bits then a one (17 bits in an I-VOP, 16 + vop_fcode in a P-VOP,
more in a B-VOP), followed by the number of its first macroblock (ceil(log2(macroblocks)) bits).
A start code (23 zero bits then a one) is not a resync marker. FFmpeg's encoder writes no header
extension, so a video packet needs the frame's first unit (its VOP header) to be decoded.

`units` returns the byte sizes (they sum to the frame's); `first_macroblocks` the first macroblock
of each unit's slice or video packet (None for a unit of H.264 headers only), which the encoder's
structure check and the tests use.
"""

from __future__ import annotations

import math

H264_SLICE_TYPES = (1, 5)  # coded slice of a non-IDR and of an IDR picture
_START = b"\x00\x00\x01"
_RESYNC_ZEROS = range(16, 23)  # a resync marker's zero bits; 23 or more: a start code


def units(codec: str, packet: bytes) -> tuple[int, ...]:
    """The sizes, in order, of the units of one coded frame (the module's rule)."""
    starts = _unit_starts(codec, packet)
    return tuple(b - a for a, b in zip(starts, [*starts[1:], len(packet)], strict=True))


def first_macroblocks(codec: str, packet: bytes, width: int, height: int) -> tuple[int | None, ...]:
    """Each unit's first macroblock (raster order), None for a unit holding no slice (H.264 headers)."""
    starts = _unit_starts(codec, packet)
    if codec == "h264":
        return tuple(_h264_first_mb(packet, a) for a in starts)
    mb_bits = math.ceil(math.log2(_macroblocks(width, height)))
    return tuple(0 if i == 0 else _mpeg4_resync_mb(packet, a, mb_bits) for i, a in enumerate(starts))


def needs_first_unit(codec: str) -> bool:
    """Whether a unit of this codec can be decoded only with its frame's first unit (MPEG-4: the
    VOP header travels there; H.264: each slice has its own header)."""
    return codec == "mpeg4"


def _macroblocks(width: int, height: int) -> int:
    return ((width + 15) // 16) * ((height + 15) // 16)


def _unit_starts(codec: str, packet: bytes) -> list[int]:
    if codec == "h264":
        return _h264_unit_starts(packet)
    if codec == "mpeg4":
        return [0, *_mpeg4_resync_markers(packet)]
    raise ValueError(f"codec: {codec!r} is not one of h264, mpeg4")


def _h264_nal_starts(packet: bytes) -> list[int]:
    """Where each NAL unit begins, its start code included (a 4-byte start code's leading zero too)."""
    starts = []
    at = packet.find(_START)
    while at >= 0:
        starts.append(at - 1 if at > 0 and packet[at - 1] == 0 else at)
        at = packet.find(_START, at + 3)
    if not starts or starts[0] != 0:
        raise ValueError("h264: the frame does not begin with a start code")
    return starts


def _h264_nal_type(packet: bytes, start: int) -> int:
    header = packet.index(_START, start) + 3
    return packet[header] & 0x1F


def _h264_unit_starts(packet: bytes) -> list[int]:
    starts: list[int] = []
    previous_was_slice = True  # a leading run of headers opens the first unit
    for at in _h264_nal_starts(packet):
        is_slice = _h264_nal_type(packet, at) in H264_SLICE_TYPES
        if is_slice or previous_was_slice:
            starts.append(at)
        previous_was_slice = is_slice
    return starts


def _h264_first_mb(packet: bytes, start: int) -> int | None:
    if _h264_nal_type(packet, start) not in H264_SLICE_TYPES:
        return None
    payload = packet.index(_START, start) + 4  # past the NAL header byte
    rbsp = _unescape(packet[payload : payload + 16])
    bits = "".join(f"{b:08b}" for b in rbsp)
    zeros = len(bits) - len(bits.lstrip("0"))
    return int(bits[zeros : 2 * zeros + 1], 2) - 1  # ue(v): first_mb_in_slice


def _unescape(data: bytes) -> bytes:
    """The RBSP of NAL payload bytes: every emulation prevention byte (00 00 03) removed."""
    return data.replace(b"\x00\x00\x03", b"\x00\x00")


def _mpeg4_resync_markers(packet: bytes) -> list[int]:
    """The byte offsets of the resync markers (the module's rule) after the frame's first byte."""
    found = []
    at = packet.find(b"\x00\x00", 1)
    while 0 < at < len(packet) - 2:
        if _leading_zero_bits(packet, at) in _RESYNC_ZEROS and packet[at - 1] != 0:
            found.append(at)
            at = packet.find(b"\x00\x00", at + 3)
        else:
            at = packet.find(b"\x00\x00", at + 1)
    return found


def _leading_zero_bits(packet: bytes, at: int) -> int:
    zeros = 0
    for byte in packet[at : at + 4]:
        if byte:
            return zeros + 8 - byte.bit_length()
        zeros += 8
    return zeros


def _mpeg4_resync_mb(packet: bytes, at: int, mb_bits: int) -> int:
    bits = "".join(f"{b:08b}" for b in packet[at : at + 8])
    after_marker = bits.index("1") + 1
    return int(bits[after_marker : after_marker + mb_bits], 2)
