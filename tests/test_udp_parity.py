"""The parity check's verdicts (python/mantra/lab/udp_parity.py): throughput and delay within 10 %
of the simulator's mean, loss rates with overlapping Student-t intervals."""

from typing import Any

from mantra.lab.udp_parity import markdown, parity_rows


def flow(kbps: float, delay_ms: float, plr: float) -> dict[str, Any]:
    return {"throughput_kbps": kbps, "delay_ms": {"mean": delay_ms}, "plr": plr}


def test_within_ten_percent_and_overlapping_losses_pass() -> None:
    sim = {"tfrc": [flow(1900, 60, 0.003), flow(1920, 61, 0.004), flow(1910, 59, 0.0035)]}
    udp = {"tfrc": [flow(1850, 62, 0.0032), flow(1870, 63, 0.0036), flow(1860, 61, 0.0030)]}
    verdicts = {r["metric"]: r["verdict"] for r in parity_rows(sim, udp)}
    assert verdicts == {"throughput_kbps": "within 10 %", "delay_ms": "within 10 %", "plr": "intervals overlap"}


def test_a_rate_off_by_more_than_ten_percent_and_apart_intervals_fail() -> None:
    sim = {"adtfrc": [flow(1900, 60, 0.0030), flow(1910, 60, 0.0031), flow(1905, 60, 0.0032)]}
    udp = {"adtfrc": [flow(1500, 70, 0.0060), flow(1510, 70, 0.0061), flow(1505, 70, 0.0062)]}
    rows = {r["metric"]: r for r in parity_rows(sim, udp)}
    assert rows["throughput_kbps"]["verdict"] == "off by -21 %"
    assert rows["delay_ms"]["verdict"] == "off by +17 %"
    assert rows["plr"]["verdict"] == "intervals apart"
    assert "| adtfrc | loss rate |" in markdown(list(rows.values()))


def test_a_flow_without_delays_counts_as_no_value() -> None:
    sim = {"tfrc": [flow(1900, 60, 0.0), flow(1900, 60, 0.0)]}
    udp = {"tfrc": [{"throughput_kbps": 0.0, "delay_ms": {"mean": None}, "plr": 1.0}] * 2}
    rows = {r["metric"]: r for r in parity_rows(sim, udp)}
    assert rows["delay_ms"]["udp"][2] == 0  # no delay values: n = 0
    assert rows["delay_ms"]["verdict"] == "no value"
    assert rows["throughput_kbps"]["verdict"] == "off by -100 %"
