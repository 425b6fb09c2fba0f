"""Channel error at its three placements (docs/run-spec.md, "channel_error"), on one hop
of a 2-hop chain at 10 %: per frame the MAC's retries hide it, per packet after the MAC
it reaches the flow and never fails the MAC, bursty it fails the MAC (route breaks)."""

import pytest

from conftest import sim


def run(write_spec, channel_error):
    spec = {
        "duration": 100,
        "seed": 1,
        "topology": {"kind": "chain", "hops": 2, "spacing": 200},
        "flows": [{"protocol": "cbr", "src": 0, "dst": 2, "start": 1, "rate": "200kbps"}],
    }
    if channel_error is not None:
        spec["channel_error"] = channel_error
    return sim(write_spec(spec))


def on_first_hop(placement):
    return {"placement": placement, "rate": 0.1, "links": [[0, 1]]}


def test_frame_error_is_hidden_by_the_macs_retries(write_spec):
    r = run(write_spec, on_first_hop("frame"))
    assert r["drops"]["channel_error"] > 1000  # frames hit, RTS/CTS/ACK included
    assert r["flows"][0]["plr"] < 0.01


def test_packet_error_reaches_the_flow_and_never_fails_the_mac(write_spec):
    r = run(write_spec, on_first_hop("packet"))
    assert r["drops"]["mac_retry"] == 0
    assert r["flows"][0]["plr"] == pytest.approx(0.1, abs=0.03)


def test_bursty_error_fails_the_mac(write_spec):
    r = run(write_spec, on_first_hop("bursty"))
    assert r["drops"]["mac_retry"] > 20
    assert r["flows"][0]["plr"] > 0.01


def test_error_on_another_link_leaves_this_one_alone(write_spec):
    r = run(write_spec, {"placement": "packet", "rate": 0.3, "links": [[1, 2]]})
    clean = run(write_spec, None)
    assert r["flows"][0]["plr"] == pytest.approx(0.3, abs=0.05)  # the flow crosses 1-2
    assert clean["flows"][0]["plr"] == 0


def test_a_number_is_frame_error_on_every_link(write_spec):
    assert run(write_spec, 0.1)["drops"]["channel_error"] > 1000
