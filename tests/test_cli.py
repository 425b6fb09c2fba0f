"""The `mantra sim` command: overrides, output, determinism and bad input."""

import json

from conftest import mantra, sim

CHAIN = {
    "duration": 20,
    "seed": 1,
    "topology": {"kind": "chain", "hops": 2, "spacing": 200},
    "flows": [{"protocol": "cbr", "src": 0, "dst": 2, "start": 1, "rate": "100kbps"}],
}


def test_overrides_reach_the_simulation(write_spec):
    r = sim(write_spec(CHAIN), "flows.0.rate=200kbps", "seed=4")
    assert r["spec"]["flows"][0]["rate"] == "200kbps"
    assert r["provenance"]["seed"] == 4
    # 200 kb/s of CBR over two uncongested hops arrives nearly whole.
    assert 180 < r["flows"][0]["throughput_kbps"] <= 201


def test_same_spec_and_seed_same_result(write_spec):
    path = write_spec(dict(CHAIN, flows=[{"protocol": "tfrc", "src": 0, "dst": 2, "start": 1}]))
    a, b = sim(path), sim(path)
    for r in (a, b):
        r["provenance"].pop("wall_s")
    assert a == b
    c = sim(path, "seed=2")
    c["provenance"].pop("wall_s")
    assert c["flows"][0]["series"] != a["flows"][0]["series"]


def test_result_has_provenance_and_metrics(write_spec):
    r = sim(write_spec(CHAIN))
    p = r["provenance"]
    assert p["ns3_version"] == "3.44" and len(p["commit"]) >= 40 and p["events"] > 0
    f = r["flows"][0]
    for key in ("sent", "received", "throughput_kbps", "delay_ms", "jitter_ms", "plr", "smoothness", "series"):
        assert key in f
    assert len(f["series"]["t"]) == 19  # 1-s intervals over the active 19 s
    assert len(r["queue_drops"]) == 3


def test_table_and_out_file(write_spec, tmp_path):
    out = tmp_path / "result.json"
    proc = mantra("sim", write_spec(CHAIN), "--out", str(out))
    assert "cbr" in proc.stdout and "0->2" in proc.stdout
    assert json.loads(out.read_text())["flows"][0]["protocol"] == "cbr"


def test_yaml_spec(write_spec):
    text = """
duration: 10
seed: 1
topology: {kind: chain, hops: 1}
flows:
  - {protocol: cbr, src: 0, dst: 1, rate: 50kbps}
"""
    r = sim(write_spec(text, "spec.yaml"))
    assert r["flows"][0]["received"] > 0


def bad(write_spec, spec, *overrides, name="spec.json"):
    args = ["sim", write_spec(spec, name)]
    for o in overrides:
        args += ["--set", o]
    proc = mantra(*args, check=False)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


def test_bad_input_exits_2_with_one_line_naming_the_key(write_spec):
    assert "durration: unknown key" in bad(write_spec, dict(CHAIN, durration=3))
    assert "seed: missing required field" in bad(write_spec, {k: v for k, v in CHAIN.items() if k != "seed"})
    assert "flows[0].start: -1 is out of range (0 .. 1000000 s)" in bad(write_spec, CHAIN, "flows.0.start=-1")
    assert "flows[0].dst: must differ from src" in bad(write_spec, CHAIN, "flows.0.dst=0")
    assert "flows[0].dst: node 7 out of range" in bad(write_spec, CHAIN, "flows.0.dst=7")
    assert "flows[0].protocol: unknown protocol 'quic'" in bad(write_spec, CHAIN, "flows.0.protocol=quic")
    assert "radio.preset: unknown preset 'ns2-80211g'" in bad(write_spec, CHAIN, "radio=ns2-80211g")
    assert "malformed YAML" in bad(write_spec, "duration: [1,\nseed: 2\n", name="spec.yaml")
    assert "malformed JSON" in bad(write_spec, '{"duration": }')
    assert "--set flows.5.rate" in bad(write_spec, CHAIN, "flows.5.rate=1")
