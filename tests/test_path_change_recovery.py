"""The recovery time after a path change (`path_change_recovery`, docs/result-schema.md;
sim/src/measurement/path_change_recovery.h) on a real run: two relays between nodes 0 and 3,
the oracle's shortest path through relay 1 (the lower index) until relay 1 walks away at 20 s;
then through relay 2. A CBR flow loses at most what relay 1 held: its rate is back at once."""

from conftest import sim


def test_a_switch_to_another_relay_is_one_change_recovered_at_once(write_spec):
    spec = {
        "duration": 40,
        "seed": 1,
        "routing": "oracle",
        "topology": {"kind": "chain", "hops": 3, "spacing": 200},
        "mobility": {
            "model": "waypoints",
            "waypoints": {
                "1": [[0, 200, 0], [20, 200, 0], [20.01, 200, 400]],
                "2": [[0, 200, 100]],
                "3": [[0, 400, 0]],
            },
        },
        "flows": [{"protocol": "cbr", "src": 0, "dst": 3, "start": 1, "rate": "200kbps", "packet_size": 1000}],
    }
    flow = sim(write_spec(spec))["flows"][0]
    assert flow["path_changes"] == 1
    recovery = flow["path_change_recovery"]
    assert recovery["changes"] == 1 and recovery["unrecovered"] == 0
    assert recovery["median_s"] < 0.5
    assert recovery["within_2s_share"] == 1
