"""ns-2's flush on a link failure (`link_failure_flush`, docs/run-spec.md) and the loss oracle's
view of it: a 2-hop chain under AODV whose relay walks out of range at 10 s for 5 s, with a
CBR flow above the chain's capacity, so node 0's interface queue is full when the link fails.
With the flush, the first MAC failure to the relay drops what node 0 holds for it, so fewer
frames go on failing on the air; every flushed packet of the flow is a route change to the
oracle."""

from conftest import sim

BREAK_S, BACK_S = 10.0, 15.0


def outage(write_spec, flush):
    relay = [[0, 200, 0], [BREAK_S, 200, 0], [BREAK_S + 0.01, 200, 400], [BACK_S, 200, 400], [BACK_S + 0.01, 200, 0]]
    spec = {
        "duration": 30,
        "seed": 1,
        "routing": "aodv-ns3",
        "link_failure_flush": flush,
        "topology": {"kind": "chain", "hops": 2, "spacing": 200},
        "mobility": {"model": "waypoints", "waypoints": {"1": relay}},
        "flows": [{"protocol": "cbr", "src": 0, "dst": 2, "start": 1, "rate": "1200kbps"}],
    }
    return sim(write_spec(spec))


def test_the_flush_drops_the_queue_for_the_broken_hop_and_the_oracle_calls_it_a_route_change(write_spec):
    kept = outage(write_spec, False)
    flushed = outage(write_spec, True)
    assert kept["drops"]["link_failure"] == 0
    # The queue held packets for the relay when its link failed: the flush took them at once.
    assert flushed["drops"]["link_failure"] >= 20
    # Without the flush each of them was tried on the air again, failing the MAC again.
    assert flushed["drops"]["mac_retry"] < kept["drops"]["mac_retry"]
    causes = flushed["flows"][0]["loss_causes"]
    # The flushed packets are route changes, not congestion: the flow's congestion losses are
    # interface-queue overflows only (a flushed packet counted as congestion would exceed them).
    assert causes["cong"] <= flushed["drops"]["ifq"]
    assert causes["cherr"] == 0
    assert causes["rtchg"] > 0


def test_per_packet_channel_error_is_channel_error_to_the_oracle(write_spec):
    spec = {
        "duration": 30,
        "seed": 1,
        "routing": "static",  # no route breaks: AODV's hellos are hit too
        "topology": {"kind": "chain", "hops": 2, "spacing": 200},
        "channel_error": {"placement": "packet", "rate": 0.1, "links": [[0, 1]]},
        "flows": [{"protocol": "cbr", "src": 0, "dst": 2, "start": 1, "rate": "200kbps"}],
    }
    r = sim(write_spec(spec))
    causes = r["flows"][0]["loss_causes"]
    assert causes["cherr"] > 50
    assert causes == {"cherr": causes["cherr"], "cong": 0, "rtchg": 0}
    assert causes["cherr"] == r["drops"]["channel_error"]
