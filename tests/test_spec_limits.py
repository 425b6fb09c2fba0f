"""Run specs that cannot break the simulator: every input below, tried as a new user
would, gives exit status 2 and exactly one line naming the key and, for a number, its
allowed range, both from `./mantra sim` and from `mantra-sim --check` (which campaigns
call directly). docs/run-spec.md, "Ranges", lists the same inputs and lines."""

import json
import subprocess

import pytest

from conftest import ROOT, mantra

BASE = {
    "duration": 100,
    "seed": 1,
    "topology": {"kind": "chain", "hops": 4},
    "flows": [{"protocol": "tfrc", "src": 0, "dst": 4}],
}
BASE_YAML = """seed: 1
topology: {kind: chain, hops: 4}
flows: [{protocol: tfrc, src: 0, dst: 4}]
"""
MANET = dict(
    BASE,
    topology={"kind": "manet", "nodes": 10, "width": 400, "height": 800},
    flows=[{"protocol": "tfrc", "src": 0, "dst": 9}],
)


# sim/src/apps/flow_kinds.cc, in order
KNOWN_KINDS = "(known: tfrc, adtfrc, latp, tfwmfc, tfrc-loss, cbr, mantra, reno, newreno, freeze-probing, vegas, tcp)"


def spec(**changes):
    out = json.loads(json.dumps(BASE))
    out.update(changes)
    return json.dumps(out)


def deep(n):
    return '{"duration": ' + "[" * n + "]" * n + "}"


