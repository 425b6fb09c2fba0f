"""The ns2-80211b radio end to end, and a mobile network run."""

from conftest import sim


def two_nodes(distance):
    return {
        "duration": 10,
        "seed": 1,
        "topology": {"kind": "positions", "positions": [[0, 0], [distance, 0]]},
        "flows": [{"protocol": "cbr", "src": 0, "dst": 1, "start": 1, "rate": "80kbps"}],
    }


def test_cbr_crosses_249_m_but_not_251_m(write_spec):
    assert sim(write_spec(two_nodes(249)))["flows"][0]["received"] > 50
    assert sim(write_spec(two_nodes(251)))["flows"][0]["received"] == 0


def test_every_packet_counts_once_within_range(write_spec):
    # 80 kb/s of 1000-byte packets from 1 s to 10 s: 90 sent, all within range and arriving.
    # The first, sent at the window's start, once fell out of `received` by a rounding of its send time.
    for distance in (100, 240, 249):
        flow = sim(write_spec(two_nodes(distance)))["flows"][0]
        assert (flow["sent"], flow["received"], flow["plr"]) == (90, 90, 0.0), distance


def test_random_waypoint_network_carries_tfrc(write_spec):
    spec = {
        "duration": 60,
        "seed": 2,
        "topology": {"kind": "manet", "nodes": 30, "width": 400, "height": 800},
        "mobility": {"model": "rwp", "speed": 10, "pause": 0},
        "flows": [{"protocol": "tfrc", "src": 0, "dst": 1, "start": 5}],
    }
    r = sim(write_spec(spec))
    f = r["flows"][0]
    assert f["received"] > 0 and f["throughput_kbps"] > 10
    assert r["provenance"]["events"] > 0
    # AODV's own packets (ns-2's, ours: the default routing), counted at every hop
    assert r["routing"]["protocol"] == "aodv" and r["routing"]["packets_sent"]["all"] > 0


def test_dsr_runs_with_moving_nodes_and_counts_each_packet_once(write_spec):
    # ns-3.37's DSR aborted at the first link break of a moving network; 3.44's runs.
    # Its link-acknowledgement timeouts resend packets that had arrived: such copies
    # are duplicates, never arrivals.
    r = sim(
        write_spec(
            {
                "duration": 60,
                "seed": 7,
                "routing": "dsr-ns3",
                "topology": {"kind": "manet", "nodes": 20, "width": 1000, "height": 300},
                "mobility": {"model": "rwp", "speed": 20, "pause": 0},
                "flows": [{"protocol": "tfrc", "src": 0, "dst": 1}],
            }
        )
    )
    f = r["flows"][0]
    assert r["provenance"]["ns3_version"] == "3.44"
    assert 0 < f["received"] <= f["sent"]
    # every datagram that reached the receiver is either a packet's first arrival or a copy
    assert f["diagnostics"]["receiver"]["datagrams_received"] == f["received"] + f["duplicates"]


def test_a_tcp_segment_in_dsrs_send_buffer_at_100_s_no_longer_aborts_the_run(write_spec):
    # Freeze-Probing over DSR at 20 m/s, seed 2 (the Freeze-Probing quick profile's Fig. 9 run):
    # at t = 100 s ns-3's DSR scanned its send buffer and read a buffered TCP segment as a DSR
    # header, its sequence number as a length past the packet's end, and aborted (issue 27).
    # The scan is moved beyond the run (network/scenario.cc); with it back, this run aborts.
    spec = {
        "duration": 101,
        "seed": 2,
        "hop_sampling": 1,
        "radio": "ns2-80211b",
        "routing": "dsr-ns3",
        "topology": {"kind": "manet", "nodes": 30, "width": 400, "height": 800, "fixed": [[0, 0], [400, 800]]},
        "mobility": {"model": "rwp", "speed": 20, "pause": 0},
        "flows": [
            {
                "protocol": "freeze-probing",
                "src": 0,
                "dst": 1,
                "start": 1,
                "packet_size": 1460,
                "max_window": 8,
                "clock_granularity": "100ms",
            },
            {"protocol": "cbr", "src": 2, "dst": 3, "start": 20, "stop": 100, "rate": "200kbps", "packet_size": 512},
            {"protocol": "cbr", "src": 4, "dst": 5, "start": 40, "stop": 80, "rate": "200kbps", "packet_size": 512},
        ],
    }
    r = sim(write_spec(spec))
    assert r["flows"][0]["sent"] > 0


def test_routed_hops_count_the_route_every_hop_forwarded(write_spec):
    # A 4-hop chain (200 m apart, 250 m range) has one route: each delivered packet crossed 4 hops,
    # read from its IP TTL, under every routing that keeps IP's TTL; ns-3's DSR's TTL says
    # nothing of the route, so it has none.
    for routing, routed in (("aodv", 4.0), ("aodv-ns3", 4.0), ("oracle", 4.0), ("dsr", 4.0), ("dsr-ns3", None)):
        spec = {
            "duration": 12,
            "seed": 1,
            "radio": "ns2-80211b",
            "routing": routing,
            "hop_sampling": 1,
            "topology": {"kind": "chain", "hops": 4, "spacing": 200},
            "flows": [{"protocol": "cbr", "src": 0, "dst": 4, "start": 2, "rate": "40kbps"}],
        }
        flow = sim(write_spec(spec))["flows"][0]
        hops = flow["path_hops"]
        assert hops["mean"] == 4.0, routing
        assert hops["routed_mean"] == routed, routing
        if routed is None:
            assert hops["routed_packets"] is None
        else:
            assert hops["routed_packets"] >= flow["received"] > 40, routing
