// Run specs: units, defaults, and one clear error per kind of bad input.
#include "spec/spec.h"

#include <gtest/gtest.h>

#include <functional>

namespace mantra::sim {
namespace {

using nlohmann::json;

json base() {
  return json::parse(R"({
    "duration": 100, "seed": 3,
    "topology": {"kind": "chain", "hops": 4},
    "flows": [{"protocol": "tfrc", "src": 0, "dst": 4}]
  })");
}

std::string error_of(const json& j) {
  try {
    parse_spec(j);
  } catch (const SpecError& e) {
    return e.what();
  }
  return "";
}

TEST(Spec, ParsesUnitsAndDefaults) {
  json j = base();
  j["duration"] = "2min";
  j["flows"][0]["start"] = "200ms";
  j["flows"].push_back({{"protocol", "cbr"}, {"src", 1}, {"dst", 3}, {"rate", "180kbps"}});
  Spec s = parse_spec(j);
  EXPECT_DOUBLE_EQ(s.duration_s, 120);
  EXPECT_DOUBLE_EQ(s.flows[0].start_s, 0.2);
  EXPECT_DOUBLE_EQ(s.flows[0].stop_s, 120);
  EXPECT_EQ(s.flows[1].rate_bps, 180000);
  EXPECT_EQ(s.routing, "aodv");  // ns-2's AODV, ours
  EXPECT_EQ(s.radio.preset, "ns2-80211b");
  EXPECT_DOUBLE_EQ(s.radio.cs_range_m, 550);
  EXPECT_EQ(s.topology.node_count(), 5);
  EXPECT_EQ(parse_rate(json("2Mbps"), "r"), 2000000);
  EXPECT_DOUBLE_EQ(parse_duration(json("1.5s"), "d"), 1.5);
  EXPECT_DOUBLE_EQ(parse_duration(json("250us"), "d"), 250e-6);
  EXPECT_DOUBLE_EQ(parse_duration(json("7"), "d"), 7);
  EXPECT_EQ(parse_rate(json("1.5 Gbps"), "r"), 1500000000);
  EXPECT_EQ(parse_rate(json(64000), "r"), 64000);
}

TEST(Spec, RadioOverrides) {
  json j = base();
  j["radio"] = {{"preset", "ns2-80211b"}, {"cs_range", 500}, {"queue", 25}, {"rts", false}};
  Spec s = parse_spec(j);
  EXPECT_DOUBLE_EQ(s.radio.cs_range_m, 500);
  EXPECT_EQ(s.radio.queue.limit, 25);
  EXPECT_FALSE(s.radio.rts);
}

TEST(Spec, EachBadInputNamesItsKey) {
  struct Case {
    std::function<void(json&)> edit;
    std::string expected;
  };
  const Case cases[] = {
      {[](json& j) { j["durration"] = 5; }, "durration: unknown key"},
      {[](json& j) { j.erase("seed"); }, "seed: missing required field"},
      {[](json& j) { j["flows"][0]["start"] = -1; }, "flows[0].start: -1 is out of range (0 .. 1000000 s)"},
      {[](json& j) {
         j["flows"][0]["start"] = {{"uniform", {0, 180}}};
       },
       "flows[0].start.uniform: the latest start must be before the flow's stop"},
      {[](json& j) {
         j["flows"][0]["start"] = {{"uniform", {20, 10}}};
       },
       "flows[0].start.uniform: the latest start must be after the earliest"},
      {[](json& j) {
         j["flows"][0]["start"] = {{"uniform", {10}}};
       },
       "flows[0].start.uniform: must be [earliest, latest], two durations"},
      {[](json& j) {
         j["flows"][0]["start"] = {{"normal", {0, 10}}};
       },
       "flows[0].start.normal: unknown key"},
      {[](json& j) {
         j["flows"][0]["start"] = {{"uniform", {-1, 10}}};
       },
       "flows[0].start.uniform[0]: -1 is out of range (0 .. 1000000 s)"},
      {[](json& j) { j["flows"][0]["dst"] = 0; }, "flows[0].dst: must differ from src"},
      {[](json& j) { j["flows"][0]["dst"] = 9; }, "flows[0].dst: node 9 out of range (nodes 0..4)"},
      {[](json& j) { j["flows"][0]["protocol"] = "dccp"; }, "flows[0].protocol: unknown protocol 'dccp'"},
      {[](json& j) { j["flows"][0]["receiver"] = "newreno"; },
       "flows[0].receiver: a newreno receiver cannot serve a tfrc sender"},
      {[](json& j) { j["radio"] = "ns2-80211g"; }, "radio.preset: unknown preset 'ns2-80211g'"},
      {[](json& j) { j["topology"]["spacing"] = "far"; }, "topology.spacing: must be a number"},
      {[](json& j) {
         j["flows"][0]["params"] = {{"pakcet", 1}};
       },
       "flows[0].params: unknown parameter 'pakcet'"},
      {[](json& j) {
         j["flows"][0]["params"] = {{"packet_size", 500}};
       },
       "flows[0].params.packet_size: set by the flow's key 'packet_size', not in params"},
      {[](json& j) {
         j["flows"][0]["params"] = {{"source_rate_bps", -1}};
       },
       "flows[0].params: source_rate_bps must be between 0 (greedy) and 1e12"},
      {[](json& j) { j["flows"][0]["protocol"] = "cbr"; }, "flows[0].rate: missing required field"},
      {[](json& j) { j["flows"][0]["interval_jitter"] = 0.5; },
       "flows[0].interval_jitter: only fixed-rate flows (cbr) take an interval_jitter"},
      {[](json& j) {
         j["flows"][0] = {{"protocol", "cbr"}, {"src", 0}, {"dst", 4}, {"rate", 2048}, {"interval_jitter", 1}};
       },
       "flows[0].interval_jitter: 1 is out of range (0 .. below 1)"},
      {[](json& j) {
         j["flows"][0] = {
             {"protocol", "cbr"}, {"src", 0}, {"dst", 4}, {"rate", 2048}, {"params", {{"jitter_seed", 3}}}};
       },
       "flows[0].params.jitter_seed: set by the flow's key 'interval_jitter', not in params"},
      {[](json& j) {
         j["topology"] = {{"kind", "manet"}, {"nodes", 5}, {"width", 400}, {"height", 800}};
         j["mobility"] = {{"model", "rwp"}, {"speed", 0}};
       },
       "mobility.speed: 0 is out of range (0.01 .. 1000 m/s; model: static for no movement)"},
      {[](json& j) {
         j["topology"] = {{"kind", "manet"}, {"nodes", 5}, {"width", 400}, {"height", 800}};
         j["mobility"] = {{"model", "setdest"}, {"speed", {1, 20}}};
       },
       "mobility.speed: setdest takes one number, the maximum speed"},
      {[](json& j) {
         j["mobility"] = {{"model", "setdest"}, {"speed", 20}};
       },
       "mobility.model: random waypoint needs a manet topology (its area)"},
      {[](json& j) { j["routing"] = "olsr"; },
       "routing: unknown routing 'olsr' (known: aodv, aodv-ns3, dsr, dsr-ns3, oracle, static)"},
      {[](json& j) {
         j["routing"] = "oracle";
         j["link_failure_flush"] = true;
       },
       "link_failure_flush: needs a routing protocol that repairs routes (aodv-ns3 or dsr-ns3)"},
      {[](json& j) {
         j["routing"] = "aodv";
         j["link_failure_flush"] = true;
       },
       "link_failure_flush: our AODV drops what is queued for a broken link itself, as ns-2's did"},
      {[](json& j) {
         j["routing"] = "dsr";
         j["link_failure_flush"] = true;
       },
       "link_failure_flush: our DSR takes what is queued for a broken link and salvages it itself"},
      {[](json& j) { j["dsr_cache_replies"] = false; }, "dsr_cache_replies: is a setting of our DSR (routing: dsr)"},
      {[](json& j) { j["arp"] = "ns1"; }, "arp: unknown ARP 'ns1' (known: ns2, ns3)"},
      {[](json& j) {
         j["radio"] = {{"preset", "ns2-80211b"}, {"routing_first", 1}};
       },
       "radio.routing_first: must be true or false"},
      {[](json& j) {
         j["radio"] = {{"preset", "ns2-80211b"}, {"queue", {{"kind", "red"}}}, {"routing_first", true}};
       },
       "radio.routing_first: needs a drop-tail interface queue (ns-2's PriQueue), not RED"},
      {[](json& j) {
         j["radio"] = {{"preset", "ns2-80211b"}, {"broadcast_rate", "3Mbps"}};
       },
       "radio.broadcast_rate: must be an 802.11b DSSS rate: 1Mbps, 2Mbps, 5.5Mbps or 11Mbps"},
      {[](json& j) {
         j["routing"] = "dsr";
         j["dsr_cache_replies"] = "no";
       },
       "dsr_cache_replies: must be true or false"},
      {[](json& j) { j["flows"][0]["stop"] = 200; }, "flows[0].stop: must not be after the run's duration"},
      {[](json& j) { j["duration"] = "ten"; }, "duration: 'ten' is not a duration"},
      {[](json& j) { j["duration"] = "5hours"; }, "duration: '5hours' is not a duration"},
      {[](json& j) {
         j["flows"][0]["protocol"] = "cbr";
         j["flows"][0]["rate"] = "2Mbit";
       },
       "flows[0].rate: '2Mbit' is not a rate"},
      {[](json& j) { j["duration"] = true; }, "duration: must be a duration"},
      {[](json& j) {
         j["topology"] = {
             {"kind", "manet"}, {"nodes", 5}, {"width", 400}, {"height", 800}, {"fixed", {{0, 0}, {500, 0}}}};
       },
       "topology.fixed[1]: lies outside the width x height area (x 0 .. 400, y 0 .. 800 m)"},
  };
  for (const auto& c : cases) {
    json j = base();
    c.edit(j);
    const std::string e = error_of(j);
    EXPECT_EQ(e.substr(0, c.expected.size()), c.expected) << "got: " << e;
  }
}

// The message of the first error in `text` (read as JSON, then parsed), or "".
std::string error_of_text(const std::string& text) {
  try {
    parse_spec(read_spec_json(text));
  } catch (const SpecError& e) {
    return e.what();
  }
  return "";
}

const char* kBase =
    R"("seed": 3, "topology": {"kind": "chain", "hops": 4}, "flows": [{"protocol": "tfrc", "src": 0, "dst": 4}])";

std::string with(const std::string& fields) { return "{" + fields + ", " + kBase + "}"; }

// cbrgen.tcl's sources: each copy of a flow starts at its own time, spread
// evenly over the range on every seed, the same for the same seed, another
// for another seed.
TEST(Spec, EachCopyOfAFlowDrawsItsStartUniformlyFromTheRangeBySeed) {
  json j = base();
  j["flows"][0]["start"] = {{"uniform", {10, 60}}};
  j["flows"][0]["count"] = 1000;
  for (int seed = 1; seed <= 5; ++seed) {
    j["seed"] = seed;
    const Spec a = parse_spec(j);
    int per_tenth[10] = {};  // 100 expected in each, a standard deviation of about 9.5
    for (const FlowSpec& f : a.flows) {
      ASSERT_GE(f.start_s, 10);
      ASSERT_LT(f.start_s, 60);
      ++per_tenth[static_cast<int>((f.start_s - 10) / 5)];
    }
    for (int n : per_tenth) EXPECT_TRUE(n > 60 && n < 140) << "seed " << seed << ": " << n << " in a tenth";
    const Spec again = parse_spec(j);
    for (size_t i = 0; i < a.flows.size(); ++i) ASSERT_EQ(again.flows[i].start_s, a.flows[i].start_s);
    j["seed"] = seed + 100;
    EXPECT_NE(parse_spec(j).flows[0].start_s, a.flows[0].start_s);
  }
}

// cbrgen.tcl's CBR `random_ 1`: each copy's gaps come from its own seed, drawn
// from the run's, and reach the core with the jitter; none without it.
TEST(Spec, EachCopyOfAJitteredCbrFlowGetsItsOwnJitterSeed) {
  json j = base();
  j["flows"][0] = {{"protocol", "cbr"}, {"src", 0}, {"dst", 4}, {"rate", 2048}, {"count", 3}, {"interval_jitter", 0.5}};
  const Spec a = parse_spec(j);
  ASSERT_EQ(a.flows.size(), 3u);
  EXPECT_NE(a.flows[0].jitter_seed, a.flows[1].jitter_seed);
  EXPECT_NE(a.flows[1].jitter_seed, a.flows[2].jitter_seed);
  const mantra::Params p = a.flows[1].sender_params();
  EXPECT_DOUBLE_EQ(p.at("interval_jitter"), 0.5);
  EXPECT_EQ(p.at("jitter_seed"), static_cast<double>(a.flows[1].jitter_seed));
  EXPECT_LT(a.flows[1].jitter_seed, uint64_t{1} << 53);
  EXPECT_EQ(parse_spec(j).flows[2].jitter_seed, a.flows[2].jitter_seed);
  j["seed"] = 4;
  EXPECT_NE(parse_spec(j).flows[0].jitter_seed, a.flows[0].jitter_seed);
  j["flows"][0].erase("interval_jitter");
  EXPECT_EQ(parse_spec(j).flows[0].sender_params().count("jitter_seed"), 0u);
}

TEST(Spec, BothDsrsWithMobilityAreAllowed) {
  json j = base();
  j["topology"] = {{"kind", "manet"}, {"nodes", 5}, {"width", 400}, {"height", 800}};
  j["mobility"] = {{"model", "rwp"}, {"speed", 1}};
  for (const char* routing : {"dsr", "dsr-ns3"}) {
    j["routing"] = routing;
    EXPECT_EQ(error_of(j), "") << routing;
  }
  j["routing"] = "dsr";
  j["dsr_cache_replies"] = false;
  EXPECT_EQ(error_of(j), "");
}

// The papers' ns-2 stack is every routing's default (routing packets first,
// 2 Mb/s broadcasts, ns-2's ARP); the spec can ask for ns-3's, key by key.
TEST(Spec, EveryRoutingRunsOnNs2sStackUnlessTheSpecSays) {
  json j = base();
  j["topology"] = {{"kind", "manet"}, {"nodes", 5}, {"width", 400}, {"height", 800}};
  EXPECT_EQ(parse_spec(j).routing, "aodv");
  for (const char* routing : {"aodv", "dsr", "aodv-ns3", "dsr-ns3", "oracle"}) {
    j["routing"] = routing;
    const Spec s = parse_spec(j);
    EXPECT_TRUE(s.radio.routing_first) << routing;
    EXPECT_EQ(s.radio.broadcast_bps, 2'000'000) << routing;
    EXPECT_EQ(s.arp, "ns2") << routing;
  }
  j["routing"] = "aodv-ns3";
  j["radio"] = {{"preset", "ns2-80211b"}, {"routing_first", false}, {"broadcast_rate", "1Mbps"}};
  j["arp"] = "ns3";
  const Spec ns3 = parse_spec(j);
  EXPECT_FALSE(ns3.radio.routing_first);
  EXPECT_EQ(ns3.radio.broadcast_bps, 1'000'000);
  EXPECT_EQ(ns3.arp, "ns3");
  j["radio"] = {{"preset", "ns2-80211b"}, {"queue", {{"kind", "red"}}}};  // ns-2's PriQueue was drop-tail
  EXPECT_FALSE(parse_spec(j).radio.routing_first);
}

// Inputs that once aborted, hung or misreported, and a dozen more like them: each
// gives exactly this one line (docs/run-spec.md, "Ranges").
TEST(Spec, BreakersGiveOneLineNamingTheKeyAndRange) {
  const std::pair<std::string, std::string> cases[] = {
      {with(R"("duration": "1e400")"), "duration: 1e400 is out of range (1 ms .. 1000000 s)"},
      {with(R"("duration": 1e400)"), "duration: 1e400 is out of range (beyond any double)"},
      {with(R"("duration": 1e-400)"), "duration: 0.0 is out of range (1 ms .. 1000000 s)"},
      {with(R"("duration": "1e-400s")"), "duration: 1e-400s is out of range (1 ms .. 1000000 s)"},
      {with(R"("duration": -0.0)"), "duration: -0.0 is out of range (1 ms .. 1000000 s)"},
      {with(R"("duration": true)"), "duration: must be a duration (e.g. 200ms, 1.5s, 3) (1 ms .. 1000000 s)"},
      {with(R"("duration": 10, "duration": 20)"), "duration: given twice"},
      {R"({"duration": 100, "seed": 1, "topology": {"kind": "manet", "nodes": 100000000, "width": 10, "height": 10}})",
       "topology.nodes: 100000000 is out of range (2 .. 2000)"},
      {R"({"duration": 100, "seed": 1, "topology": {"kind": "manet", "nodes": 1e20, "width": 10, "height": 10}})",
       "topology.nodes: 1e+20 is out of range (2 .. 2000)"},
      {R"({"duration": 100, "seed": 1, "topology": {"kind": "manet", "nodes": 4294967298, "width": 10, "height": 10}})",
       "topology.nodes: 4294967298 is out of range (2 .. 2000)"},
      {R"({"duration": 100, "seed": 1, "topology": {"kind": "chain", "hops": 3.5}})",
       "topology.hops: 3.5 is not an integer (1 .. 1999)"},
      {R"({"duration": 100, "seed": 1, "topology": {"kind": "grid", "rows": 2000, "cols": 2000}})",
       "topology.rows: rows x cols = 4000000 nodes, at most 2000"},
      {R"({"duration": 100, "seed": 18446744073709551616, "topology": {"kind": "chain", "hops": 4}})",
       "seed: 1.8446744073709552e+19 is out of range (1 .. 9223372036854775807)"},
      {R"({"duration": 100, "seed": 9223372036854775808, "topology": {"kind": "chain", "hops": 4}})",
       "seed: 9223372036854775808 is out of range (1 .. 9223372036854775807)"},
      {R"({"duration": 100, "seed": 1, "channel_error": 1, "topology": {"kind": "chain", "hops": 4}})",
       "channel_error: 1 is out of range (0 .. below 1)"},
      {R"({"duration": 100, "seed": 1, "topology": {"kind": "chain", "hops": 4},
           "flows": [{"protocol": "cbr", "src": 0, "dst": 4, "rate": "1e30bps"}]})",
       "flows[0].rate: 1e30bps is out of range (1 bps .. 10 Gbps)"},
      {R"({"duration": 100, "seed": 1, "topology": {"kind": "chain", "hops": 4},
           "flows": [{"protocol": "tfrc", "src": 0, "dst": 4, "params": {"t_mbi_s": 1e300}}]})",
       "flows[0].params.t_mbi_s: 1e+300 is out of range (-1e9 .. 1e9; the protocol checks its own range)"},
      {R"({"duration": 100, "seed": 1, "topology": {"kind": "positions", "positions": [[0, 0], [1e300, 0]]}})",
       "topology.positions[1]: 1e+300 is out of range (-100000 .. 100000 m)"},
      {R"({"duration": 1000000, "interval": "1ms", "seed": 1, "topology": {"kind": "chain", "hops": 4},
           "flows": [{"protocol": "tfrc", "src": 0, "dst": 4}]})",
       "interval: gives 1000000000 series samples over the flows' active times, at most 10000000 (use a longer "
       "interval)"},
      {"[]", "a spec must be a JSON object of keys, not array"},
      {"",
       "malformed JSON: [json.exception.parse_error.101] parse error at line 1, column 1: syntax error while parsing "
       "value"},
      {with("\"a\\u2028b\": 1"), "'a\\u2028b': unknown key"},
      {with("\"a\\nb\": 1"), "'a\\nb': unknown key"},
      {std::string(5000, '[') + std::string(5000, ']'), "the spec nests deeper than 32 levels"},
      // The number is cut short, not the range.
      {"{\"duration\": " + std::string(5000, '1') + "}",
       "duration: " + std::string(60, '1') + "... is out of range (beyond any double)"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string e = error_of_text(text);
    EXPECT_EQ(e.substr(0, expected.size()), expected) << "input: " << text.substr(0, 200);
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(Spec, AMillionLevelsDeepIsRefusedWithoutRecursing) {
  std::string deep;
  for (int i = 0; i < 1000000; ++i) deep += "{\"a\":";
  deep += "1" + std::string(1000000, '}');
  EXPECT_EQ(error_of_text(deep), "the spec nests deeper than 32 levels");
}

// A flow's video (docs/run-spec.md, "media"): two rungs of 6 frames at 12
// frames/s, two GOPs of 3, the second frame of each an enhancement frame.
json media() {
  json frames = json::array();
  for (int d = 0; d < 6; ++d) frames.push_back({d % 3 == 0 ? 3000 : 800, d % 3 == 1 ? 1 : 0, d / 12.0, d / 12.0});
  json doubled = frames;
  for (auto& f : doubled) f[0] = f[0].get<int>() * 2;
  return {{"mode", "ladder"},
          {"fps", 12},
          {"playout_delay", "500ms"},
          {"packetization", "frames"},
          {"gop_starts", {0, 3}},
          {"representations",
           {{{"rate_bps", 200000}, {"frames", frames}}, {{"rate_bps", "400kbps"}, {"frames", doubled}}}}};
}

// The same video in slices: each frame's datagrams, a frame of 3000 bytes in
// datagrams of 900, 900, 900 and 300 (6000: twice as many).
void in_slices(json& m) {
  m["packetization"] = "slices";
  for (auto& rep : m["representations"]) {
    for (auto& f : rep["frames"]) {
      const int bytes = f[0].get<int>();
      json datagrams = json::array();
      for (int left = bytes; left > 0; left -= 900) datagrams.push_back(std::min(left, 900));
      f.push_back(datagrams);
    }
  }
}

json with_media(const std::function<void(json&)>& edit = {}) {
  json j = base();
  j["flows"][0]["start"] = 2;
  j["flows"][0]["media"] = media();
  if (edit) edit(j["flows"][0]["media"]);
  return j;
}

TEST(SpecMedia, ParsesTheTraceAndLetsTheAppOfferThePackets) {
  const Spec s = parse_spec(with_media());
  ASSERT_TRUE(s.flows[0].media);
  const MediaSpec& m = *s.flows[0].media;
  EXPECT_EQ(m.mode, MediaMode::kLadder);
  EXPECT_DOUBLE_EQ(m.fps, 12);
  EXPECT_DOUBLE_EQ(m.playout_delay_s, 0.5);
  EXPECT_DOUBLE_EQ(m.start_s, 2);  // the flow's start by default
  EXPECT_EQ(m.frames_per_loop(), 6);
  EXPECT_EQ(m.representations[1].rate_bps, 400000);
  EXPECT_EQ(m.representations[1].frames[0].bytes, 6000);
  EXPECT_EQ(m.representations[0].frames[1].layer, 1);
  EXPECT_EQ(s.flows[0].sender_params().at("source_offered"), 1);
  EXPECT_EQ(parse_spec(base()).flows[0].sender_params().count("source_offered"), 0u);
  // Every transport carries it: TCP kinds and their sinks, cbr at its rate.
  for (const char* kind : {"newreno", "reno", "freeze-probing", "vegas", "latp", "tfwmfc", "tfrc-loss", "adtfrc"}) {
    json j = with_media();
    j["flows"][0]["protocol"] = kind;
    EXPECT_EQ(error_of(j), "") << kind;
  }
  json j = with_media([](json& m) {
    m["mode"] = "layered";
    m["start"] = 30;
  });
  j["flows"][0]["protocol"] = "newreno";
  j["flows"][0]["receiver"] = "rsc-var";
  EXPECT_EQ(parse_spec(j).flows[0].media->start_s, 30);
  j = with_media();
  j["flows"][0]["protocol"] = "cbr";
  j["flows"][0]["rate"] = "300kbps";
  EXPECT_EQ(error_of(j), "");
  EXPECT_FALSE(parse_spec(with_media()).flows[0].media->slices);
  const Spec sliced = parse_spec(with_media(in_slices));
  EXPECT_TRUE(sliced.flows[0].media->slices);
  EXPECT_EQ(sliced.flows[0].media->representations[1].frames[0].datagram_bytes,
            (std::vector<int64_t>{900, 900, 900, 900, 900, 900, 600}));
  EXPECT_EQ(sliced.flows[0].media->largest_datagram_bytes(), 900);
  j = with_media([](json& m) { m["tcp_rate"] = "window"; });
  j["flows"][0]["protocol"] = "newreno";
  EXPECT_EQ(parse_spec(j).flows[0].media->tcp_rate, TcpVideoRateRule::kWindow);
  j["flows"][0]["media"].erase("tcp_rate");
  EXPECT_EQ(parse_spec(j).flows[0].media->tcp_rate, TcpVideoRateRule::kDelivery);
}

TEST(SpecMedia, EachBadTraceNamesItsKey) {
  struct Case {
    std::function<void(json&)> edit;
    std::string expected;
  };
  const std::string m = "flows[0].media";
  const std::string r0 = m + ".representations[0]";
  const std::string r1 = m + ".representations[1]";
  const Case cases[] = {
      {[](json& v) { v["codec"] = "h264"; }, m + ".codec: unknown key"},
      {[](json& v) { v.erase("fps"); }, m + ".fps: missing required field"},
      {[](json& v) { v["mode"] = "svc"; }, m + ".mode: unknown mode 'svc' (known: ladder, layered)"},
      {[](json& v) { v["fps"] = 0; }, m + ".fps: 0 is out of range (above 0 .. 1000 frames/s)"},
      {[](json& v) { v["fps"] = -25; }, m + ".fps: -25 is out of range (above 0 .. 1000 frames/s)"},
      {[](json& v) { v["fps"] = "25"; }, m + ".fps: must be a number (above 0 .. 1000 frames/s)"},
      {[](json& v) { v["playout_delay"] = 0; }, m + ".playout_delay: 0 is out of range (above 0 .. 1000000 s)"},
      {[](json& v) { v["start"] = 1; }, m + ".start: must not be before the flow's start (2 s)"},
      {[](json& v) { v["start"] = 100; }, m + ".start: must be before the flow's stop (100 s)"},
      {[](json& v) { v["representations"] = json::array(); },
       m + ".representations: must list at least one representation {rate_bps, frames}"},
      {[](json& v) { v["representations"][1]["rate_bps"] = 200000; },
       r1 + ".rate_bps: 200000 bps is not above representations[0]'s 200000 bps (rungs in ascending rate)"},
      {[](json& v) { v["representations"][0]["rate_bps"] = -5; },
       r0 + ".rate_bps: -5 is out of range (1 bps .. 10 Gbps)"},
      {[](json& v) { v["representations"][0]["fps"] = 25; }, r0 + ".fps: unknown key"},
      {[](json& v) { v["representations"][1].erase("frames"); }, r1 + ".frames: missing required field"},
      {[](json& v) { v["representations"][1]["frames"].erase(5); },
       r1 + ".frames: lists 5 frames, representations[0] 6 (every rung has the same frames)"},
      {[](json& v) { v["representations"][0]["frames"][4][0] = -800; },
       r0 + ".frames[4]: -800 is out of range (frame bytes 1 .. 10000000)"},
      {[](json& v) { v["representations"][0]["frames"][4][0] = 0; },
       r0 + ".frames[4]: 0 is out of range (frame bytes 1 .. 10000000)"},
      {[](json& v) { v["representations"][0]["frames"][4][0] = 800.5; },
       r0 + ".frames[4]: 800.5 is not an integer (frame bytes 1 .. 10000000)"},
      {[](json& v) { v["representations"][0]["frames"][4][1] = 2; },
       r0 + ".frames[4]: 2 is out of range (layer 0 base or 1 enhancement)"},
      {[](json& v) { v["representations"][0]["frames"][4][2] = -0.5; },
       r0 + ".frames[4]: -0.5 is out of range (capture_s 0 .. 1000000 s)"},
      {[](json& v) { v["representations"][0]["frames"][4][3] = -1; },
       r0 + ".frames[4]: -1 is out of range (due_s 0 .. 1000000 s)"},
      {[](json& v) {
         v["representations"][0]["frames"][4] = {800, 0, 0.3};
       },
       r0 + ".frames[4]: must be [bytes, layer, capture_s, due_s]"},
      {[](json& v) { v["representations"][0]["frames"][4][2] = 0.1; },
       r0 + ".frames[4]: capture_s 0.1 s is before the previous frame's 0.25 s (decode order: captures never go back)"},
      {[](json& v) { v["representations"][1]["frames"][5][2] = 0.5; },
       r1 + ".frames[5]: capture_s 0.5 s differs from representations[0]'s 0.4166666666666667 s (one video: the "
            "same captures at every rung)"},
      {[](json& v) {
         v["gop_starts"] = {1, 3};
       },
       m + ".gop_starts[0]: must be 0 (the first frame opens the first GOP)"},
      {[](json& v) {
         v["gop_starts"] = {0, 3, 3};
       },
       m + ".gop_starts[2]: 3 is not above the previous GOP's start 3 (GOPs in decode order)"},
      {[](json& v) {
         v["gop_starts"] = {0, 6};
       },
       m + ".gop_starts[1]: 6 is out of range (0 .. 5, the frames of a loop)"},
      {[](json& v) { v["gop_starts"] = json::array(); }, m + ".gop_starts: must list each GOP's first frame, from 0"},
      {[](json& v) { v.erase("packetization"); }, m + ".packetization: missing required field"},
      {[](json& v) { v["tcp_rate"] = "window"; }, m + ".tcp_rate: only tcp flows take a tcp_rate"},
      {[](json& v) { v["tcp_rate"] = "cwnd"; }, m + ".tcp_rate: unknown rule 'cwnd' (known: delivery, window)"},
      {[](json& v) { v["packetization"] = "nal"; },
       m + ".packetization: unknown packetization 'nal' (known: slices, frames)"},
      {[](json& v) { v["representations"][0]["frames"][4].push_back({800}); },
       r0 + ".frames[4]: must be [bytes, layer, capture_s, due_s]"},
      {[](json& v) {
         in_slices(v);
         v["representations"][0]["frames"][4].erase(4);
       },
       r0 + ".frames[4]: must be [bytes, layer, capture_s, due_s, [datagram bytes, ...]]"},
      {[](json& v) {
         in_slices(v);
         v["representations"][0]["frames"][4][4] = {500, 200};
       },
       r0 + ".frames[4][4]: holds 700 bytes, the frame 800 (its datagrams carry the whole frame)"},
      {[](json& v) {
         in_slices(v);
         v["representations"][0]["frames"][4][4] = {800, 0};
       },
       r0 + ".frames[4][4][1]: 0 is out of range (frame bytes 1 .. 10000000)"},
      {[](json& v) {
         in_slices(v);
         v["representations"][0]["frames"][4][4] = json::array();
       },
       r0 + ".frames[4][4]: must list the video bytes of each of the frame's datagrams"},
      {[](json& v) {
         in_slices(v);
         v["representations"][1]["frames"][0][4] = {5000, 1000};
       },
       "flows[0].packet_size: leaves 980 bytes for video after the protocol's 20-byte header; the video's slices "
       "come in datagrams of up to 5000"},
      {[](json& v) {
         v["mode"] = "layered";
         v["representations"][1]["frames"][3][1] = 1;
         v["representations"][1]["frames"][5][1] = 1;
       },
       m + ".gop_starts[1]: the GOP of frames 3 .. 5 has no base-layer (layer 0) frame at representations[1] "
           "(layered mode always sends a GOP's base)"},
  };
  for (const auto& c : cases) {
    const std::string e = error_of(with_media(c.edit));
    EXPECT_EQ(e, c.expected);
  }
  // Layered mode counts layers; a ladder sends every frame of its rung, whatever its layer.
  EXPECT_EQ(error_of(with_media([](json& v) {
              v["representations"][1]["frames"][3][1] = 1;
              v["representations"][1]["frames"][5][1] = 1;
            })),
            "");
  json j = with_media();
  j["flows"][0]["params"] = {{"source_offered", 1}};
  EXPECT_EQ(error_of(j), "flows[0].params.source_offered: set by the flow's key 'media', not in params");
  j = with_media();
  j["flows"][0]["params"] = {{"source_rate_bps", 8000}};
  EXPECT_EQ(error_of(j), "flows[0].params: source_offered takes no source_rate_bps: the application sets the pace");
  j = with_media();
  j["flows"][0]["media"] = "video.json";
  EXPECT_EQ(error_of(j), "flows[0].media: must be an object");
  // The frames the flows capture are bounded: each is a record and a line of the result.
  j = with_media([](json& v) { v["fps"] = 1000; });
  j["duration"] = 20000;
  EXPECT_EQ(error_of(j), "flows[0].media: gives about 19998006 frames over the flows' active times, at most 10000000");
}

TEST(Spec, LongListsAndStringsAreCutShort) {
  json j = base();
  j["flows"] = json::array();
  for (int i = 0; i < 1001; ++i) j["flows"].push_back({{"protocol", "tfrc"}, {"src", 0}, {"dst", 4}});
  EXPECT_EQ(error_of(j), "flows: lists 1001 flows, at most 1000");
  j = base();
  j["flows"][0]["protocol"] = std::string(10'000'000, 'x');
  const std::string e = error_of(j);
  EXPECT_EQ(e.substr(0, 40), "flows[0].protocol: unknown protocol 'xxx");
  EXPECT_LT(e.size(), 400u);  // the name cut short; the message also lists every known flow kind
  // A byte that is not UTF-8 and a C1 control (U+0085, a line break to some readers) are escaped.
  EXPECT_EQ(std::string(SpecError("k\xff",
                                  "a\xc2\x85"
                                  "b")
                            .what()),
            "k\\xff: a\\u0085b");
}

TEST(Spec, LargestAllowedValuesPass) {
  const std::string spec =
      R"({"duration": "1000000s", "seed": 9223372036854775807, "interval": 1000, "smoothness_window": 1000,
    "channel_error": 0.999, "radio": {"preset": "ns2-80211b", "rx_range": 100000, "cs_range": 100000, "queue": 100000},
    "topology": {"kind": "manet", "nodes": 2000, "width": 100000, "height": 100000},
    "mobility": {"model": "rwp", "speed": [0.01, 1000], "pause": 1000000},
    "flows": [{"protocol": "cbr", "src": 0, "dst": 1999, "rate": "10Gbps", "packet_size": 1460}]})";
  EXPECT_EQ(error_of_text(spec), "");
  const Spec s = parse_spec(read_spec_json(spec));
  EXPECT_EQ(s.seed, 9223372036854775807ull);
  EXPECT_EQ(s.flows[0].rate_bps, 10'000'000'000);
  EXPECT_EQ(s.topology.node_count(), 2000);
}

}  // namespace
}  // namespace mantra::sim

