"""TF-WMFC's network: ECN end to end (ECT asked for by the core, CE set by a RED queue on a
wired link and on an 802.11 interface queue, both counted at the receiving core), ECN-TCP's
window reductions, and the paper's wireless-hop claim in miniature."""

from conftest import mantra, sim


def cbr(rate, ecn, **keys):
    return {"protocol": "cbr", "rate": rate, "params": {"ecn": ecn}, **keys}


def counts(flow):
    r = flow["diagnostics"]["receiver"]
    return r["datagrams_received"], r["ect_received"], r["ce_received"]


def test_red_on_a_wired_bottleneck_marks_ect_packets_and_drops_the_others(write_spec):
    # 2 x 1.5 Mb/s into 2 Mb/s: RED (Table 1 at C = 2) marks the ECT(0) flow, drops the Not-ECT one.
    spec = {
        "duration": 20,
        "seed": 1,
        "topology": {"kind": "dumbbell", "bandwidth": "2Mbps", "delay": "20ms", "queue": {"kind": "red"}},
        "flows": [cbr("1.5Mbps", 2, group="ect"), cbr("1.5Mbps", 0, group="not_ect")],
    }
    r = sim(write_spec(spec))
    ect, not_ect = r["flows"]
    received, ect_seen, ce_seen = counts(ect)
    assert received > 1000
    assert ect_seen + ce_seen == received  # every packet arrives as it was sent: ECT(0), or marked CE
    assert ce_seen > 0.05 * received
    received, ect_seen, ce_seen = counts(not_ect)
    assert (ect_seen, ce_seen) == (0, 0)
    assert not_ect["plr"] > ect["plr"] + 0.05  # RED drops where it would have marked


def test_red_on_the_radio_interface_queue_marks_and_tfwmfc_leaves_its_ramp(write_spec):
    spec = {
        "duration": 30,
        "seed": 1,
        "routing": "static",
        "radio": {"preset": "ns2-80211b", "queue": {"kind": "red"}},
        "topology": {"kind": "chain", "hops": 2},
        "flows": [cbr("1.2Mbps", 2, src=0, dst=2)],
    }
    received, ect_seen, ce_seen = counts(sim(write_spec(spec))["flows"][0])
    assert received > 500
    assert ect_seen + ce_seen == received
    assert ce_seen > 0
    spec["topology"]["hops"] = 4
    spec["flows"] = [{"protocol": "tfwmfc", "src": 0, "dst": 4, "start": 1}]
    sender = sim(write_spec(spec))["flows"][0]["diagnostics"]["sender"]
    assert sender["initial_phase"] == 0
    assert sender["p_m"] > 0


def test_ecn_tcp_halves_on_echoes_and_reports_the_model_inputs(write_spec):
    spec = {
        "duration": 40,
        "seed": 1,
        "topology": {"kind": "dumbbell", "bandwidth": "8Mbps", "delay": "20ms", "queue": {"kind": "red"}},
        "flows": [{"protocol": "newreno", "ecn": True, "count": 4, "max_window": 500}],
    }
    r = sim(write_spec(spec))
    for f in r["flows"]:
        assert f["diagnostics"]["sender"]["ecn_reductions"] > 0
        assert f["diagnostics"]["receiver"]["ce_received"] >= f["diagnostics"]["sender"]["ecn_reductions"] * 0.5
        assert f["ecn_model"]["p_m_reductions"] > 0
    group = r["groups"]["newreno"]
    assert group["flows"] == 4
    assert 0.5 < group["model_ratio_refined_reductions"] < 2
    # Plain NewReno on the same queue is dropped, never marked.
    spec["flows"][0]["ecn"] = False
    plain = sim(write_spec(spec))["flows"][0]
    assert "ecn_reductions" not in plain["diagnostics"]["sender"]


