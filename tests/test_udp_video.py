"""A live video over mantra-udp, put together for the player (python/mantra/media/udp_video.py):
a frame is whole when every one of its datagrams arrived, at the last one's arrival (MediaLog's
rule in mantra-sim), on the receiver's clock; the file the sender reads holds every frame's
encoded bytes; the check against the simulator compares intervals (python/mantra/lab/udp_video.py)."""

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import mantra
from mantra.errors import InputError
from mantra.lab.udp_video import markdown, video_rows
from mantra.media.udp_video import udp_media_result, write_video_file


def app_id(frame: int, chunk: int) -> int:
    return (frame << 24) | chunk


def ends(arrivals: list[list[float]]) -> tuple[dict[str, Any], dict[str, Any]]:
    sender = {
        "media": {
            "frames": [[0, -1, [-1, -1]], [1, -1, [-1, -1, -1]], [1, -1, [-1]], [-1, -1, []]],
            "gop_reps": [0, 1],
            "video_start": 0.0,
            "frame_datagrams": [2, 3, 1, 0],
        },
        "clock": {"data_start_us": 5_250_000},
    }
    receiver = {
        "flows": [{"protocol": "tfrc"}],
        "clock": {"origin_us": 5_000_000},
        "media_arrivals": arrivals,
    }
    return sender, receiver


def test_a_frame_is_whole_at_its_last_datagram_and_only_with_all_of_them() -> None:
    sender, receiver = ends(
        [
            [app_id(0, 1), 0.40],
            [app_id(0, 0), 0.45],  # reordered: the frame is whole at the later arrival
            [app_id(1, 0), 0.50],
            [app_id(1, 2), 0.52],  # chunk 1 of frame 1 never came
            [app_id(2, 0), 0.60],
            [app_id(2, 0), 0.61],  # a copy: the first arrival counts
            [app_id(2, 5), 0.62],  # a chunk the frame does not have is left out
            [app_id(9, 0), 0.70],  # a frame the sender never logged is left out
        ]
    )
    result = udp_media_result(sender, receiver)
    media = result["flows"][0]["media"]
    assert media["frames"] == [[0, 0.45, [0.45, 0.40]], [1, -1, [0.50, -1, 0.52]], [1, 0.60, [0.60]], [-1, -1, []]]
    assert media["video_start"] == pytest.approx(0.25)  # the data began 0.25 s after the receiver's origin
    assert "frame_datagrams" not in media and "media_arrivals" not in result
    assert sender["media"]["frames"][0] == [0, -1, [-1, -1]]  # the inputs are left as they were


def test_results_without_a_video_are_refused_in_one_line() -> None:
    sender, receiver = ends([])
    with pytest.raises(InputError, match="sender result: no media"):
        udp_media_result({"clock": {}}, receiver)
    del receiver["media_arrivals"]
    with pytest.raises(InputError, match="receiver result: no media_arrivals"):
        udp_media_result(sender, receiver)


def test_the_video_file_holds_every_frames_bytes(tmp_path: Path) -> None:
    video = {
        "resolution": "qcif",
        "seconds": 1,
        "fps": 25,
        "content_seed": 3,
        "codec": "h264",
        "ladder": ["64kbps", "128kbps"],
        "gop": 12,
        "b_frames": 0,
        "mode": "ladder",
        "playout_delay": "1s",
        "packetization": "slices",
        "partial": "conceal",
    }
    out = write_video_file(video, 1000, tmp_path / "v.json")
    doc = json.loads(out.read_text())
    assert doc["bytes"] == "v.bin"
    reps = doc["media"]["representations"]
    assert [r["rate_bps"] for r in reps] == [64000, 128000]
    assert (tmp_path / "v.bin").stat().st_size == sum(f[0] for r in reps for f in r["frames"])
    assert all(sum(f[4]) == f[0] and max(f[4]) <= 1000 - 64 for r in reps for f in r["frames"])
    assert doc["media"]["source"]["video"] == video


def flow(psnr: float, frozen: float) -> dict[str, Any]:
    return {"video": {"mean_psnr_db": psnr, "frozen_share": frozen}, "throughput_kbps": 400.0, "plr": 0.02}


def test_the_video_metrics_pass_with_overlapping_intervals_only() -> None:
    sim = {"tfrc": [flow(33.0, 0.26), flow(34.0, 0.28), flow(33.5, 0.27)]}
    close = {"tfrc": [flow(33.4, 0.27), flow(34.2, 0.29), flow(33.1, 0.26)]}
    apart = {"tfrc": [flow(38.0, 0.05), flow(38.2, 0.06), flow(38.1, 0.05)]}
    verdicts = {r["metric"]: r["verdict"] for r in video_rows(sim, close)}
    assert verdicts == {
        "mean_psnr_db": "intervals overlap",
        "frozen_share": "intervals overlap",
        "throughput_kbps": "(shown)",
        "plr": "(shown)",
    }
    rows = video_rows(sim, apart)
    assert {r["metric"]: r["verdict"] for r in rows}["mean_psnr_db"] == "intervals apart"
    assert "| tfrc | frozen share |" in markdown(rows)


def test_video_encode_and_score_name_what_is_wrong_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "v.yaml").write_text("resolution: qcif\nseconds: 10\n")
    proc = mantra("video-encode", str(tmp_path / "v.yaml"), "--out", str(tmp_path / "v.json"), check=False)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"mantra: video {tmp_path / 'v.yaml'}: video.fps: missing"
    proc = mantra("video-score", str(tmp_path / "none.json"), str(tmp_path / "v.yaml"), check=False)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"mantra: sender {tmp_path / 'none.json'}: No such file or directory"
