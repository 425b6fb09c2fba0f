"""RSC-VAR's receiver on the paper's topology (Fig. 5: a 10 Mb/s, 200 ms wired link, then four
802.11 hops with static routes), driven by an unmodified NewReno sender: the ACK interval falls
through slow start and grows by beta after a receive timeout."""

from conftest import mantra, sim


def fig5(seed, duration, **keys):
    return {
        "duration": duration,
        "seed": seed,
        "routing": "static",
        "radio": {"preset": "qualnet-80211b"},
        "topology": {"kind": "chain", "hops": 4, "wired": {"bandwidth": "10Mbps", "delay": "200ms"}},
        "flows": [
            {"protocol": "newreno", "receiver": "rsc-var", "src": 0, "dst": 5, "packet_size": 1460, "max_window": 1000}
        ],
        **keys,
    }


def test_the_ack_interval_falls_in_slow_start_and_grows_by_beta_after_a_receive_timeout(write_spec):
    # Relay 3 walks out of range from 40 to 46 s: no data reaches the receiver for more than 4 sRTT.
    away = [[40, 400, 0], [40.01, 400, 5000], [46, 400, 5000], [46.01, 400, 0]]
    spec = fig5(2, 60, mobility={"model": "waypoints", "waypoints": {"3": away}})
    flow = sim(write_spec(spec))["flows"][0]
    receiver = flow["diagnostics"]["receiver"]
    series = flow["rsc_var"]["series"]
    t, t_ack, t_base = series["t"], series["t_ack_ms"], series["t_base_ms"]
    # 4.2.1: T_base starts at half the first RTT (2 x 200 ms wired, plus the radio hops).
    assert 200 < t_base[0] < 260
    # Slow start: T_base shrinks by alpha every two sRTTs while the fluctuation is low.
    before = [a for when, a in zip(t, t_ack, strict=True) if when < 40]
    assert min(before) < 0.25 * t_ack[0]
    # 4.2.4: the receive timeout grows T_base by beta, and ends slow start (4.2.3).
    assert receiver["receive_timeouts"] >= 1
    grown = [i for i in range(1, len(t)) if 40 < t[i] < 50 and abs(t_base[i] - 1.2 * t_base[i - 1]) < 1e-6]
    assert grown
    assert 40 < receiver["slow_start_end_s"] < 50
    # Every ACK went through the queue once the first RTT was measured.
    assert receiver["acks_queued"] > 100


def test_a_normal_receiver_paces_nothing(write_spec):
    spec = fig5(2, 20)
    del spec["flows"][0]["receiver"]
    flow = sim(write_spec(spec))["flows"][0]
    assert "rsc_var" not in flow
    assert "receiver" not in flow["diagnostics"]


def refusal(write_spec, spec):
    p = mantra("sim", write_spec(spec), check=False)
    assert p.returncode != 0
    return p.stderr.strip().splitlines()[-1]


def test_bad_rsc_var_settings_are_refused_with_the_key(write_spec):
    spec = fig5(1, 10)
    flow = spec["flows"][0]
    flow["protocol"] = "rsc-var"
    assert refusal(write_spec, spec).endswith(
        "flows[0].protocol: rsc-var is a receiver: give a tcp sender as protocol and receiver: rsc-var"
    )
    flow["protocol"] = "newreno"
    flow["rsc_var"] = {"alpha": 1.5}
    assert refusal(write_spec, spec).endswith("flows[0].rsc_var.alpha: 1.5 is out of range (above 0 .. below 1)")
    flow["rsc_var"] = {"theta": 0.3}
    assert refusal(write_spec, spec).endswith("flows[0].rsc_var.theta: unknown key")
    del flow["receiver"]
    flow["rsc_var"] = {"alpha": 0.8}
    assert refusal(write_spec, spec).endswith("flows[0].rsc_var: only flows with receiver: rsc-var take rsc_var")


def test_a_wired_head_needs_static_routes(write_spec):
    spec = fig5(1, 10, routing="aodv")
    assert refusal(write_spec, spec).endswith(
        "routing: a chain with a wired head uses static routing (routing: static)"
    )