def test_wireless_hop_loss_spares_tfwmfc_and_cuts_loss_based_tfrc(write_spec):
    """Fig. 10 in miniature: 10 % Bernoulli loss on the last hop of half the flows."""

    def ratio(protocol):
        spec = {
            "duration": 80,
            "seed": 1,
            "measure": {"from": 30},
            "phases": {"late": [50, 80]},
            "topology": {"kind": "dumbbell", "bandwidth": "8Mbps", "delay": "20ms", "queue": {"kind": "red"}},
            "flows": [
                {"protocol": "newreno", "ecn": True, "count": 2, "max_window": 500, "group": "tcp"},
                {"protocol": protocol, "count": 2, "start": 1, "group": "wired"},
                {"protocol": protocol, "count": 2, "start": 1, "group": "wireless", "access_loss": 0.1},
            ],
        }
        r = sim(write_spec(spec))
        g = r["groups"]
        # Each group's rate over a phase, and the phase's fair share over the flows in it.
        assert r["phases"]["late"]["flows"] == 6
        total = sum(g[n]["phases"]["late"]["throughput_kbps"] * g[n]["flows"] for n in ("tcp", "wired", "wireless"))
        assert abs(total / 6 - r["phases"]["late"]["fair_share_kbps"]) < 1e-6 * total
        return g["wireless"]["throughput_kbps"] / g["wired"]["throughput_kbps"]

    assert 0.75 < ratio("tfwmfc") < 1.3
    assert ratio("tfrc-loss") < 0.6


def radio_dumbbell(hops, flows, **keys):
    """Fig. 9 with its wireless part on 802.11: a 16 Mb/s RED bottleneck, then `hops` radio hops."""
    topology = {"kind": "dumbbell", "bandwidth": "16Mbps", "delay": "20ms", "queue": {"kind": "red"}}
    return {"duration": 20, "seed": 1, "topology": {**topology, "radio_hops": hops}, "flows": flows, **keys}


def test_a_radio_segment_carries_the_wireless_flows_hop_by_hop(write_spec):
    # A light flow's one-way delay grows by at least one frame's airtime per radio hop
    # (1000 bytes at 2 Mb/s is 4 ms before RTS, CTS and the ACK); the wired flow's does not.
    flows = [{"protocol": "cbr", "rate": "100kbps", "wireless": True}, {"protocol": "cbr", "rate": "100kbps"}]
    delays = {}
    for hops in (1, 4):
        r = sim(write_spec(radio_dumbbell(hops, flows)))
        wireless, wired = r["flows"]
        assert wireless["plr"] == 0 and wired["plr"] == 0
        delays[hops] = (wireless["delay_ms"]["mean"], wired["delay_ms"]["mean"])
    assert delays[4][0] - delays[1][0] > 3 * 4.0
    assert delays[4][1] == delays[1][1]


def test_marking_radio_queues_on_the_segment_mark_the_wireless_flow_only(write_spec):
    # 1 Mb/s into a 3-hop radio (a few hundred kb/s): the radio's RED queue marks the wireless
    # flow; the wired one crosses an idle 16 Mb/s bottleneck unmarked.
    flows = [
        {"protocol": "cbr", "rate": "1Mbps", "params": {"ecn": 2}, "wireless": True},
        {"protocol": "cbr", "rate": "1Mbps", "params": {"ecn": 2}},
    ]
    spec = radio_dumbbell(3, flows, radio={"preset": "ns2-80211b", "queue": {"kind": "red"}})
    wireless, wired = (counts(f) for f in sim(write_spec(spec))["flows"])
    received, ect_seen, ce_seen = wireless
    assert ect_seen + ce_seen == received and ce_seen > 0.5 * received
    received, ect_seen, ce_seen = wired
    assert (ect_seen, ce_seen) == (received, 0)


def test_a_radio_segment_is_refused_where_it_cannot_be_built(write_spec):
    wired_only = radio_dumbbell(2, [{"protocol": "cbr", "rate": "1Mbps"}])
    p = mantra("sim", write_spec(wired_only), check=False)
    assert p.returncode != 0
    assert p.stderr.strip().endswith(
        "topology.radio_hops: no flow crosses the radio segment (give a flow wireless: true)"
    )
    no_segment = radio_dumbbell(2, [{"protocol": "cbr", "rate": "1Mbps", "wireless": True}])
    del no_segment["topology"]["radio_hops"]
    p = mantra("sim", write_spec(no_segment), check=False)
    assert p.stderr.strip().endswith("flows[0].wireless: needs a radio segment (topology.radio_hops)")
