"""`./mantra diff`: which keys two results differ in, provenance aside, and intended differences
named with --ignore."""

from mantra.lab.diff import differences


def result(**sender: float) -> dict:
    return {
        "provenance": {"commit": "a", "wall_s": 1.0, "seed": 3},
        "flows": [{"goodput_bps": 100.0, "diagnostics": {"sender": dict(sender)}}],
    }


def test_provenance_commit_and_wall_time_never_count() -> None:
    old, new = result(rate_bps=1.0), result(rate_bps=1.0)
    new["provenance"].update(commit="b", wall_s=9.0)
    assert differences(old, new) == []
    del new["provenance"]["wall_s"]  # absent on one side: still not a difference
    assert differences(old, new) == []


def test_a_changed_number_or_a_missing_key_is_named() -> None:
    assert differences(result(rate_bps=1.0), result(rate_bps=2.0)) == ["flows.0.diagnostics.sender.rate_bps"]
    assert differences(result(rate_bps=1.0, source_dropped=0.0), result(rate_bps=1.0)) == [
        "flows.0.diagnostics.sender.source_dropped"
    ]
    assert differences(result(rate_bps=1), result(rate_bps=1.0)) == ["flows.0.diagnostics.sender.rate_bps"]


def test_an_ignored_pattern_matches_any_one_part_at_a_star() -> None:
    ignored = (("flows", "*", "diagnostics", "sender", "source_dropped"),)
    old, new = result(rate_bps=1.0, source_dropped=0.0), result(rate_bps=1.0)
    assert differences(old, new, (), ignored) == []
    # the pattern names one key, not the others beside it
    assert differences(result(rate_bps=1.0), result(rate_bps=2.0), (), ignored) == [
        "flows.0.diagnostics.sender.rate_bps"
    ]


def test_a_reading_renames_a_value_or_leaves_a_key_out_and_touches_nothing_else() -> None:
    from mantra.lab.diff import Reading

    spec = {"routing": "aodv-ns3", "link_failure_flush": True, "radio": {"preset": "ns2-80211b"}}
    Reading.parse("routing=aodv-ns3:aodv").apply(spec)
    Reading.parse("link_failure_flush=true:").apply(spec)
    Reading.parse("radio.preset=qualnet-80211b:ns2-80211b").apply(spec)  # another value: left alone
    assert spec == {"routing": "aodv", "radio": {"preset": "ns2-80211b"}}
    other = {"routing": "dsr-ns3", "link_failure_flush": False}
    Reading.parse("routing=aodv-ns3:aodv").apply(other)
    Reading.parse("link_failure_flush=true:").apply(other)
    assert other == {"routing": "dsr-ns3", "link_failure_flush": False}


def test_a_reading_reaches_into_a_list_by_index() -> None:
    from mantra.lab.diff import Reading

    spec = {"duration": 61, "flows": [{"protocol": "tfrc", "stop": 60}, {"protocol": "cbr", "stop": 60}]}
    Reading.parse("flows.0.stop=60:").apply(spec)
    Reading.parse("flows.5.stop=60:").apply(spec)  # no such flow: nothing happens
    Reading.parse("duration=61:60").apply(spec)
    assert spec == {"duration": 60, "flows": [{"protocol": "tfrc"}, {"protocol": "cbr", "stop": 60}]}


def test_a_malformed_reading_is_refused_with_its_text() -> None:
    import pytest

    from mantra.lab.diff import Reading

    for text in ("routing", "routing=aodv", "=a:b", "routing=:aodv"):
        with pytest.raises(ValueError, match="--read"):
            Reading.parse(text)
