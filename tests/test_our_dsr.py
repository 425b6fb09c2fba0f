"""Our DSR (`routing: dsr`, sim/src/dsr/) in the simulator: the source route's bytes on the air,
one delivery per packet on a moving network, and the ARP failures it hears as broken links."""

from conftest import sim


def test_a_chain_carries_cbr_with_rfc_4728_source_route_bytes_on_every_hop(write_spec):
    # 4 hops: each data packet carries the fixed header (4 bytes) and a source route option
    # listing the 3 relays (4 + 3 x 4 bytes): 20 bytes on each of its 4 transmissions.
    r = sim(
        write_spec(
            {
                "duration": 20,
                "seed": 1,
                "radio": "ns2-80211b",
                "routing": "dsr",
                "topology": {"kind": "chain", "hops": 4},
                "flows": [{"protocol": "cbr", "src": 0, "dst": 4, "rate": "100kbps", "packet_size": 512, "start": 1}],
            }
        )
    )
    f, routing = r["flows"][0], r["routing"]
    assert routing["protocol"] == "dsr"
    assert f["sent"] - f["received"] <= 1  # at most the one in flight at the end
    assert 20 * 4 * f["received"] <= routing["bytes_sent"]["data_header"] <= 20 * 4 * f["sent"]
    # one discovery: a non-propagating request, then the flood the target answers
    assert routing["discoveries"] == 1 and routing["propagating_requests"] == 1
    assert routing["route_errors"] == 0 and sum(routing["drops"].values()) == 0
    assert routing["routed_hops_mean"] == 4
    assert r["delivery"]["sent"] == f["sent"] and r["delivery"]["received"] == f["received"]


def test_a_moving_network_delivers_each_packet_once_and_repairs_routes(write_spec):
    r = sim(
        write_spec(
            {
                "duration": 30,
                "seed": 3,
                "radio": "ns2-80211b",
                "routing": "dsr",
                "topology": {"kind": "manet", "nodes": 30, "width": 1500, "height": 300},
                "mobility": {"model": "rwp", "speed": 20, "pause": 0},
                "flows": [
                    {"protocol": "tfrc", "src": 0, "dst": 1, "start": 1},
                    {"protocol": "cbr", "src": 4, "dst": 5, "start": 2, "rate": "100kbps"},
                ],
            }
        )
    )
    routing = r["routing"]
    for f in r["flows"]:
        assert 0 < f["received"] <= f["sent"]
        assert f["duplicates"] == 0  # a copy a salvage made is dropped at the destination
    assert routing["route_errors"] > 0 and routing["salvaged"] > 0  # links broke and were repaired
    assert routing["drops"]["duplicate"] == routing["duplicates_suppressed"]
    assert routing["drops"]["malformed"] == 0
