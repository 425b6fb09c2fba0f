"""The oracle routing (`routing: oracle`, sim/src/network/oracle_routing.h): a source with no
path holds its packets, at most 64 (the oldest dropped when full) for at most 30 s each,
ns-2 AODV's route-request queue, and sends them when a path appears. A 2-hop chain whose
relay walks out of range at 20 s: nodes 0 and 2 are 400 m apart, beyond the 250 m range, so
there is no path until the relay returns."""

import pytest

from conftest import sim

BREAK_S = 20.0
HELD = 64  # packets a source holds
HOLD_S = 30.0


def outage_spec(outage_s, packets_per_s, duration_s):
    back = BREAK_S + outage_s
    relay = [[0, 200, 0], [BREAK_S, 200, 0], [BREAK_S + 0.01, 200, 300], [back, 200, 300], [back + 0.01, 200, 0]]
    return {
        "duration": duration_s,
        "seed": 1,
        "routing": "oracle",
        "topology": {"kind": "chain", "hops": 2, "spacing": 200},
        "mobility": {"model": "waypoints", "waypoints": {"1": relay}},
        "flows": [
            {"protocol": "cbr", "src": 0, "dst": 2, "start": 1, "rate": f"{8 * packets_per_s}kbps", "packet_size": 1000}
        ],
    }


def run(write_spec, outage_s, packets_per_s, duration_s):
    result = sim(write_spec(outage_spec(outage_s, packets_per_s, duration_s)))
    flow, drops = result["flows"][0], result["drops"]
    # Every packet sent is delivered or counted lost (a MAC drop may also be an ARP frame's).
    accounted = flow["received"] + drops["no_route"] + drops["ifq"]
    assert flow["sent"] - drops["mac_retry"] <= accounted <= flow["sent"]
    return flow, drops


def test_a_source_holds_the_newest_64_packets_through_an_outage_and_sends_them_on_return(write_spec):
    # 10 s without a path at 10 packets/s: 100 packets meet no path, the oldest 36 are dropped.
    flow, drops = run(write_spec, outage_s=10, packets_per_s=10, duration_s=40)
    assert drops["no_route"] == pytest.approx(10 * 10 - HELD, abs=1)
    assert flow["received"] >= flow["sent"] - drops["no_route"] - drops["ifq"] - drops["mac_retry"]


def test_a_held_packet_is_dropped_after_30_s(write_spec):
    # 40 s without a path at 1 packet/s: never 64 held, but the first 10 wait more than 30 s.
    _, drops = run(write_spec, outage_s=40, packets_per_s=1, duration_s=70)
    assert drops["no_route"] == pytest.approx(40 - HOLD_S, abs=1)
    assert drops["ifq"] == 0


def test_on_a_standing_chain_nothing_lacks_a_route(write_spec):
    spec = outage_spec(0, 10, 20)
    spec["mobility"] = {"model": "static"}
    result = sim(write_spec(spec))
    assert result["drops"]["no_route"] == 0 and result["flows"][0]["plr"] == 0
