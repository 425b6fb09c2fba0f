"""A video over any transport (docs/run-spec.md, "media"; docs/result-schema.md, "media"): a
synthetic frame trace, written here as frame sizes, carried by mantra-sim over a 2-hop AODV chain
by TFRC, NewReno and the rest, and what the result says became of every frame."""

import pytest

from conftest import mantra, sim

FPS = 25.0
GOP = 12  # frames: an I frame, then 11 P frames (the odd ones an enhancement layer)
GOPS = 4  # per loop of the video: 48 frames, 1.92 s
START = 1.0


def trace(rates=(100_000, 300_000, 600_000, 2_000_000), mode="ladder", slices=False):
    """Every rung the same video: an I frame of 4x the rung's mean frame, P frames of 8/11 of it
    (so a GOP holds rate_bps of video per second); frame d captured at d/fps and due then. With
    `slices`, each frame in datagrams of 600 bytes of video (the last the rest)."""
    n = GOP * GOPS
    reps = []
    for rate in rates:
        mean = rate / 8 / FPS
        frames = []
        for d in range(n):
            intra = d % GOP == 0
            size = int(4 * mean) if intra else int(8 / 11 * mean)
            layer = 0 if intra or d % 2 == 0 else 1
            frames.append([size, layer, d / FPS, d / FPS])
            if slices:
                frames[-1].append([min(600, size - at) for at in range(0, size, 600)])
        reps.append({"rate_bps": rate, "frames": frames})
    return {
        "mode": mode,
        "fps": FPS,
        "playout_delay": 0.5,
        "packetization": "slices" if slices else "frames",
        "gop_starts": list(range(0, n, GOP)),
        "representations": reps,
    }


def chain(flow, duration=20, **keys):
    return {
        "duration": duration,
        "seed": 1,
        "topology": {"kind": "chain", "hops": 2},
        "flows": [{"src": 0, "dst": 2, "start": START, **flow}],
        **keys,
    }


def capture(g):
    return START + g / FPS  # capture_s = d / fps, and a loop lasts N / fps


def media_of(write_spec, spec):
    return sim(write_spec(spec))["flows"][0]["media"]


