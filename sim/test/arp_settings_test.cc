// ARP's settings (network/scenario.cc, set_arp): `arp: ns2` gives every
// ARP cache of the run ns-2's behaviour (no expiry, no dead state, 100 ms a
// request), and `arp: ns3` gives ns-3's own back even after an ns2 run was
// built in the same process (the settings are process-wide defaults).
#include <gtest/gtest.h>
#include <ns3/core-module.h>
#include <ns3/internet-module.h>

#include <string>

#include "network/scenario.h"
#include "spec/spec.h"

namespace mantra::sim {
namespace {

using namespace ns3;

struct ArpTimes {
  Time alive, dead, wait_reply;
};

ArpTimes arp_of_a_run(const std::string& arp) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "duration": 1, "seed": 1,
    "topology": {"kind": "positions", "positions": [[0, 0], [100, 0]]},
    "flows": [{"protocol": "cbr", "src": 0, "dst": 1, "rate": "1kbps"}]})");
  j["arp"] = arp;
  Scenario s;
  build_scenario(parse_spec(j), s);
  Ptr<Ipv4L3Protocol> ipv4 = s.nodes.Get(0)->GetObject<Ipv4L3Protocol>();
  Ptr<ArpCache> cache = ipv4->GetInterface(1)->GetArpCache();
  ArpTimes t{cache->GetAliveTimeout(), cache->GetDeadTimeout(), Time()};
  TimeValue wait;
  cache->GetAttribute("WaitReplyTimeout", wait);
  t.wait_reply = wait.Get();
  Simulator::Destroy();
  return t;
}

TEST(ArpSettings, Ns2sThenNs3sOwnInOneProcess) {
  const ArpTimes ns2 = arp_of_a_run("ns2");
  EXPECT_EQ(ns2.dead, Seconds(0));
  EXPECT_EQ(ns2.wait_reply, MilliSeconds(100));
  EXPECT_GT(ns2.alive, Seconds(1e6));
  const ArpTimes ns3 = arp_of_a_run("ns3");  // ns-3.44's ArpCache defaults
  EXPECT_EQ(ns3.dead, Seconds(100));
  EXPECT_EQ(ns3.wait_reply, Seconds(1));
  EXPECT_EQ(ns3.alive, Seconds(120));
}

}  // namespace
}  // namespace mantra::sim
