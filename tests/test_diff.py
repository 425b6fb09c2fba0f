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
