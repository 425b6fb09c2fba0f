// The oracle's route table (network/oracle_routes.h): the next hop is on a
// shortest path of the unit-disk graph of the true positions, read again once
// per 100 ms, kept while it stays on one, and absent when the graph has no
// path. Nodes: 0 at (0, 0), 1 at (200, 0), 2 at (400, 0), 3 at (200, 100);
// with the 250 m range, 0 reaches 2 through 1 or 3 (two hops either way).
#include "network/oracle_routes.h"

#include <gtest/gtest.h>
#include <ns3/core-module.h>
#include <ns3/mobility-module.h>

#include <optional>

#include "network/scenario.h"
#include "spec/spec.h"

namespace mantra::sim {
namespace {

using namespace ns3;

void move(Scenario& s, uint32_t node, double x, double y) {
  s.nodes.Get(node)->GetObject<MobilityModel>()->SetPosition(Vector(x, y, 0));
}

// Runs `check` at `at_ms` of simulated time.
template <typename F>
void at(int64_t at_ms, F check) {
  Simulator::Schedule(MilliSeconds(at_ms) - Simulator::Now(), check);
}

TEST(OracleRoutes, NextHopFollowsTheTruePositionsOncePerRefreshAndStaysWhileOnAShortestPath) {
  const Spec spec = parse_spec(nlohmann::json::parse(R"({
    "duration": 2, "seed": 1, "routing": "oracle",
    "topology": {"kind": "positions", "positions": [[0, 0], [200, 0], [400, 0], [200, 100]]},
    "flows": [{"protocol": "cbr", "src": 0, "dst": 2, "rate": "1kbps", "start": 1.5}]})"));
  Scenario s;
  build_scenario(spec, s);
  OracleRoutes routes(s, spec.radio.rx_range_m);
  std::optional<uint32_t> seen[6];
  at(0, [&] {
    seen[0] = routes.next_hop(0, 2);  // 1 and 3 both on a shortest path: the lower index
    move(s, 1, 200, 1000);            // 1 leaves ...
    seen[1] = routes.next_hop(0, 2);  // ... but the graph is read once per 100 ms
  });
  at(100, [&] {
    seen[2] = routes.next_hop(0, 2);  // the next read: through 3
    move(s, 1, 200, 0);               // 1 comes back, as short as 3
  });
  at(200, [&] {
    seen[3] = routes.next_hop(0, 2);  // 3 is kept: still on a shortest path
    move(s, 3, 200, 1000);
    move(s, 1, 200, 1000);
  });
  at(300, [&] {
    seen[4] = routes.next_hop(0, 2);  // no path
    seen[5] = routes.next_hop(0, 0);  // to itself: no next hop
  });
  Simulator::Run();
  Simulator::Destroy();
  EXPECT_EQ(seen[0], 1u);
  EXPECT_EQ(seen[1], 1u);
  EXPECT_EQ(seen[2], 3u);
  EXPECT_EQ(seen[3], 3u);
  EXPECT_EQ(seen[4], std::nullopt);
  EXPECT_EQ(seen[5], std::nullopt);
  EXPECT_EQ(routes.node_of(s.addresses[2]), 2u);
  EXPECT_EQ(routes.node_of(Ipv4Address("192.168.7.7")), std::nullopt);
}

}  // namespace
}  // namespace mantra::sim