namespace mantra::sim {
namespace {

nlohmann::json dumbbell() {
  return nlohmann::json::parse(R"({
    "duration": 50, "seed": 1,
    "topology": {"kind": "dumbbell", "bandwidth": "32Mbps", "delay": "20ms", "queue": {"kind": "red", "max_p": 0.1}},
    "flows": [{"protocol": "newreno", "ecn": true, "count": 3, "max_window": 500},
              {"protocol": "tfwmfc", "group": "lossy", "access_loss": 0.1}]
  })");
}

TEST(SpecDumbbell, EachFlowGetsItsOwnHostPairAndCountRepeatsAFlow) {
  const Spec s = parse_spec(dumbbell());
  ASSERT_EQ(s.flows.size(), 4u);
  EXPECT_EQ(s.topology.pairs, 4);
  EXPECT_EQ(s.topology.node_count(), 10);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(s.flows[static_cast<size_t>(i)].src, 2 + i);
    EXPECT_EQ(s.flows[static_cast<size_t>(i)].dst, 6 + i);
  }
  EXPECT_TRUE(s.flows[0].ecn);
  EXPECT_EQ(s.flows[0].group, "newreno");  // the protocol, unless named
  EXPECT_EQ(s.flows[3].group, "lossy");
  EXPECT_DOUBLE_EQ(s.flows[3].access_loss, 0.1);
  EXPECT_TRUE(s.topology.queue.red);
  EXPECT_DOUBLE_EQ(s.topology.queue.max_p, 0.1);
  EXPECT_EQ(s.topology.access_bandwidth_bps, 320000000);  // 10x the bottleneck unless given
}