# (id, spec file text, file name, --set overrides, the line of `./mantra sim`,
#  the line of `mantra-sim --check` on the same file (JSON only) or None)
CASES = [
    # The four of the issue.
    (
        "duration-1e400",
        "duration: 1e400\n" + BASE_YAML,
        "spec.yaml",
        [],
        "mantra: spec: duration: 1e400 is out of range (1 ms .. 1000000 s)",
        None,
    ),
    (
        "duration-1e400-json",
        spec(duration="1e400"),
        "spec.json",
        [],
        "mantra: spec: duration: 1e400 is out of range (1 ms .. 1000000 s)",
        "duration: 1e400 is out of range (1 ms .. 1000000 s)",
    ),
    (
        "duration-1e400-number",
        '{"duration": 1e400, "seed": 1}',
        "spec.json",
        [],
        "mantra: spec: duration: must be a finite number (1 ms .. 1000000 s)",
        "duration: 1e400 is out of range (beyond any double)",
    ),
    (
        "nodes-1e8",
        json.dumps(dict(MANET, topology=dict(MANET["topology"], nodes=100000000))),
        "spec.json",
        [],
        "mantra: spec: topology.nodes: 100000000 is out of range (2 .. 2000)",
        "topology.nodes: 100000000 is out of range (2 .. 2000)",
    ),
    (
        "rate-1e30bps",
        spec(flows=[{"protocol": "cbr", "src": 0, "dst": 4, "rate": "1e30bps"}]),
        "spec.json",
        [],
        "mantra: spec: flows[0].rate: 1e30bps is out of range (1 bps .. 10 Gbps)",
        "flows[0].rate: 1e30bps is out of range (1 bps .. 10 Gbps)",
    ),
    (
        "duration-nan",
        "duration: .nan\n" + BASE_YAML,
        "spec.yaml",
        [],
        "mantra: spec: duration: must be a finite number (1 ms .. 1000000 s)",
        None,
    ),
    (
        "nested-5000-yaml",
        "duration: " + "[" * 5000 + "]" * 5000 + "\n",
        "spec.yaml",
        [],
        "mantra: {dir}/spec.yaml: the spec nests deeper than 32 levels",
        None,
    ),
    (
        "nested-5000-json",
        deep(5000),
        "spec.json",
        [],
        "mantra: {dir}/spec.json: the spec nests deeper than 32 levels",
        "the spec nests deeper than 32 levels",
    ),
    (
        "nested-100-json",
        deep(100),
        "spec.json",
        [],
        "mantra: spec: the spec nests deeper than 32 levels",
        "the spec nests deeper than 32 levels",
    ),
    # A dozen more like them.
    ("empty-yaml", "", "spec.yaml", [], "mantra: {dir}/spec.yaml: a spec must be a mapping of keys", None),
    (
        "empty-json",
        "",
        "spec.json",
        [],
        "mantra: {dir}/spec.json:1: malformed JSON: Expecting value",
        "malformed JSON: [json.exception.parse_error.101] parse error at line 1, column 1: syntax error while parsing "
        "value - unexpected end of input; expected '[', '{', or a literal",
    ),
    (
        "list-at-top",
        "[]",
        "spec.json",
        [],
        "mantra: {dir}/spec.json: a spec must be a mapping of keys",
        "a spec must be a JSON object of keys, not array",
    ),
    (
        "huge-string",
        spec(flows=[{"protocol": "x" * 10_000_000, "src": 0, "dst": 4}]),
        "spec.json",
        [],
        "mantra: spec: flows[0].protocol: unknown protocol '" + "x" * 60 + "...' " + KNOWN_KINDS,
        "flows[0].protocol: unknown protocol '" + "x" * 60 + "...' " + KNOWN_KINDS,
    ),
    (
        "unicode-line-separator-key",
        spec(**{"dur\u2028ation": 5}),
        "spec.json",
        [],
        "mantra: spec: 'dur\\u2028ation': unknown key",
        "'dur\\u2028ation': unknown key",
    ),
    (
        "newline-key",
        spec(**{"dur\nation": 5}),
        "spec.json",
        [],
        "mantra: spec: 'dur\\nation': unknown key",
        "'dur\\nation': unknown key",
    ),
    (
        "duplicate-key-yaml",
        "duration: 10\nduration: 20\n" + BASE_YAML,
        "spec.yaml",
        [],
        "mantra: {dir}/spec.yaml:2: duration: given twice",
        None,
    ),
    (
        "duplicate-key-json",
        '{"duration": 10, "duration": 20}',
        "spec.json",
        [],
        "mantra: {dir}/spec.json: duration: given twice",
        "duration: given twice",
    ),
    (
        "negative-zero",
        spec(duration=-0.0),
        "spec.json",
        [],
        "mantra: spec: duration: -0.0 is out of range (1 ms .. 1000000 s)",
        "duration: -0.0 is out of range (1 ms .. 1000000 s)",
    ),
    (
        "inf-speed",
        "duration: 100\n"
        + BASE_YAML.replace("chain, hops: 4", "manet, nodes: 5, width: 400, height: 800")
        + "mobility: {model: rwp, speed: .inf}\n",
        "spec.yaml",
        [],
        "mantra: spec: mobility.speed: must be a finite number (0.01 .. 1000 m/s; model: static for no movement)",
        None,
    ),
    (
        "underflow",
        spec(duration="1e-400s"),
        "spec.json",
        [],
        "mantra: spec: duration: 1e-400s is out of range (1 ms .. 1000000 s)",
        "duration: 1e-400s is out of range (1 ms .. 1000000 s)",
    ),
    (
        "boolean-seed",
        spec(seed=True),
        "spec.json",
        [],
        "mantra: spec: seed: must be an integer (1 .. 9223372036854775807)",
        "seed: must be an integer (1 .. 9223372036854775807)",
    ),
    (
        "seed-beyond-int64",
        '{"duration": 10, "seed": 9223372036854775808}',
        "spec.json",
        [],
        "mantra: spec: seed: 9223372036854775808 is out of range (1 .. 9223372036854775807)",
        "seed: 9223372036854775808 is out of range (1 .. 9223372036854775807)",
    ),
    (
        "nodes-1e20-float",
        json.dumps(dict(MANET, topology=dict(MANET["topology"], nodes=1e20))),
        "spec.json",
        [],
        "mantra: spec: topology.nodes: 1e+20 is out of range (2 .. 2000)",
        "topology.nodes: 1e+20 is out of range (2 .. 2000)",
    ),
    (
        "nodes-2to32-plus-2",
        json.dumps(dict(MANET, topology=dict(MANET["topology"], nodes=2**32 + 2))),
        "spec.json",
        [],
        "mantra: spec: topology.nodes: 4294967298 is out of range (2 .. 2000)",
        "topology.nodes: 4294967298 is out of range (2 .. 2000)",
    ),
    (
        "int-5000-digits",
        '{"duration": ' + "1" * 5000 + ', "seed": 1}',
        "spec.json",
        [],
        "mantra: spec: duration: must be a finite number (1 ms .. 1000000 s)",
        "duration: " + "1" * 60 + "... is out of range (beyond any double)",
    ),
    (
        "int-5000-digits-yaml",
        "duration: " + "1" * 5000 + "\n" + BASE_YAML,
        "spec.yaml",
        [],
        "mantra: spec: duration: must be a finite number (1 ms .. 1000000 s)",
        None,
    ),
    (
        "hops-3.5",
        spec(topology={"kind": "chain", "hops": 3.5}),
        "spec.json",
        [],
        "mantra: spec: topology.hops: 3.5 is not an integer (1 .. 1999)",
        "topology.hops: 3.5 is not an integer (1 .. 1999)",
    ),
    (
        "grid-too-large",
        spec(topology={"kind": "grid", "rows": 2000, "cols": 2000}),
        "spec.json",
        [],
        "mantra: spec: topology.rows: rows x cols = 4000000 nodes, at most 2000",
        "topology.rows: rows x cols = 4000000 nodes, at most 2000",
    ),
    (
        "flows-1001",
        spec(flows=[{"protocol": "tfrc", "src": 0, "dst": 4}] * 1001),
        "spec.json",
        [],
        "mantra: spec: flows: lists 1001 flows, at most 1000",
        "flows: lists 1001 flows, at most 1000",
    ),
    (
        "series-too-long",
        spec(duration=1000000, interval="1ms"),
        "spec.json",
        [],
        "mantra: spec: interval: gives 1000000000 series samples over the flows' active times, at most 10000000 "
        "(use a longer interval)",
        "interval: gives 1000000000 series samples over the flows' active times, at most 10000000 "
        "(use a longer interval)",
    ),
    (
        "channel-error-1",
        spec(channel_error=1),
        "spec.json",
        [],
        "mantra: spec: channel_error: 1 is out of range (0 .. below 1)",
        "channel_error: 1 is out of range (0 .. below 1)",
    ),
    (
        "core-param-1e300",
        spec(flows=[{"protocol": "tfrc", "src": 0, "dst": 4, "params": {"t_mbi_s": 1e300}}]),
        "spec.json",
        [],
        "mantra: spec: flows[0].params.t_mbi_s: 1e+300 is out of range "
        "(-1e9 .. 1e9; the protocol checks its own range)",
        "flows[0].params.t_mbi_s: 1e+300 is out of range (-1e9 .. 1e9; the protocol checks its own range)",
    ),
    (
        "position-1e300",
        spec(
            topology={"kind": "positions", "positions": [[0, 0], [1e300, 0]]},
            flows=[{"protocol": "tfrc", "src": 0, "dst": 1}],
        ),
        "spec.json",
        [],
        "mantra: spec: topology.positions[1]: 1e+300 is out of range (-100000 .. 100000 m)",
        "topology.positions[1]: 1e+300 is out of range (-100000 .. 100000 m)",
    ),
    (
        "date-duration",
        "duration: 2024-01-01\n" + BASE_YAML,
        "spec.yaml",
        [],
        "mantra: spec: duration: 2024-01-01 is a date, not a number, string, boolean, list or mapping",
        None,
    ),
    (
        "yes-key",
        "duration: 10\nyes: 1\n" + BASE_YAML,
        "spec.yaml",
        [],
        "mantra: spec: key true is not a string (quote it)",
        None,
    ),
    (
        "alias-bomb",
        "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
        + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 10)}]\n" for i in range(9)),
        "spec.yaml",
        [],
        "mantra: spec: the spec holds more than 2000000 values (YAML aliases count once per use)",
        None,
    ),
    (
        "not-utf8",
        b"duration: 10\xff\n".decode("latin-1"),
        "spec.yaml",
        [],
        "mantra: {dir}/spec.yaml:1: not UTF-8 text (byte 12)",
        None,
    ),
    # --set with bad values.
    (
        "set-nan",
        spec(),
        "spec.json",
        ["duration=.nan"],
        "mantra: spec: duration: must be a finite number (1 ms .. 1000000 s)",
        None,
    ),
    (
        "set-nodes",
        json.dumps(MANET),
        "spec.json",
        ["topology.nodes=100000000"],
        "mantra: spec: topology.nodes: 100000000 is out of range (2 .. 2000)",
        None,
    ),
    (
        "set-deep",
        spec(),
        "spec.json",
        ["duration=" + "[" * 5000 + "]" * 5000],
        "mantra: --set duration: cannot parse value '" + "[" * 59 + "...",
        None,
    ),
    (
        "set-speed-zero",
        json.dumps(MANET),
        "spec.json",
        ["mobility.model=rwp", "mobility.speed=0"],
        "mantra: spec: mobility.speed: 0 is out of range (0.01 .. 1000 m/s; model: static for no movement)",
        None,
    ),
    (
        "set-negative-start",
        spec(),
        "spec.json",
        ["flows.0.start=-1"],
        "mantra: spec: flows[0].start: -1 is out of range (0 .. 1000000 s)",
        None,
    ),
]


