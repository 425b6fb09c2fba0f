"""mantra-emu: real programs in network namespaces across a simulated 802.11 chain, in real time.

The tests that make namespaces and TAPs need root; without it they skip with one line (run them
with `sudo .venv/bin/python -m pytest tests/test_emu.py`). Each real-time run lasts its spec's
duration in wall time (a few seconds)."""

import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EMU = ROOT / "build" / "emu" / "mantra-emu"
UDP = ROOT / "build" / "udp" / "mantra-udp"
TRAILER_BYTES = 9  # mantra-udp's session trailer (docs/udp.md)


def _emulation_missing() -> str:
    """Why this machine cannot make namespaces and TAPs ("" if it can)."""
    if os.geteuid() != 0:
        return "mantra-emu needs root (namespaces, TAPs): sudo .venv/bin/python -m pytest tests/test_emu.py"
    try:
        os.close(os.open("/dev/net/tun", os.O_RDWR))
    except OSError as e:
        return f"mantra-emu needs /dev/net/tun: {e.strerror}"
    probe = f"mtprobe{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"mantra-emu needs network namespaces: ip netns add: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], check=True)
    return ""


MISSING = _emulation_missing()
needs_root = pytest.mark.skipif(bool(MISSING), reason=MISSING)


def chain(hops, protocol="tfrc", duration=6):
    return {
        "duration": duration,
        "seed": 1,
        "radio": {"preset": "ns2-80211b"},
        "routing": "aodv",
        "topology": {"kind": "chain", "hops": hops, "spacing": 200},
        "flows": [{"protocol": protocol, "src": 0, "dst": hops, "packet_size": 1000}],
    }


def names():
    """Namespace names of this test process: no clash with another run's."""
    return f"mt{os.getpid()}a", f"mt{os.getpid()}b"


def emu(tmp_path, spec, hops, *command, extra=()):
    spec_path = tmp_path / "spec.json"
    spec_path.write_text(json.dumps(spec))
    a, b = names()
    args = [str(EMU), str(spec_path), "--endpoint", f"0={a}", "--endpoint", f"{hops}={b}", "--real-flow", "0"]
    args += ["--out", str(tmp_path / "emu.json"), *extra, "--", *command]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=spec["duration"] + 60)
    return proc, json.loads((tmp_path / "emu.json").read_text())


def namespaces():
    return subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout


@needs_root
@pytest.mark.parametrize("hops", [2, 4])
def test_ping_crosses_the_chain_hop_by_hop_and_the_namespace_answers(tmp_path, hops):
    spec = chain(hops)
    # Simulated cross traffic between the same two nodes: its packets stay with the nodes' own sockets.
    spec["flows"].append({"protocol": "cbr", "src": 0, "dst": hops, "rate": 16000, "packet_size": 200, "start": 1})
    proc, result = emu(tmp_path, spec, hops, "ping", "-c", "5", "-i", "0.3", f"10.0.0.{hops + 1}")
    assert proc.returncode == 0, proc.stderr
    ttls = {int(t) for t in re.findall(r"ttl=(\d+)", proc.stdout)}
    # The echo reply left namespace b at TTL 64 and crossed hops - 1 forwarding nodes.
    assert ttls == {64 - (hops - 1)}
    em = result["emulation"]
    assert em["repeatable"] is False and result["provenance"]["realtime"] is True
    sender, receiver = em["endpoints"]
    # Namespace b answered the requests itself: the node passed them on (and nothing of the
    # simulated flow), and took back the replies. (A request the radio lost in the cross traffic
    # would leave fewer than 5.)
    replies = len(re.findall(r"ttl=", proc.stdout))
    assert 4 <= replies <= receiver["to_namespace"] == receiver["from_namespace"] <= 5
    assert sender["arp_replies"] >= 1 and sender["dropped"]["foreign_source"] == 0
    assert em["command"]["exit_status"] == 0 and em["lag_ms"]["samples"] > 0
    assert result["flows"][0] == {"real": True, "src": 0, "dst": hops, "port": 5000}
    cross = result["flows"][1]
    assert cross["received"] > 0.9 * cross["sent"] > 0  # the simulated flow kept its packets
    a, b = names()
    assert a not in namespaces() and b not in namespaces()  # made for the run, gone with it


@needs_root
def test_real_latp_packets_are_stamped_by_the_agents_and_accepted_by_the_kernel(tmp_path):
    """The relays rewrite R in each real LATP packet: the UDP checksum must follow, or the
    receiving kernel drops every packet."""
    hops = 3
    receiver = tmp_path / "recv.json"
    script = (
        f"ip netns exec {names()[1]} {UDP} recv --bind 10.0.0.4:5000 --result {receiver} --wait 10 --quiet & "
        f"sleep 0.3; {UDP} send 10.0.0.4:5000 --protocol latp --set packet_size={1000 - TRAILER_BYTES} "
        "--duration 4 --quiet; wait"
    )
    proc, result = emu(tmp_path, chain(hops, "latp", duration=7), hops, "sh", "-c", script)
    assert proc.returncode == 0, proc.stderr
    flow = json.loads(receiver.read_text())["flows"][0]
    assert flow["received"] > 50 and flow["received"] >= 0.95 * flow["sent"]
    relays = result["latp_agents"][1:hops]
    assert all(agent["latp_stamped"] > 50 for agent in relays)


def test_bad_endpoint_is_one_line_and_exit_2(tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(chain(4)))
    proc = subprocess.run([str(EMU), "--check", str(spec), "--endpoint", "9=x"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr == "mantra-emu: --endpoint 9=x: the spec has 5 nodes (0-4)\n"


@needs_root
def test_without_root_it_says_what_is_missing():
    with tempfile.TemporaryDirectory() as folder:  # pytest's own is root's alone
        spec = Path(folder) / "spec.json"
        spec.write_text(json.dumps(chain(4)))
        Path(folder).chmod(0o755)
        spec.chmod(0o644)
        nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        proc = subprocess.run([*nobody, str(EMU), str(spec), "--endpoint", "0=x"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr == "mantra-emu: needs root (network namespaces and TAP devices); run it with sudo\n"
