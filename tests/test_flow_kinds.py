"""Flow kinds: TCP variants with their own sockets side by side, the `tcp` alias, and the
`receiver` key (sim/src/apps/flow_kinds.h)."""

from conftest import mantra, sim


def chain(flows, hops=3, duration=60):
    return {"duration": duration, "seed": 1, "topology": {"kind": "chain", "hops": hops}, "flows": flows}


def bytes_per_arrival(flow):
    window = flow["measured"]["to"] - flow["measured"]["from"]
    return flow["throughput_kbps"] * 1000 / 8 * window / flow["received"]


def test_newreno_and_vegas_run_side_by_side_with_their_own_segment_size(write_spec):
    result = sim(
        write_spec(
            chain(
                [
                    {"protocol": "newreno", "src": 0, "dst": 3, "start": 1, "packet_size": 1000, "max_window": 20},
                    {"protocol": "vegas", "src": 3, "dst": 0, "start": 1, "packet_size": 500, "max_window": 8},
                ]
            )
        )
    )
    newreno, vegas = result["flows"]
    assert (newreno["protocol"], vegas["protocol"]) == ("newreno", "vegas")
    for flow in (newreno, vegas):
        assert flow["received"] > 100 and flow["diagnostics"]["sender"]["gave_up"] == 0
    # Each flow's segments carry its own size: in-order bytes per arriving segment (a few
    # arrivals are retransmitted copies, so a little under the segment size).
    assert 900 < bytes_per_arrival(newreno) <= 1000
    assert 450 < bytes_per_arrival(vegas) <= 500
    assert result["fairness_jain"] is not None


def test_tcp_is_newreno(write_spec):
    flows = [{"protocol": "tcp", "src": 0, "dst": 4, "start": 1, "receive_buffer": 8}]
    as_tcp = sim(write_spec(chain(flows, hops=4, duration=30), "tcp.json"))
    flows[0]["protocol"] = "newreno"
    as_newreno = sim(write_spec(chain(flows, hops=4, duration=30), "newreno.json"))
    for r in (as_tcp, as_newreno):
        del r["provenance"]["commit"], r["provenance"]["wall_s"], r["spec"]
        r["flows"][0].pop("protocol")
        r["flows"][0].pop("group")  # a flow's group defaults to its protocol's name
        r["groups"] = list(r["groups"].values())
    assert as_tcp == as_newreno


def test_a_flow_may_name_its_receiver_kind(write_spec):
    flows = [{"protocol": "tfrc", "src": 0, "dst": 2, "start": 1}]
    default = sim(write_spec(chain(flows, hops=2, duration=20), "a.json"))
    flows[0]["receiver"] = "tfrc"
    named = sim(write_spec(chain(flows, hops=2, duration=20), "b.json"))
    assert named["flows"][0]["throughput_kbps"] == default["flows"][0]["throughput_kbps"] > 0


def test_a_receiver_that_cannot_serve_the_sender_is_refused(write_spec):
    path = write_spec(chain([{"protocol": "vegas", "receiver": "latp", "src": 0, "dst": 2}], hops=2))
    proc = mantra("sim", path, check=False)
    assert proc.returncode == 2
    assert proc.stderr == "mantra: spec: flows[0].receiver: a latp receiver cannot serve a vegas sender\n"