def write(tmp_path, text, name):
    path = tmp_path / name
    if name.endswith(".yaml") and "\xff" in text:
        path.write_bytes(text.encode("latin-1"))
    else:
        path.write_text(text)
    return path


@pytest.fixture(scope="module")
def mantra_sim():
    mantra("--help")  # builds mantra-sim if needed
    return ROOT / "build" / "sim" / "mantra-sim"


def args_of(path, overrides):
    args = ["sim", str(path)]
    for o in overrides:
        args += ["--set", o]
    return args


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_mantra_sim_gives_one_line(tmp_path, mantra_sim, capsys, monkeypatch, case):
    """`mantra sim` in this process (the same main() as ./mantra, without its build check)."""
    from mantra.cli import main

    _, text, name, overrides, expected, _ = case
    monkeypatch.setenv("MANTRA_SIM", str(mantra_sim))
    assert main(args_of(write(tmp_path, text, name), overrides)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err.splitlines()) == 1, err[-2000:]
    assert err.rstrip("\n") == expected.format(dir=tmp_path)


@pytest.mark.parametrize(
    "case",
    [
        c
        for c in CASES
        if c[0] in ("duration-1e400", "nodes-1e8", "rate-1e30bps", "duration-nan", "nested-5000-yaml", "set-nan")
    ],
    ids=lambda c: c[0],
)
def test_the_mantra_script_gives_the_same_line(tmp_path, case):
    _, text, name, overrides, expected, _ = case
    proc = mantra(*args_of(write(tmp_path, text, name), overrides), check=False)
    assert (proc.returncode, proc.stderr) == (2, expected.format(dir=tmp_path) + "\n")


