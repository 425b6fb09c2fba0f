"""Dotted-key overrides, without running a simulation."""

import pytest

from mantra.errors import InputError
from mantra.spec import apply_override, parse_override


def apply(spec, text):
    apply_override(spec, *parse_override(text))
    return spec


def test_values_are_typed_and_sections_created():
    spec = {"seed": 1, "flows": [{"protocol": "cbr"}]}
    assert apply(spec, "seed=3")["seed"] == 3
    assert apply(spec, "flows.0.rate=200kbps")["flows"][0]["rate"] == "200kbps"
    assert apply(spec, "mobility.speed=[1, 20]")["mobility"] == {"speed": [1, 20]}
    assert apply(spec, "radio.rts=false")["radio"] == {"rts": False}


def test_radio_preset_name_becomes_an_object():
    spec = {"radio": "ns2-80211b"}
    assert apply(spec, "radio.queue=25")["radio"] == {"preset": "ns2-80211b", "queue": 25}
    assert apply({"radio": "ns2-80211b"}, "radio=other")["radio"] == "other"


def test_star_sets_every_item_of_a_list():
    spec = {"flows": [{"protocol": "cbr"}, {"protocol": "tfrc", "params": {"a": 1}}]}
    assert [f["protocol"] for f in apply(spec, "flows.*.protocol=latp")["flows"]] == ["latp", "latp"]
    assert apply(spec, "flows.*.start=5")["flows"][1] == {"protocol": "latp", "params": {"a": 1}, "start": 5}


@pytest.mark.parametrize(
    "text, message",
    [
        ("flows.3.rate=1", "flows.3 is not an index"),
        ("seed.*.x=1", "seed is not a list"),
        ("*.x=1", r"\* must follow a list"),
        ("flows.x.rate=1", "flows.x is not an index"),
        ("seed.value=1", "seed is a value, not a section"),
        ("novalue", "expected key=value"),
    ],
)
def test_bad_overrides_name_the_key(text, message):
    spec = {"seed": 1, "flows": [{"protocol": "cbr"}]}
    with pytest.raises(InputError, match=message):
        apply(spec, text)
