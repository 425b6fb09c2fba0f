// Run specs: units, defaults, and one clear error per kind of bad input.
#include <gtest/gtest.h>

#include <functional>

#include "spec.h"

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
  EXPECT_EQ(s.routing, "aodv");
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
  EXPECT_EQ(s.radio.queue_packets, 25);
  EXPECT_FALSE(s.radio.rts);
}

TEST(Spec, EachBadInputNamesItsKey) {
  struct Case { std::function<void(json&)> edit; std::string expected; };
  const Case cases[] = {
      {[](json& j) { j["durration"] = 5; }, "durration: unknown key"},
      {[](json& j) { j.erase("seed"); }, "seed: missing required field"},
      {[](json& j) { j["flows"][0]["start"] = -1; }, "flows[0].start: must not be negative"},
      {[](json& j) { j["flows"][0]["dst"] = 0; }, "flows[0].dst: must differ from src"},
      {[](json& j) { j["flows"][0]["dst"] = 9; }, "flows[0].dst: node 9 out of range (nodes 0..4)"},
      {[](json& j) { j["flows"][0]["protocol"] = "vegas"; }, "flows[0].protocol: unknown protocol 'vegas'"},
      {[](json& j) { j["radio"] = "ns2-80211g"; }, "radio.preset: unknown preset 'ns2-80211g'"},
      {[](json& j) { j["topology"]["spacing"] = "far"; }, "topology.spacing: must be a number"},
      {[](json& j) { j["flows"][0]["params"] = {{"pakcet", 1}}; }, "flows[0].params: unknown parameter 'pakcet'"},
      {[](json& j) { j["flows"][0]["protocol"] = "cbr"; }, "flows[0].rate: missing required field"},
      {[](json& j) { j["mobility"] = {{"model", "rwp"}, {"speed", 0}}; }, "mobility.speed: must be above 0"},
      {[](json& j) { j["flows"][0]["stop"] = 200; }, "flows[0].stop: must not be after the run's duration"},
      {[](json& j) { j["duration"] = "ten"; }, "duration: 'ten' is not a duration"},
      {[](json& j) { j["duration"] = "5hours"; }, "duration: '5hours' is not a duration"},
      {[](json& j) { j["flows"][0]["protocol"] = "cbr"; j["flows"][0]["rate"] = "2Mbit"; },
       "flows[0].rate: '2Mbit' is not a rate"},
      {[](json& j) { j["duration"] = true; }, "duration: must be a duration"},
      {[](json& j) {
         j["topology"] = {{"kind", "manet"}, {"nodes", 5}, {"width", 400}, {"height", 800}};
         j["mobility"] = {{"model", "rwp"}, {"speed", 1}};
         j["routing"] = "dsr";
       },
       "routing: dsr cannot run with moving nodes"},
      {[](json& j) {
         j["topology"] = {{"kind", "manet"}, {"nodes", 5}, {"width", 400}, {"height", 800}, {"fixed", {{0, 0}, {500, 0}}}};
       },
       "topology.fixed[1]: lies outside the width x height area"},
  };
  for (const auto& c : cases) {
    json j = base();
    c.edit(j);
    const std::string e = error_of(j);
    EXPECT_EQ(e.substr(0, c.expected.size()), c.expected) << "got: " << e;
  }
}

}  // namespace
}  // namespace mantra::sim
