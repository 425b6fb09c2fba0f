// Scripted mobility (docs/run-spec.md, "mobility"): an ns-2 movement file
// imported and replayed through ns-3's Ns2MobilityHelper, and waypoint lists,
// each checked against the positions the script gives at chosen times.
#include <gtest/gtest.h>
#include <ns3/core-module.h>
#include <ns3/mobility-module.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "network/scenario.h"
#include "spec/spec.h"

namespace mantra::sim {
namespace {

using ns3::Seconds;
using ns3::Vector;

// Node positions sampled at `times_s` of a run of `spec_text`.
std::vector<std::vector<Vector>> positions_at(const std::string& spec_text, const std::vector<double>& times_s) {
  const Spec spec = parse_spec(read_spec_json(spec_text));
  Scenario s;
  build_scenario(spec, s);
  std::vector<std::vector<Vector>> out(times_s.size());
  for (size_t k = 0; k < times_s.size(); ++k) {
    ns3::Simulator::Schedule(Seconds(times_s[k]), [&s, &out, k] {
      for (uint32_t i = 0; i < s.nodes.GetN(); ++i) {
        out[k].push_back(s.nodes.Get(i)->GetObject<ns3::MobilityModel>()->GetPosition());
      }
    });
  }
  ns3::Simulator::Stop(Seconds(times_s.back() + 1));
  ns3::Simulator::Run();
  ns3::Simulator::Destroy();
  return out;
}

void expect_at(const Vector& got, double x, double y) {
  EXPECT_NEAR(got.x, x, 1e-6);
  EXPECT_NEAR(got.y, y, 1e-6);
}

std::string chain_spec(const std::string& mobility) {
  return R"({"duration": 60, "seed": 1, "topology": {"kind": "chain", "hops": 2, "spacing": 200}, "mobility": )" +
         mobility + R"(, "flows": [{"protocol": "cbr", "src": 0, "dst": 2, "rate": "10kbps"}]})";
}

TEST(ScriptedMobility, Ns2MovementFileIsReplayed) {
  const std::string path = ::testing::TempDir() + "/scripted_mobility_test.ns_movements";
  {
    std::ofstream f(path);
    f << "# setdest-style scenario\n"
         "$node_(0) set X_ 10.0\n$node_(0) set Y_ 20.0\n$node_(0) set Z_ 0.0\n"
         "$node_(2) set X_ 400.0\n$node_(2) set Y_ 0.0\n$node_(2) set Z_ 0.0\n"
         "$god_ set-dist 0 2 2\n"
         "$ns_ at 5.0 \"$node_(0) setdest 110.0 20.0 10.0\"\n"     // 100 m at 10 m/s: 5 s .. 15 s
         "$ns_ at 20.0 \"$node_(2) setdest 400.0 300.0 30.0\"\n";  // 300 m at 30 m/s: 20 s .. 30 s
  }
  const auto p = positions_at(chain_spec(R"({"model": "ns2", "file": ")" + path + R"("})"), {1, 10, 16, 25, 40});
  expect_at(p[0][0], 10, 20);   // set X_ / Y_
  expect_at(p[1][0], 60, 20);   // halfway along its first leg
  expect_at(p[2][0], 110, 20);  // arrived, standing
  expect_at(p[3][2], 400, 150);
  expect_at(p[4][2], 400, 300);
  for (const auto& at : p) expect_at(at[1], 200, 0);  // not in the file: the chain's place
  std::remove(path.c_str());
}

TEST(ScriptedMobility, WaypointsAreWalkedInStraightLegs) {
  const auto p = positions_at(
      chain_spec(
          R"({"model": "waypoints", "waypoints": {"1": [[10, 200, 0], [12, 200, 300], [18, 200, 300], [20, 200, 0]]}})"),
      {5, 11, 15, 19, 30});
  expect_at(p[0][1], 200, 0);  // before the first waypoint: standing on it
  expect_at(p[1][1], 200, 150);
  expect_at(p[2][1], 200, 300);
  expect_at(p[3][1], 200, 150);
  expect_at(p[4][1], 200, 0);  // after the last: standing on it
  expect_at(p[4][0], 0, 0);
  expect_at(p[4][2], 400, 0);
}

TEST(ScriptedMobility, BadMovementFilesAreRefusedWithTheLine) {
  const std::string path = ::testing::TempDir() + "/bad.ns_movements";
  const auto error_of = [&](const std::string& text) -> std::string {
    std::ofstream(path) << text;
    try {
      parse_spec(read_spec_json(chain_spec(R"({"model": "ns2", "file": ")" + path + R"("})")));
    } catch (const SpecError& e) {
      return e.key() + ": " + e.message();
    }
    return "";
  };
  EXPECT_EQ(error_of("$node_(0) set X_ 1\n$node_(7) set X_ 1\n"),
            "mobility.file: line 2: node 7 is not in the network (nodes 0..2)");
  EXPECT_EQ(error_of("$node_(0) set W_ 1\n"), "mobility.file: line 1: expected X_, Y_ or Z_ after set");
  EXPECT_EQ(error_of("$ns_ at -1 \"$node_(0) setdest 1 2 3\"\n"),
            "mobility.file: line 1: the time must be a number >= 0");
  EXPECT_EQ(error_of("hello world\n"), "mobility.file: line 1: not an ns-2 movement line: 'hello world'");
  EXPECT_EQ(error_of("# nothing\n"), "mobility.file: moves no node");
  std::remove(path.c_str());
  try {
    parse_spec(read_spec_json(chain_spec(R"({"model": "ns2", "file": "/nonexistent/x"})")));
    ADD_FAILURE() << "a missing file was accepted";
  } catch (const SpecError& e) {
    EXPECT_EQ(e.message(), "'/nonexistent/x' is not a readable file");
  }
}

}  // namespace
}  // namespace mantra::sim
