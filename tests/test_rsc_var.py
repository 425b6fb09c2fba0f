"""RSC-VAR's receiver (docs/protocols/rsc-var.md), driven by an unmodified NewReno sender.

Slow start and the receive timeout that ends it are checked where they happen whatever the seed:
one 802.11 hop (qualnet-80211b, static routes) with no wired link in front. There slow start
shrinks T_base by alpha 12 to 23 times on every seed tried (1-60), to under a quarter of its
start (a third on one seed), and lasts past 2.3 s, so an outage from 1 s strikes it.

On the paper's Fig. 5 topology (a 10 Mb/s, 200 ms wired link, then four 802.11 hops) the fall is
luck: T_base = RTT/2 starts the flow at two segments per sRTT, where AT's count flips between 1, 2
and 3, and in 28 of 30 seeds that fluctuation (0.2-0.3) ends slow start after a few steps
(docs/reproductions/rsc-var.md, "Why the bad cases"). There only what holds on every seed is
checked: T_base's start and the beta growth of a receive timeout."""

import pytest

from conftest import mantra, sim

ALPHA, BETA = 0.9, 1.2  # Table 1
GUARD_MS = 1.0  # T_base's lower guard (not the paper's)


def same(a, b):
    return abs(a - b) < 1e-6


def single_hop(seed, duration, **keys):
    return {
        "duration": duration,
        "seed": seed,
        "routing": "static",
        "radio": {"preset": "qualnet-80211b"},
        "topology": {"kind": "chain", "hops": 1},
        "flows": [
            {"protocol": "newreno", "receiver": "rsc-var", "src": 0, "dst": 1, "packet_size": 1460, "max_window": 1000}
        ],
        **keys,
    }


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


def run(write_spec, spec):
    flow = sim(write_spec(spec))["flows"][0]
    series = flow["rsc_var"]["series"]
    return flow, flow["diagnostics"]["receiver"], series["t"], series["t_ack_ms"], series["t_base_ms"]


@pytest.mark.parametrize("seed", range(1, 7))
def test_in_slow_start_t_base_shrinks_by_alpha_at_every_update_and_the_ack_interval_falls(write_spec, seed):
    _, receiver, t, t_ack, t_base = run(write_spec, single_hop(seed, 5))
    end = receiver["slow_start_end_s"]  # -1: slow start never ended
    # 4.2.1: slow start begins at the first RTT sample, with no fluctuation yet: T_ack = T_base.
    assert same(t_ack[0], t_base[0])
    # The series has a sample at every change of T_base (and at most one a second between): a
    # change is the ratio of a sample to the one before it.
    in_ss = [i for i in range(1, len(t)) if end < 0 or t[i] <= end + 1e-9]
    moves = [i for i in in_ss if not same(t_base[i], t_base[i - 1])]
    by_alpha = [i for i in moves if same(t_base[i], ALPHA * t_base[i - 1])]
    # Eq. 9, slow start: the mean fluctuation below theta_ss,low shrinks T_base by exactly alpha,
    # update after update.
    assert len(by_alpha) >= 8, f"{len(by_alpha)} alpha steps in slow start: {list(zip(t, t_base, strict=True))[:30]}"
    # Nothing else moves T_base in slow start: only the 1 ms guard stops a step short, and beta
    # (high fluctuation, or a receive timeout) is the move that ends it.
    others = [
        (t[i], t_base[i - 1], t_base[i])
        for i in moves
        if i not in by_alpha
        and not (same(t_base[i], GUARD_MS) and ALPHA * t_base[i - 1] < GUARD_MS)
        and not (same(t[i], end) and same(t_base[i], BETA * t_base[i - 1]))
    ]
    assert not others
    # Eq. 7: the ACK interval follows T_base down, well below its first value.
    assert min(t_ack[i] for i in in_ss) < 0.5 * t_ack[0]


@pytest.mark.parametrize("seed", range(1, 7))
def test_a_receive_timeout_in_slow_start_grows_t_base_by_beta_and_ends_slow_start(write_spec, seed):
    # The receiver walks out of range from 1 to 4 s, in slow start on every seed: no data reaches
    # it for more than 4 sRTT (sRTT, queueing included, is up to a few hundred ms by then).
    away = [[1.0, 200, 0], [1.01, 200, 5000], [4.0, 200, 5000], [4.01, 200, 0]]
    flow, receiver, t, _, t_base = run(
        write_spec, single_hop(seed, 5, mobility={"model": "waypoints", "waypoints": {"1": away}})
    )
    # Until the outage, slow start: T_base falls by alpha.
    before = [i for i in range(1, len(t)) if t[i] < 1.0]
    assert sum(same(t_base[i], ALPHA * t_base[i - 1]) for i in before) >= 5
    # 4.2.4 and 4.2.3: the receive timeout grows T_base by beta and ends slow start.
    assert receiver["receive_timeouts"] >= 1
    end = receiver["slow_start_end_s"]
    assert 1.0 < end < 4.0
    assert [i for i in range(1, len(t)) if same(t[i], end) and same(t_base[i], BETA * t_base[i - 1])]
    assert flow["rsc_var"]["state"] == "congestion_avoidance"


@pytest.mark.parametrize("seed", [1, 2])
def test_on_the_paper_topology_t_base_starts_at_half_the_rtt_and_a_receive_timeout_grows_it_by_beta(write_spec, seed):
    # Seed 1 is a bad case (slow start ends at 9 s), seed 2 a good one (slow start to the outage).
    # Relay 3 walks out of range from 40 to 46 s: no data reaches the receiver for more than 4 sRTT.
    away = [[40, 400, 0], [40.01, 400, 5000], [46, 400, 5000], [46.01, 400, 0]]
    spec = fig5(seed, 60, mobility={"model": "waypoints", "waypoints": {"3": away}})
    _, receiver, t, _, t_base = run(write_spec, spec)
    # 4.2.1: T_base starts at half the first RTT (2 x 200 ms wired, plus the radio hops).
    assert 200 < t_base[0] < 260
    # 4.2.4: the receive timeout grows T_base by beta; slow start is over by then.
    assert receiver["receive_timeouts"] >= 1
    grown = [t[i] for i in range(1, len(t)) if 40 < t[i] < 50 and same(t_base[i], BETA * t_base[i - 1])]
    assert grown
    assert 0 < receiver["slow_start_end_s"] <= grown[0] + 1e-9
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
