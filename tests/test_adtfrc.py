"""ADTFRC in the simulator: the loss oracle's true causes, the detection
score against them, and the probing sender on a broken path."""

from conftest import mantra, sim


def chain_with_cross_traffic(passive):
    # 3 hops at 200 m; a 1.5 Mb/s CBR flow overloads the chain from t = 10 s.
    return {
        "duration": 40,
        "seed": 1,
        "topology": {"kind": "positions", "positions": [[0, 0], [200, 0], [400, 0], [600, 0]]},
        "flows": [
            {"protocol": "adtfrc", "src": 0, "dst": 3, "start": 1, "receiver_params": {"passive": passive}},
            {"protocol": "cbr", "src": 0, "dst": 3, "start": 10, "rate": "1.5Mbps"},
        ],
    }


def roaming_relay():
    # Nodes 0 and 1 stand 400 m apart (out of range); node 2 roams the strip
    # between them at 10 m/s, so the 2-hop path comes and goes.
    return {
        "duration": 60,
        "seed": 1,
        "topology": {"kind": "manet", "nodes": 3, "width": 400, "height": 10, "fixed": [[0, 5], [400, 5]]},
        "mobility": {"model": "rwp", "speed": 10, "pause": 0},
        "flows": [{"protocol": "adtfrc", "src": 0, "dst": 1, "start": 1}],
    }


def test_overflowing_queue_is_congestion_and_the_score_adds_up(write_spec):
    r = sim(write_spec(chain_with_cross_traffic(passive=1)))
    watched, cbr = r["flows"]
    assert watched["loss_causes"]["cong"] > 0 and r["drops"]["ifq"] > 0
    assert "detection" not in cbr and cbr["loss_causes"]["cong"] > 0  # CBR packets are followed too
    d = watched["detection"]
    assert d["detector"] == "multi" and set(d["by_detector"]) == {"multi", "idd", "stt"}
    assert d["losses"] == d["attributed"] + d["unattributed"] and d["attributed"] > 0
    cells = d["confusion"]
    assert sum(n for row in cells.values() for n in row.values()) == d["attributed"]
    true_cong_missed = sum(cells[s]["cong"] for s in ("rtchg", "cherr", "normal"))
    false_alarms = cells["cong"]["cherr"] + cells["cong"]["rtchg"]
    assert d["incompatible_ratio"] == true_cong_missed / d["attributed"]
    assert d["inaccurate_ratio"] == (true_cong_missed + false_alarms) / d["attributed"]


def test_a_passive_receiver_leaves_the_flow_tfrc(write_spec):
    spec = chain_with_cross_traffic(passive=1)
    adtfrc = sim(write_spec(spec))["flows"][0]
    spec["flows"][0] = {"protocol": "tfrc", "src": 0, "dst": 3, "start": 1}
    tfrc = sim(write_spec(spec, "tfrc.json"))["flows"][0]
    assert adtfrc["throughput_kbps"] == tfrc["throughput_kbps"]
    assert adtfrc["diagnostics"]["sender"]["probing_spells"] == 0


def test_a_broken_path_is_a_route_change_and_the_sender_probes(write_spec):
    r = sim(write_spec(roaming_relay()))
    f = r["flows"][0]
    assert f["loss_causes"]["rtchg"] > 0
    sender = f["diagnostics"]["sender"]
    assert sender["probing_spells"] > 0 and sender["probes_sent"] >= sender["probing_spells"]
    assert f["diagnostics"]["receiver"]["probes_answered"] > 0


def test_fixed_nodes_are_checked(write_spec):
    spec = roaming_relay()
    spec["topology"]["fixed"] = [[0, 50], [400, 5]]
    p = mantra("sim", write_spec(spec), check=False)
    assert p.returncode == 2 and "topology.fixed[0]: lies outside the width x height area" in p.stderr
    spec["topology"]["fixed"] = [[0, 5], [10, 5], [20, 5]]
    p = mantra("sim", write_spec(spec), check=False)
    assert p.returncode == 2 and "topology.fixed: must leave at least one node to move" in p.stderr


def test_adtfrc_parameters_are_checked(write_spec):
    spec = roaming_relay()
    spec["flows"][0]["receiver_params"] = {"detector": 5}
    p = mantra("sim", write_spec(spec), check=False)
    assert p.returncode == 2 and "detector must be 0 (multi-metric), 1 (IDD only) or 2 (STT only)" in p.stderr
    spec["flows"][0]["receiver_params"] = {}
    spec["flows"][0]["params"] = {"probing_period_s": 0}
    p = mantra("sim", write_spec(spec), check=False)
    assert p.returncode == 2 and "probing_period_s" in p.stderr