def check_accounting(m, stream):
    frames = m["frames"]
    assert len(frames) == m["frames_captured"]
    unsent = m["frames_unsent"] if stream else 0
    assert m["frames_captured"] == m["frames_sent"] + m["frames_left_out"] + m["frames_skipped"] + unsent
    assert sum(1 for rep, _, _ in frames if rep < 0) == m["frames_left_out"] + m["frames_skipped"]
    assert all(done < 0 or done > capture(g) for g, (_, done, _) in enumerate(frames))
    assert len(m["gop_reps"]) == -(-len(frames) // GOP)


def test_tfrc_carries_the_video_and_climbs_the_ladder_as_its_rate_grows(write_spec):
    m = media_of(write_spec, chain({"protocol": "tfrc", "media": trace()}))
    frames = m["frames"]
    # Every frame captured in the 19 s of video is reported, in order.
    assert abs(len(frames) - 19 * FPS) <= 1
    assert m["video_start"] == START and m["mode"] == "ladder" and m["transport"] == "datagrams"
    check_accounting(m, stream=False)
    assert m["packets_offered"] == m["packets_sent"] + m["packets_dropped_late"] + m["packets_dropped_over_bound"]
    done = [(g, t) for g, (_, t, _) in enumerate(frames) if t >= 0]
    assert len(done) > 0.9 * len(frames)
    # Completions follow the captures: frames arrive in the order they were sent, after their capture.
    in_order = sum(1 for (_, a), (_, b) in zip(done, done[1:], strict=False) if b >= a)
    assert in_order > 0.95 * (len(done) - 1)
    on_time = sum(1 for g, t in done if t <= capture(g) + 0.5)
    assert on_time > 0.8 * len(frames)
    # Before TFRC's first report it may send one packet a second: the first GOP goes at the
    # lowest rung; once the reports lift the rate, the ladder climbs.
    reps = m["gop_reps"]
    assert reps[0] == 0
    assert max(reps) >= 1
    assert all(rep == reps[g // GOP] for g, (rep, _, _) in enumerate(frames))


def test_with_a_lossy_channel_some_frames_never_become_whole(write_spec):
    lossy = {"placement": "packet", "rate": 0.1}
    m = media_of(write_spec, chain({"protocol": "tfrc", "media": trace()}, channel_error=lossy))
    check_accounting(m, stream=False)
    lost = sum(1 for rep, t, _ in m["frames"] if rep >= 0 and t < 0)
    whole = sum(1 for _, t, _ in m["frames"] if t >= 0)
    assert lost > 0 and whole > 0


def test_with_slices_each_datagram_of_the_trace_arrives_or_not_on_its_own(write_spec):
    lossy = {"placement": "packet", "rate": 0.1}
    t = trace(slices=True)
    m = media_of(write_spec, chain({"protocol": "tfrc", "media": t}, channel_error=lossy))
    check_accounting(m, stream=False)
    partly = 0
    for g, (rep, complete, arrivals) in enumerate(m["frames"]):
        if rep < 0:
            continue
        sizes = t["representations"][rep]["frames"][g % (GOP * GOPS)][4]
        assert len(arrivals) == len(sizes)  # the trace's datagrams, not cut to the packet size
        came = [a for a in arrivals if a >= 0]
        assert complete == (max(came) if len(came) == len(arrivals) else -1)
        partly += 0 < len(came) < len(arrivals)
    assert partly > 0  # frames of which some datagrams came: what slices are for


def test_newreno_carries_the_same_video_and_loses_no_frame(write_spec):
    # The flow stops 2 s before the run ends: what it wrote has time to arrive.
    m = media_of(write_spec, chain({"protocol": "newreno", "stop": 18, "media": trace()}))
    assert m["transport"] == "stream"
    check_accounting(m, stream=True)
    frames = m["frames"]
    assert abs(len(frames) - 17 * FPS) <= 1
    sent = [(g, t) for g, (rep, t, _) in enumerate(frames) if rep >= 0]
    # A byte stream loses nothing: every frame written arrived whole, in order; only the last
    # frames are missing: those still queued when the flow stopped, and at most one begun but
    # not wholly written (the socket's send buffer holds one window).
    missing = [g for g, t in sent if t < 0]
    assert m["frames_unsent"] <= len(missing) <= m["frames_unsent"] + 1
    assert missing == [g for g, _ in sent[len(sent) - len(missing) :]]
    times = [t for _, t in sent if t >= 0]
    assert times == sorted(times)
    assert m["bytes_written"] <= m["bytes_offered"]
    # The window grows past rung 0 once the RTT is known (before it, rung 0).
    assert m["gop_reps"][0] == 0 and max(m["gop_reps"]) >= 1


def test_over_tcp_each_slice_datagram_arrives_when_its_bytes_are_all_in_order(write_spec):
    t = trace(slices=True)
    m = media_of(write_spec, chain({"protocol": "newreno", "stop": 18, "media": t}))
    check_accounting(m, stream=True)
    stream = [a for rep, _, arrivals in m["frames"] if rep >= 0 for a in arrivals]
    came = [a for a in stream if a >= 0]
    assert came == sorted(came) and len(came) > 0.9 * len(stream)  # in stream order, each chunk
    assert stream[: len(came)] == came  # a prefix of the stream: only the end is missing
    for g, (rep, complete, arrivals) in enumerate(m["frames"]):
        if rep >= 0:
            assert len(arrivals) == len(t["representations"][rep]["frames"][g % (GOP * GOPS)][4])
            assert complete == (arrivals[-1] if min(arrivals) >= 0 else -1)


def test_layered_video_over_a_fixed_rate_leaves_out_enhancement_frames(write_spec):
    # cbr at 80 kb/s: rung 0's base layer (3815 bytes per 0.48 s GOP, 65 kb/s with cbr's 16-byte
    # header) fits, the whole of rung 0 (100 kb/s) does not: the budget left, 924 bytes per GOP,
    # takes two of its six 363-byte enhancement frames.
    flow = {"protocol": "cbr", "rate": "80kbps", "media": trace(mode="layered")}
    m = media_of(write_spec, chain(flow))
    check_accounting(m, stream=False)
    assert m["mode"] == "layered" and set(m["gop_reps"]) == {0}
    frames = m["frames"]
    for g, (rep, _, _) in enumerate(frames):
        d = g % GOP
        base = d == 0 or d % 2 == 0
        if base:
            assert rep == 0
        else:
            assert rep == (0 if d in (1, 3) else -1), (g, rep)
    assert m["frames_left_out"] == sum(1 for rep, _, _ in frames if rep < 0) > 0.3 * len(frames)
    base_whole = [t >= 0 for g, (rep, t, _) in enumerate(frames) if (g % GOP) % 2 == 0]
    assert sum(base_whole) > 0.9 * len(base_whole)


@pytest.mark.parametrize(
    "protocol, keys",
    [
        ("adtfrc", {}),
        ("latp", {}),
        ("tfwmfc", {}),
        ("tfrc-loss", {}),
        ("reno", {}),
        ("freeze-probing", {}),
        ("newreno", {"elfn": True}),
        ("newreno", {"receiver": "rsc-var"}),
        ("vegas", {}),
    ],
)
def test_every_transport_reports_the_video(write_spec, protocol, keys):
    m = media_of(write_spec, chain({"protocol": protocol, "media": trace(), **keys}, duration=8))
    check_accounting(m, stream=m["transport"] == "stream")
    assert m["frames_captured"] >= 7 * FPS - 1
    assert any(t >= 0 for _, t, _ in m["frames"])


def refusal(write_spec, spec):
    p = mantra("sim", write_spec(spec), check=False)
    assert p.returncode != 0
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    return lines[0]


def test_bad_media_specs_are_refused_with_the_key(write_spec):
    def bad(edit):
        t = trace(rates=(100_000, 300_000))
        edit(t)
        return refusal(write_spec, chain({"protocol": "tfrc", "media": t}))

    m = "flows[0].media"
    r1 = f"{m}.representations[1]"

    def frame(t, i, field, value):
        t["representations"][1]["frames"][i][field] = value

    cases = [
        (lambda t: frame(t, 7, 0, -5), f"{r1}.frames[7]: -5 is out of range (frame bytes 1 .. 10000000)"),
        (
            lambda t: t["representations"][1].update(rate_bps=50_000),
            f"{r1}.rate_bps: 50000 bps is not above representations[0]'s 100000 bps (rungs in ascending rate)",
        ),
        (
            lambda t: t["representations"][1]["frames"].pop(),
            f"{r1}.frames: lists 47 frames, representations[0] 48 (every rung has the same frames)",
        ),
        (
            lambda t: t.update(gop_starts=[12, 24]),
            f"{m}.gop_starts[0]: must be 0 (the first frame opens the first GOP)",
        ),
        (
            lambda t: t.update(gop_starts=[0, 48]),
            f"{m}.gop_starts[1]: 48 is out of range (0 .. 47, the frames of a loop)",
        ),
        (lambda t: t.update(fps=0), f"{m}.fps: 0 is out of range (above 0 .. 1000 frames/s)"),
        (lambda t: t.update(playout_delay="0ms"), f"{m}.playout_delay: 0ms is out of range (above 0 .. 1000000 s)"),
        (lambda t: t.update(start=0.5), f"{m}.start: must not be before the flow's start (1 s)"),
        (lambda t: t.update(bitrate=1), f"{m}.bitrate: unknown key"),
        (
            lambda t: [t.update(mode="layered")] + [frame(t, d, 1, 1) for d in range(12, 24)],
            f"{m}.gop_starts[1]: the GOP of frames 12 .. 23 has no base-layer (layer 0) frame at representations[1]",
        ),
    ]
    for edit, expected in cases:
        assert expected in bad(edit)
    spec = chain({"protocol": "tfrc", "media": trace(), "params": {"source_offered": 1}})
    assert refusal(write_spec, spec).endswith(
        "flows[0].params.source_offered: set by the flow's key 'media', not in params"
    )
