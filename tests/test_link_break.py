"""The scripted link break (docs/protocols/freeze-probing.md, "One outage"): a 2-hop
chain whose relay walks out of range at 20 s and comes back after the outage, with
static routes so that only the transport reacts (no route discovery, no route
errors). ELFN and Freeze-Probing deliver new data within one probe period (2 s)
plus a round trip of the link's return; Reno's first new data waits for its
backed-off retransmission timer."""

import pytest

from conftest import sim

BREAK_S = 20.0
PROBE_S = 2.0
RTT_ALLOWANCE_S = 0.5  # a few round trips of the 2-hop chain (about 0.15 s each)


def link_break(outage_s, flow):
    back = BREAK_S + outage_s
    relay = [[0, 200, 0], [BREAK_S, 200, 0], [BREAK_S + 0.01, 200, 300], [back, 200, 300], [back + 0.01, 200, 0]]
    return {
        "duration": 60,
        "seed": 1,
        "routing": "static",
        "topology": {"kind": "chain", "hops": 2, "spacing": 200},
        "mobility": {"model": "waypoints", "waypoints": {"1": relay}},
        "flows": [{"src": 0, "dst": 2, "start": 1, "packet_size": 1460, "max_window": 8, **flow}],
    }


def recovery_s(write_spec, outage_s, flow):
    """Seconds from the link's return (the relay back in range) to the first new data."""
    result = sim(write_spec(link_break(outage_s, flow)))["flows"][0]
    return result["stall"]["ends_s"] - (BREAK_S + outage_s + 0.005), result


@pytest.mark.parametrize("outage_s", [6, 7])
@pytest.mark.parametrize(
    "flow", [{"protocol": "freeze-probing"}, {"protocol": "reno", "elfn": True}, {"protocol": "newreno", "elfn": True}]
)
def test_a_freeze_resumes_within_a_probe_period_of_the_links_return(write_spec, outage_s, flow):
    recovery, result = recovery_s(write_spec, outage_s, flow)
    assert 0 < recovery <= PROBE_S + RTT_ALLOWANCE_S, (flow, recovery)
    sender = result["diagnostics"]["sender"]
    assert sender["resumes_from_probing"] == 1 and sender["probes"] >= outage_s // PROBE_S - 1
    if flow.get("elfn"):
        assert sender["notice_freezes"] == 1 and sender["elfn_notices_delivered"] >= 1


def test_reno_waits_for_its_backed_off_timer(write_spec):
    # Reno's retransmissions after the break: 20.2, 20.6, 21.4, 23.0, 26.2, 32.6 s (200 ms
    # minimum RTO, doubling). After a 7 s outage (back at 27 s) the next one is at 32.6 s.
    recovery, result = recovery_s(write_spec, 7, {"protocol": "reno"})
    assert recovery > PROBE_S + RTT_ALLOWANCE_S
    assert result["stall"]["ends_s"] == pytest.approx(32.6, abs=0.1)
    frozen, _ = recovery_s(write_spec, 7, {"protocol": "freeze-probing"})
    assert frozen < recovery
