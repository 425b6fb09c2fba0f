"""LATP in the simulator: node agents on every node that measure the radio
and bound each LATP packet's rate feedback, the protocol against TFRC on a
chain, and the scenario features its campaigns use (grid, random pairs a
given number of hops apart, the measurement window)."""

from conftest import mantra, sim


def chain(protocol, hops=4, duration=60):
    return {
        "duration": duration,
        "seed": 1,
        "radio": {"preset": "ns2-80211b", "queue": 25},
        "measure": {"from": 20},
        "topology": {"kind": "chain", "hops": hops, "spacing": 200},
        "flows": [{"protocol": protocol, "src": 0, "dst": hops, "start": 1}],
    }


def test_agents_measure_every_node_and_bound_the_rate_feedback(write_spec):
    r = sim(write_spec(chain("latp")))
    agents = r["latp_agents"]
    assert [a["node"] for a in agents] == [0, 1, 2, 3, 4]
    flow = r["flows"][0]
    for a in agents[:4]:  # the source and the relays send every data packet on
        assert a["latp_egress"] >= flow["diagnostics"]["sender"]["datagrams_sent"] - 30
        assert 0 < a["busyness"] < 1 and a["throughput_Bps"] > 0 and a["unmatched_acks"] == 0
        assert a["attempts"] > 0 and a["acks"] > 0
    assert agents[4]["latp_egress"] == 0  # the receiver forwards no data
    assert sum(a["latp_stamped"] for a in agents) > 0
    receiver = flow["diagnostics"]["receiver"]
    assert receiver["unbounded_r"] < 5  # only the first packets pass before any node has an estimate
    # The middle of a 4-hop chain is busier than B_TH allows at the sender's
    # peak: negative feedback has cut the rate.
    assert flow["diagnostics"]["sender"]["decreases"] > 0


def test_latp_keeps_the_chain_queues_short_where_tfrc_fills_them(write_spec):
    latp = sim(write_spec(chain("latp")))
    tfrc = sim(write_spec(chain("tfrc"), "tfrc.json"))
    assert latp["flows"][0]["delay_ms"]["mean"] < 0.5 * tfrc["flows"][0]["delay_ms"]["mean"]
    assert latp["drops"]["ifq"] < tfrc["drops"]["ifq"]
    assert latp["flows"][0]["throughput_kbps"] > 0.6 * tfrc["flows"][0]["throughput_kbps"]


def test_without_agents_no_node_bounds_the_feedback(write_spec):
    spec = chain("latp", duration=30)
    spec["latp_agent"] = False
    r = sim(write_spec(spec))
    assert "latp_agents" not in r
    receiver = r["flows"][0]["diagnostics"]["receiver"]
    assert receiver["unbounded_r"] == receiver["datagrams_received"] > 0


def test_agent_parameters_reach_the_agents(write_spec):
    spec = chain("latp", duration=30)
    spec["latp_agent"] = {"busyness_threshold": 0.05}  # nearly every node is "too busy"
    r = sim(write_spec(spec))
    assert any(a.get("permissible_Bps", 0) < 0 for a in r["latp_agents"])
    bad = mantra("sim", write_spec({**spec, "latp_agent": {"b_th": 0.9}}, "bad.json"), check=False)
    assert bad.returncode == 2 and "latp_agent: unknown parameter 'b_th'" in bad.stderr


def test_measurement_window_is_reported_and_checked(write_spec):
    r = sim(write_spec(chain("latp", duration=30)))
    assert r["flows"][0]["measured"] == {"from": 20, "to": 30}
    assert r["flow_means"]["throughput_kbps"] == r["flows"][0]["throughput_kbps"] == r["flow_means"]["aggregate_kbps"]
    late = mantra("sim", write_spec({**chain("latp", duration=30), "measure": {"from": 10, "to": 40}}), check=False)
    assert late.returncode == 2 and "measure.to: must not be after the run's duration" in late.stderr


