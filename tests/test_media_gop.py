"""The GOP structure's rules: capture and due times per decode-order frame, and references."""

import pytest

from mantra.media.gop import capture_due_s, references

# A closed GOP of 12 with 2 B frames, as both encoders make it (the last run holds one B):
# display I0 B1 B2 P3 B4 B5 P6 B7 B8 P9 B10 P11, decode order I0 P3 B1 B2 P6 B4 B5 P9 B7 B8 P11 B10.
TYPES = "IPBBPBBPBBPB" * 2
DISPLAY = [0, 3, 1, 2, 6, 4, 5, 9, 7, 8, 11, 10]
DISPLAY = DISPLAY + [d + 12 for d in DISPLAY]
STARTS = [0, 12]


def test_capture_and_due_times_of_an_i_b_b_p_gop():
    capture, due = capture_due_s(DISPLAY, STARTS, fps=25.0)
    # capture: the largest display index decoded so far; due: the smallest one still to come in the GOP.
    assert [round(c * 25) for c in capture] == [0, 3, 3, 3, 6, 6, 6, 9, 9, 9, 11, 11] + [
        12, 15, 15, 15, 18, 18, 18, 21, 21, 21, 23, 23,
    ]  # fmt: skip
    assert [round(d * 25) for d in due] == [0, 1, 1, 2, 4, 4, 5, 7, 7, 8, 10, 10] + [
        12, 13, 13, 14, 16, 16, 17, 19, 19, 20, 22, 22,
    ]  # fmt: skip
    assert capture[1] == pytest.approx(0.12) and due[1] == pytest.approx(0.04)


def test_without_b_frames_a_frame_is_captured_and_due_at_its_own_time():
    capture, due = capture_due_s(range(24), STARTS, fps=10.0)
    assert list(capture) == list(due) == [i / 10 for i in range(24)]


def test_references():
    refs = references(TYPES, DISPLAY, STARTS)
    assert refs[:12] == [(), (0,), (0, 1), (0, 1), (1,), (1, 4), (1, 4), (4,), (4, 7), (4, 7), (7,), (7, 10)]
    assert refs[12] == () and refs[13] == (12,) and refs[14] == (12, 13)
