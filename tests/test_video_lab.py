"""The lab's side of video: a flow's `video` key checked and encoded into the simulator's `media`
block, the delivered quality added after the run (end to end through mantra-sim), the `matrix`
plot that answers "which transport for video", and the `difference` claim (a gain in dB)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import numpy as np
import pytest

from lab_helpers import ROOT, synthetic_store
from mantra.errors import SpecKeyError
from mantra.lab.analysis import campaign_frame
from mantra.lab.claims import MIN_SEEDS, evaluate, judge
from mantra.lab.pictures import PictureRequest
from mantra.lab.plots import draw
from mantra.lab.report import write_report
from mantra.lab.video_pictures import video_pictures
from mantra.media.flow_video import expand_video
from mantra.simulator import run_spec

VIDEO = {
    "resolution": "qcif",
    "seconds": 1.0,
    "fps": 25,
    "content_seed": 1,
    "codec": "h264",
    "ladder": ["64kbps", "128kbps"],
    "gop": 12,
    "b_frames": 0,
    "mode": "ladder",
    "playout_delay": "500ms",
    "packetization": "slices",
    "partial": "conceal",
}


def spec_with(video: dict, **flow: object) -> dict:
    return {
        "seed": 1,
        "duration": 6,
        "topology": {"kind": "p2p", "bandwidth": "10Mbps", "delay": "10ms", "queue": 100},
        "flows": [{"protocol": "cbr", "rate": "400kbps", "src": 0, "dst": 1, "start": 0.5, "video": video, **flow}],
    }


@pytest.mark.parametrize(
    ("change", "key", "words"),
    [
        ({"colour": "red"}, "flows[0].video.colour", "unknown key"),
        ({"codec": None}, "flows[0].video.codec", "missing"),
        ({"codec": "vp9"}, "flows[0].video.codec", "not one of"),
        ({"ladder": ["128kbps", "64kbps"]}, "flows[0].video.ladder", "ascending"),
        ({"ladder": ["fast"]}, "flows[0].video.ladder[0]", "not a rate"),
        ({"ladder": []}, "flows[0].video.ladder", "non-empty"),
        ({"gop": 1}, "flows[0].video.gop", "out of range"),
        ({"playout_delay": "soon"}, "flows[0].video.playout_delay", "not a duration"),
        ({"playout_delay": 0}, "flows[0].video.playout_delay", "out of range"),
        ({"fps": 2000}, "flows[0].video.fps", "out of range"),
        ({"mode": "layered"}, "flows[0].video.b_frames", "layered mode needs B frames"),
        ({"resolution": "4k"}, "flows[0].video.resolution", "not one of"),
        ({"packetization": None}, "flows[0].video.packetization", "missing"),
        ({"packetization": "nal"}, "flows[0].video.packetization", "not one of"),
        ({"partial": None}, "flows[0].video.partial", "missing"),
        ({"partial": "maybe"}, "flows[0].video.partial", "not one of"),
        ({"packetization": "frames"}, "flows[0].video.partial", "conceal needs packetization slices"),
        ({"tcp_rate": "cwnd"}, "flows[0].video.tcp_rate", "not one of delivery, window"),
    ],
)
def test_a_bad_video_is_refused_naming_the_users_key(change: dict, key: str, words: str) -> None:
    video = {**VIDEO, **change}
    video = {k: v for k, v in video.items() if v is not None}
    with pytest.raises(SpecKeyError) as e:
        expand_video(spec_with(video))
    assert e.value.key == key
    assert words in e.value.message


def test_slices_need_room_in_the_packet_named_as_the_flows_key() -> None:
    with pytest.raises(SpecKeyError) as e:
        expand_video(spec_with(VIDEO, packet_size=300))
    assert e.value.key == "flows[0].packet_size"
    assert "leaves 236 bytes for slices, below 256" in e.value.message


def test_video_and_media_together_are_refused() -> None:
    with pytest.raises(SpecKeyError, match="not both"):
        expand_video(spec_with(VIDEO, media={}))


def test_the_video_becomes_the_simulators_media_block_and_the_spec_is_left_alone() -> None:
    spec = spec_with(VIDEO, packet_size=500)
    before = copy.deepcopy(spec)
    out = expand_video(spec)
    assert spec == before
    media = out["flows"][0]["media"]
    assert "video" not in out["flows"][0]
    assert [r["rate_bps"] for r in media["representations"]] == [64000, 128000]
    assert media["playout_delay"] == 0.5 and media["fps"] == 25
    assert media["gop_starts"] == [0, 12]  # 25 frames trimmed to two GOPs of 12
    assert media["source"]["desc"]["packet_bytes"] == 500
    assert media["source"]["video"] == VIDEO
    assert media["source"]["codecs"]["libavcodec"]


def test_the_cli_refuses_a_bad_video_in_one_line_naming_the_key(tmp_path) -> None:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec_with({**VIDEO, "gop": "twelve"})))
    proc = subprocess.run(
        [sys.executable, "-m", "mantra", "sim", str(path)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"},
        cwd=ROOT,
    )
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "flows[0].video.gop" in lines[0], proc.stderr


def test_a_video_over_a_clean_link_is_seen_at_the_encoders_quality() -> None:
    """The whole chain: encode, simulate (cbr at 400 kb/s on a clean 10 Mb/s link: every
    datagram arrives within the playout delay), evaluate. The viewer sees the encoder's
    pictures at the top rung (cbr's allowed rate is its own), nothing frozen after the start."""
    result = run_spec(expand_video({**spec_with(VIDEO), "measure": {"from": 2}}))
    video = result["flows"][0]["video"]
    assert video["frozen_share"] == 0
    assert video["mean_psnr_db"] == pytest.approx(video["encoder_psnr_db"], abs=1e-9)
    assert video["encoder_psnr_db"] == pytest.approx(video["top_rung_psnr_db"], abs=1e-9)
    assert video["frames_evaluated"] == len(video["series"]["t"]) > 90
    # The decoder's concealment (video_ec) has nothing to conceal: the same pictures.
    ec = result["flows"][0]["video_ec"]
    assert {k: ec[k] for k in ec if k in video and k != "series"} == {
        k: v for k, v in video.items() if k in ec and k != "series"
    }
    assert video["gops_at_top_share"] == 1 and video["gops_at_bottom_share"] == 0  # cbr allows its own 400 kb/s
    assert ec["decode_errors"] == 0 and ec["series"]["psnr_db"] == video["series"]["psnr_db"]
    assert result["provenance"]["codecs"]["pyav"]
    assert result["flows"][0]["media"]["source"]["video"]["codec"] == "h264"


# -- the matrix plot and the difference claim ------------------------------------------

MATRIX = {
    "campaign": "matrix",
    "base": {"duration": 10, "flows": [{"protocol": "tfrc", "src": 0, "dst": 1}]},
    "grid": {
        "scenario": {"a": {"duration": 10}, "b": {"duration": 20}},
        "transport": {"tfrc": {"flows.0.protocol": "tfrc"}, "newreno": {"flows.0.protocol": "newreno"}},
    },
    "seeds": [1, 2, 3],
    "metrics": {"psnr_db": "flows.0.video.mean_psnr_db", "frozen_share": "flows.0.video.frozen_share"},
    "plots": [
        {"kind": "matrix", "metric": "psnr_db", "x": "scenario", "series": "transport", "metrics": ["frozen_share"]}
    ],
    "claims": [
        {
            "claim": "tfrc gains over newreno",
            "paper": "+5 dB",
            "check": {
                "kind": "difference",
                "metric": "psnr_db",
                "num": {"transport": "tfrc"},
                "den": {"transport": "newreno"},
                "min": 1,
            },
        }
    ],
}


def psnr(point: dict, seed: int) -> float:
    return (30.0 if point["transport"] == "tfrc" else 27.0) + (2.0 if point["scenario"] == "b" else 0.0) + seed / 10


def test_the_matrix_has_a_row_per_series_and_a_column_per_x_and_metric(tmp_path) -> None:
    def result(point: dict, seed: int) -> dict:
        return {"flows": [{"video": {"mean_psnr_db": psnr(point, seed), "frozen_share": 0.1 * seed}}]}

    camp, store, _ = synthetic_store(tmp_path, MATRIX, result)
    frame = campaign_frame(store.frame(), camp)
    (figure,) = draw(camp, frame, store.result)
    table = figure.table
    assert list(table["transport"]) == ["tfrc", "newreno"]
    assert list(table.columns) == [
        "transport",
        "psnr_db (a)",
        "psnr_db (b)",
        "frozen_share (a)",
        "frozen_share (b)",
    ]
    # tfrc in b: 32.1, 32.2, 32.3 -> 32.2 ± 0.248 (t = 4.30, s = 0.1, n = 3)
    assert table["psnr_db (b)"][0] == "32.2 ± 0.2 dB"
    assert table["frozen_share (a)"][1] == "20 ± 20 %"  # 0.1, 0.2, 0.3: ± 0.248, one digit
    assert figure.png and figure.png.startswith(b"\x89PNG")

    (verdict,) = evaluate(frame, camp)
    # Each seed's runs paired: exactly 3 dB at every seed, so no spread (an unpaired comparison
    # would see the seeds' own 0.1 dB steps); in the metric's unit.
    assert verdict.mean == pytest.approx(3.0) and verdict.ci95 < 1e-9 and verdict.n == 3
    assert verdict.unit.suffix == " dB"
    # three seeds are below the minimum for a verdict; the same number over five would pass
    assert verdict.verdict == "too few runs"
    assert judge(verdict.mean, verdict.ci95, MIN_SEEDS, verdict.bounds) == "pass"
    assert verdict.estimate.startswith("psnr_db difference")


def test_the_reports_first_section_holds_the_comparison_tables(tmp_path) -> None:
    def result(point: dict, seed: int) -> dict:
        return {"flows": [{"video": {"mean_psnr_db": psnr(point, seed), "frozen_share": 0.1 * seed}}]}

    _, store, out = synthetic_store(tmp_path, MATRIX, result)
    store.close()
    page = write_report(out).read_text()
    glance = page.index('id="glance"')
    assert glance < page.index('id="claims"')
    assert page.index("32.2 ± 0.2 dB", glance) < page.index('id="claims"')
    assert 'href="#glance"' in page


def test_the_video_pictures_show_each_schemes_trace_and_frame(tmp_path) -> None:
    """The `video` picture maker on two real runs (cbr at two rates over a clean link): the PSNR
    trace and the frame strip exist as PNGs, and the captions name the slot shown."""
    runs = {
        rate: run_spec(expand_video({**spec_with(VIDEO, rate=rate), "measure": {"from": 2}}))
        for rate in ("400kbps", "100kbps")
    }
    doc = {
        "campaign": "pictures",
        "base": {"duration": 6, "flows": [{"protocol": "cbr", "rate": "400kbps", "src": 0, "dst": 1}]},
        "grid": {"rate": {r: {"flows.0.rate": r} for r in runs}},
        "seeds": [1],
        "metrics": {"psnr_db": "flows.0.video.mean_psnr_db"},
        "plots": [{"kind": "pictures", "maker": "video", "options": {"series": "rate"}, "metric": "psnr_db"}],
    }
    camp, store, out = synthetic_store(tmp_path, doc, lambda point, seed: runs[point["rate"]])
    request = PictureRequest(store, camp, campaign_frame(store.frame(), camp), out, {"series": "rate"}, "pictures-1")
    made = video_pictures(request)
    assert [path for path, _ in made] == ["pictures/pictures-1-psnr.png", "pictures/pictures-1-frame.png"]
    for path, _ in made:
        assert (out / path).read_bytes().startswith(b"\x89PNG")
    assert "as each rate's viewer saw it" in made[1][1]
    # The frame shown is the one where the two runs' stored per-slot PSNRs differ most.
    a, b = (np.array(runs[r]["flows"][0]["video"]["series"]["psnr_db"]) for r in runs)
    first_slot = round((runs["400kbps"]["flows"][0]["video"]["series"]["t"][0] - 0.5 - 0.5) * 25)
    assert f"Display slot {first_slot + int(np.argmax(np.abs(a - b)))} " in made[1][1]
    with pytest.raises(ValueError, match="options.series"):
        video_pictures(PictureRequest(store, camp, request.runs, out, {"series": "speed"}, "pictures-1"))


def test_a_packet_size_the_frames_cannot_be_cut_into_is_named_as_the_flows_key() -> None:
    with pytest.raises(SpecKeyError) as e:
        expand_video(spec_with(VIDEO, packet_size=20))
    assert e.value.key == "flows[0].packet_size" and "out of range" in e.value.message


def test_a_failed_video_evaluation_keeps_the_finished_run(tmp_path, monkeypatch) -> None:
    """The runner evaluates each run's video after the simulator; if that fails the run stays
    finished, its flow's `video` holding the error, and the failure is told."""
    from lab_helpers import write_campaign
    from mantra.lab import runner
    from mantra.lab.load import load_campaign
    from mantra.lab.store import Store

    def broken(result: dict) -> dict:
        raise RuntimeError("decoder on fire")

    monkeypatch.setattr(runner, "with_video_quality", broken)
    base = {k: v for k, v in spec_with(VIDEO).items() if k != "seed"}
    doc = {"campaign": "broken-video", "base": base, "grid": {"duration": [4]}, "seeds": [1]}
    doc["metrics"] = {"psnr_db": "flows.0.video.mean_psnr_db"}
    camp = load_campaign(write_campaign(tmp_path / "c.yaml", doc))
    tally = runner.run_campaigns([camp], tmp_path / "out", workers=1, progress=False)
    assert tally.ran == 1 and tally.failed == 0
    assert any("video evaluation failed: RuntimeError: decoder on fire" in f for f in tally.failures)
    store = Store(tmp_path / "out", create=False)
    (key,) = store.frame()["key"]
    assert store.result(key)["flows"][0]["video"] == {"error": "video evaluation failed: RuntimeError: decoder on fire"}