JSON_CASES = [c for c in CASES if c[5] is not None]


@pytest.mark.parametrize("case", JSON_CASES, ids=[c[0] for c in JSON_CASES])
def test_mantra_sim_check_gives_one_line(tmp_path, mantra_sim, case):
    _, text, name, _, _, expected = case
    path = write(tmp_path, text, name)
    proc = subprocess.run([str(mantra_sim), "--check", str(path)], capture_output=True, text=True)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert len(proc.stderr.splitlines()) == 1, proc.stderr[-2000:]
    assert proc.stderr.rstrip("\n") == f"mantra-sim: {path}: {expected}"


@pytest.mark.parametrize("case", JSON_CASES, ids=[c[0] for c in JSON_CASES])
def test_mantra_sim_check_json_gives_the_key_and_the_message_apart(tmp_path, mantra_sim, case):
    _, text, name, _, _, expected = case
    path = write(tmp_path, text, name)
    proc = subprocess.run([str(mantra_sim), "--check", "--json", str(path)], capture_output=True, text=True)
    assert (proc.returncode, proc.stderr) == (2, "")
    verdict = json.loads(proc.stdout)
    assert verdict["ok"] is False
    # The one line of plain --check is "key: message", or the message alone for the whole spec.
    assert (f"{verdict['key']}: " if verdict["key"] else "") + verdict["message"] == expected


def test_mantra_sim_check_json_takes_a_good_spec(tmp_path, mantra_sim):
    path = write(tmp_path, spec(), "spec.json")
    proc = subprocess.run([str(mantra_sim), "--check", "--json", str(path)], capture_output=True, text=True)
    assert (proc.returncode, json.loads(proc.stdout), proc.stderr) == (0, {"ok": True}, "")


