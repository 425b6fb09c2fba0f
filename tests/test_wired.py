"""TFRC on a wired line (p2p topology): RFC 5348's equation and TCP-friendliness."""

import math

from conftest import sim


def tfrc_equation_bytes_per_s(s, rtt, p):
    """RFC 5348 §3.1 with b = 1 and t_RTO = 4R."""
    return s / (rtt * math.sqrt(2 * p / 3) + 4 * rtt * 3 * math.sqrt(3 * p / 8) * p * (1 + 32 * p * p))


def test_tfrc_sends_at_the_equation_rate_on_a_lossy_path(write_spec):
    loss = 0.01
    spec = {
        "duration": 200,
        "seed": 1,
        "topology": {"kind": "p2p", "bandwidth": "10Mbps", "delay": "50ms", "loss": loss, "queue": 100},
        "flows": [{"protocol": "tfrc", "src": 0, "dst": 1, "start": 1}],
    }
    for seed in (1, 2):
        r = sim(write_spec(spec), f"seed={seed}")
        f = r["flows"][0]
        rtt = f["diagnostics"]["sender"]["rtt_ms"] / 1e3
        sent_rate = f["sent_bytes"] * 8 / (f["stop"] - f["start"]) / 1e3  # kb/s
        expected = tfrc_equation_bytes_per_s(1000, rtt, loss) * 8 / 1e3
        assert abs(sent_rate / expected - 1) < 0.25, (seed, sent_rate, expected)


def test_tfrc_and_tcp_share_a_wired_bottleneck_within_a_factor_of_two(write_spec):
    spec = {
        "duration": 200,
        "seed": 1,
        "topology": {"kind": "p2p", "bandwidth": "2Mbps", "delay": "20ms", "loss": 0.01, "queue": 50},
        "flows": [
            {"protocol": "tfrc", "src": 0, "dst": 1, "start": 1},
            {"protocol": "tcp", "src": 0, "dst": 1, "start": 1, "max_window": 64},
        ],
    }
    for seed in (1, 2, 3):
        r = sim(write_spec(spec), f"seed={seed}")
        tfrc, tcp = (f["throughput_kbps"] for f in r["flows"])
        assert max(tfrc, tcp) / min(tfrc, tcp) < 2, (seed, tfrc, tcp)
        assert r["fairness_jain"] > 0.9


def tcp_over_long_pipe(receive_buffer, loss=0.0):
    # 10 Mb/s, 100 ms each way: a window of w segments moves w * 8 kbit per 200 ms.
    flow = {"protocol": "tcp", "src": 0, "dst": 1, "start": 1, "max_window": 20}
    if receive_buffer:
        flow["receive_buffer"] = receive_buffer
    return {
        "duration": 41,
        "seed": 1,
        "measure": {"from": 11, "to": 41},
        "topology": {"kind": "p2p", "hops": 1, "bandwidth": "10Mbps", "delay": "100ms", "loss": loss, "queue": 100},
        "flows": [flow],
    }


def test_the_receive_buffer_bounds_tcp_to_its_window_per_rtt(write_spec):
    # ns-2's window_ (20) would allow 800 kb/s; the sink's buffer of 2 or 8 segments
    # advertises that much and the sender stays within it.
    rates = {b: sim(write_spec(tcp_over_long_pipe(b), f"b{b}.json"))["flows"][0]["throughput_kbps"] for b in (2, 8)}
    assert 60 < rates[2] <= 81, rates
    assert 250 < rates[8] <= 321, rates
    assert 600 < sim(write_spec(tcp_over_long_pipe(None), "big.json"))["flows"][0]["throughput_kbps"] <= 801


def test_tcp_with_ns2_settings_survives_loss_with_a_small_buffer(write_spec):
    # The set-up that aborted ns-3.37 (TcpRateLinux::SkbSent): no window scaling, a small
    # receive buffer, random loss. The run finishes and the connection is not given up.
    r = sim(write_spec(tcp_over_long_pipe(8, loss=0.05)))
    f = r["flows"][0]
    assert f["throughput_kbps"] > 0 and f["diagnostics"]["sender"]["gave_up"] == 0


def test_a_phase_gives_jains_index_of_the_flows_active_in_it(write_spec):
    # Two CBR flows far below a 10 Mb/s line: each receives its own rate. In
    # (5, 10] s only the 1 Mb/s flow runs; in (15, 20] both, 1 and 3 Mb/s:
    # Jain's index (1 + 3)² / (2 (1² + 3²)) = 0.8.
    spec = {
        "duration": 20,
        "seed": 1,
        "phases": {"alone": [5, 10], "both": [15, 20]},
        "topology": {"kind": "p2p", "bandwidth": "10Mbps", "delay": "10ms", "queue": 100},
        "flows": [
            {"protocol": "cbr", "src": 0, "dst": 1, "start": 1, "rate": "1Mbps"},
            {"protocol": "cbr", "src": 0, "dst": 1, "start": 11, "rate": "3Mbps"},
        ],
    }
    phases = sim(write_spec(spec))["phases"]
    assert phases["alone"]["flows"] == 1 and phases["alone"]["jain"] == 1
    assert phases["both"]["flows"] == 2
    assert abs(phases["both"]["jain"] - 0.8) < 0.01