TEST(SpecDumbbell, BadQueuesAndFlowKeysNameTheirKey) {
  const auto error = [](const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json j = dumbbell();
    edit(j);
    try {
      parse_spec(j);
    } catch (const SpecError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error([](auto& j) { j["topology"]["queue"]["kind"] = "codel"; }),
            "topology.queue.kind: unknown queue kind 'codel' (known: droptail, red)");
  EXPECT_EQ(error([](auto& j) {
              j["topology"]["queue"] = {{"kind", "droptail"}, {"max_p", 0.5}};
            }),
            "topology.queue.max_p: only a red queue takes max_p");
  EXPECT_EQ(error([](auto& j) { j["topology"]["queue"]["max_p"] = 0; }),
            "topology.queue.max_p: 0 is out of range (above 0 .. 1)");
  EXPECT_EQ(error([](auto& j) {
              j["topology"]["queue"].update({{"min_th", 20}, {"max_th", 10}});
            }),
            "topology.queue.max_th: must be above min_th");
  EXPECT_EQ(error([](auto& j) { j["flows"][0]["src"] = 0; }),
            "flows[0].src: a dumbbell gives each flow its own hosts: no src or dst");
  EXPECT_EQ(error([](auto& j) { j["flows"][1]["ecn"] = true; }),
            "flows[1].ecn: only tcp flows take ecn (a core protocol asks for ECT itself)");
  EXPECT_EQ(error([](auto& j) { j["flows"][0]["count"] = 0; }), "flows[0].count: 0 is out of range (1 .. 1000)");
  EXPECT_EQ(error([](auto& j) { j["flows"][0]["count"] = 999; }),
            "flows: a dumbbell of 1000 flows needs 2002 nodes, at most 2000 (999 flows)");
  EXPECT_EQ(error([](auto& j) { j["flows"][1]["group"] = "a b"; }),
            "flows[1].group: must be a name of letters, digits, '-' and '_' (at most 64)");
  nlohmann::json chain = nlohmann::json::parse(R"({"duration": 10, "seed": 1,
    "topology": {"kind": "chain", "hops": 2}, "radio": {"preset": "ns2-80211b", "queue": {"kind": "red"}},
    "flows": [{"protocol": "latp", "src": 0, "dst": 2, "access_loss": 0.1}]})");
  try {
    parse_spec(chain);
    ADD_FAILURE();
  } catch (const SpecError& e) {
    EXPECT_STREQ(e.what(), "flows[0].access_loss: only dumbbell flows take an access_loss");
  }
  chain["flows"][0].erase("access_loss");
  try {
    parse_spec(chain);
    ADD_FAILURE();
  } catch (const SpecError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("radio.queue: latp's node agents need drop-tail", 0), 0u);
  }
}

}  // namespace
}  // namespace mantra::sim