def test_a_million_levels_deep_does_not_overflow_the_stack(tmp_path, mantra_sim):
    path = tmp_path / "deep.json"
    path.write_text("[" * 1_000_000 + "]" * 1_000_000)
    proc = subprocess.run([str(mantra_sim), "--check", str(path)], capture_output=True, text=True)
    assert (proc.returncode, proc.stderr) == (2, f"mantra-sim: {path}: the spec nests deeper than 32 levels\n")


def test_the_largest_allowed_values_pass_check(tmp_path, mantra_sim):
    largest = {
        "duration": "1000000s",
        "seed": 2**63 - 1,
        "interval": 1000,
        "smoothness_window": 1000,
        "channel_error": 0.999,
        "radio": {"preset": "ns2-80211b", "rx_range": 100000, "cs_range": 100000, "queue": 100000},
        "topology": {"kind": "manet", "nodes": 2000, "width": 100000, "height": 100000},
        "mobility": {"model": "rwp", "speed": [0.01, 1000], "pause": 1000000},
        "flows": [{"protocol": "cbr", "src": 0, "dst": 1999, "rate": "10Gbps", "packet_size": 1460}],
    }
    path = tmp_path / "largest.json"
    path.write_text(json.dumps(largest))
    proc = subprocess.run([str(mantra_sim), "--check", str(path)], capture_output=True, text=True)
    assert (proc.returncode, proc.stderr) == (0, "")
    from mantra.spec_check import check_spec

    check_spec(largest)  # the Python mirror agrees


NASTY = [
    float("nan"),
    float("inf"),
    -float("inf"),
    1e308,
    -0.0,
    2**64,
    -(2**63) - 1,
    10**400,
    True,
    None,
    "",
    "1e400",
    "1e30bps",
    "\u2028",
    "x" * 10000,
    [],
    {},
    [[[[]]]],
    {"a": {"b": {}}},
    3.5,
    0,
    -1,
    2000,
    2001,
]


def mutations(seed, count):
    """Specs from the examples with one to three values replaced by NASTY ones (a
    fixed seed: the same cases every run)."""
    import random

    from mantra.spec import load_spec

    rng = random.Random(seed)
    bases = [load_spec(p) for p in sorted((ROOT / "examples").glob("*.yaml"))]
    for _ in range(count):
        spec = json.loads(json.dumps(rng.choice(bases)))
        for _ in range(rng.randint(1, 3)):
            node = spec
            while True:  # walk down to a random place and replace what is there
                keys = list(node) if isinstance(node, dict) else list(range(len(node)))
                if not keys:
                    break
                key = rng.choice(keys)
                child = node[key]
                if not isinstance(child, (dict, list)) or not child or rng.random() < 0.3:
                    node[key] = rng.choice(NASTY)
                    break
                node = child
        yield spec


def test_the_python_check_raises_only_input_error_with_one_line():
    from mantra.errors import InputError
    from mantra.spec_check import check_spec

    refused = 0
    for spec in mutations(seed=12, count=3000):
        try:
            check_spec(spec)
        except InputError as e:
            refused += 1
            assert len(f"mantra: {e}".splitlines()) == 1 and str(e).startswith("spec: "), str(e)[:300]
    assert refused > 1000  # most mutations are caught here, the rest by mantra-sim


def test_mantra_sim_check_exits_0_or_2_with_one_line_on_mutated_specs(mantra_sim):
    """The simulator's own reader on the same mutations (libFuzzer's long run, sim/fuzz/,
    covers far more; this keeps the binary that campaigns call in the loop)."""
    for spec in list(mutations(seed=7, count=60)):
        try:
            text = json.dumps(spec, allow_nan=False)
        except ValueError:
            continue  # NaN and infinities: JSON cannot carry them (the Python check refuses them)
        proc = subprocess.run([str(mantra_sim), "--check", "-"], input=text, capture_output=True, text=True)
        assert proc.returncode in (0, 2), (text[:300], proc.stderr[-2000:])
        assert len(proc.stderr.splitlines()) == (proc.returncode == 2), proc.stderr[-2000:]