def test_grid_numbers_nodes_row_by_row(write_spec):
    spec = {
        "duration": 20,
        "seed": 1,
        "topology": {"kind": "grid", "rows": 3, "cols": 3, "spacing": 200},
        "flows": [
            {"protocol": "cbr", "src": 0, "dst": 2, "rate": "80kbps", "start": 1},  # along row 0: 2 hops
            {"protocol": "cbr", "src": 0, "dst": 8, "rate": "80kbps", "start": 1},
        ],  # to the far corner: 4 hops
    }
    r = sim(write_spec(spec))
    row, corner = r["flows"]
    assert row["plr"] < 0.05 and corner["plr"] < 0.05
    # One more hop, one more 200 m step of delay at least.
    assert corner["delay_ms"]["mean"] > row["delay_ms"]["mean"]


def test_random_pairs_are_far_enough_apart_and_follow_the_seed(write_spec):
    spec = {
        "duration": 10,
        "seed": 1,
        "topology": {"kind": "chain", "hops": 6, "spacing": 200},
        "flows": [{"protocol": "cbr", "src": "random", "dst": "random", "min_hops": 6, "rate": "40kbps", "start": 1}],
    }
    f = sim(write_spec(spec))["flows"][0]
    assert {f["src"], f["dst"]} == {0, 6}  # the only pair 6 hops apart
    spec["flows"][0]["min_hops"] = 3
    spec["flows"].append(dict(spec["flows"][0]))
    draws = {seed: [(f["src"], f["dst"]) for f in sim(write_spec(spec), f"seed={seed}")["flows"]] for seed in (1, 2)}
    for pairs in draws.values():
        assert all(abs(a - b) >= 3 for a, b in pairs) and len({frozenset(p) for p in pairs}) == 2
    assert sim(write_spec(spec), "seed=1")["flows"][0]["src"] == draws[1][0][0]  # same seed, same draw
    # Both flows want the only pair 6 hops apart: the second finds none free.
    spec["flows"][0]["min_hops"] = spec["flows"][1]["min_hops"] = 6
    far = mantra("sim", write_spec(spec), check=False)
    assert far.returncode != 0 and "flows[1]: no free pair of nodes is 6 or more hops apart" in far.stderr
    spec["flows"][0]["min_hops"] = 7  # more hops than the network has nodes: refused as a spec error
    assert "flows[0].min_hops: 7 is out of range (1 .. 6" in mantra("sim", write_spec(spec), check=False).stderr


def test_spec_refuses_latp_without_a_radio_and_half_random_pairs(write_spec):
    wired = {
        "duration": 10,
        "seed": 1,
        "topology": {"kind": "p2p", "bandwidth": "1Mbps", "delay": "10ms"},
        "flows": [{"protocol": "latp", "src": 0, "dst": 1}],
    }
    p = mantra("sim", write_spec(wired), check=False)
    assert p.returncode == 2 and "latp needs a wireless topology" in p.stderr
    half = chain("latp", duration=30)
    half["flows"][0]["src"] = "random"
    p = mantra("sim", write_spec(half), check=False)
    assert p.returncode == 2 and "src and dst are random together" in p.stderr


def test_random_pairs_on_a_moving_network_use_the_nodes_first_positions(write_spec):
    # Random-waypoint nodes take their first position in an ns-3 event at t = 0;
    # pairs drawn before it saw every moving node at (0, 0), one hop apart.
    spec = {
        "duration": 5,
        "seed": 1,
        "topology": {"kind": "manet", "nodes": 30, "width": 1500, "height": 300},
        "mobility": {"model": "rwp", "speed": 5, "pause": 0},
        "flows": [{"protocol": "cbr", "src": "random", "dst": "random", "min_hops": 3, "rate": "40kbps", "start": 1}],
    }
    f = sim(write_spec(spec))["flows"][0]
    assert f["src"] != f["dst"] and f["sent"] > 0
