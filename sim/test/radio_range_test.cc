// The ns2-80211b preset decodes within 250 m and senses within 550 m, as
// ns-2's CMU radio: a sender broadcasts; a node at distance d counts frames
// it decoded and the time its PHY saw the medium busy (CCA_BUSY).
#include <gtest/gtest.h>
#include <ns3/wifi-module.h>

#include "spec/spec.h"
#include "two_node_net.h"

namespace mantra::sim {
namespace {

using nlohmann::json;

struct Heard {
  int decoded = 0;
  double busy_s = 0;
};

Heard listen_at(double distance_m, const RadioSpec& radio = RadioSpec{}) {  // default: ns2-80211b
  using namespace ns3;
  TwoNodeNet net = two_node_net(distance_m, radio);
  NetDeviceContainer& devices = net.devices;
  NodeContainer& nodes = net.nodes;

  Heard heard;
  auto phy = DynamicCast<WifiNetDevice>(devices.Get(1))->GetPhy();
  phy->TraceConnectWithoutContext("PhyRxEnd", MakeBoundCallback(
                                                  +[](Heard* h, Ptr<const Packet>) { ++h->decoded; }, &heard));
  phy->GetState()->TraceConnectWithoutContext("State",
                                              MakeBoundCallback(
                                                  +[](Heard* h, Time, Time duration, WifiPhyState state) {
                                                    if (state == WifiPhyState::CCA_BUSY || state == WifiPhyState::RX)
                                                      h->busy_s += duration.GetSeconds();
                                                  },
                                                  &heard));

  auto socket = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
  socket->SetAllowBroadcast(true);
  socket->Connect(InetSocketAddress(Ipv4Address("255.255.255.255"), 9));
  for (int i = 0; i < 10; ++i) {
    Simulator::Schedule(MilliSeconds(100 + 50 * i), [socket] { socket->Send(Create<Packet>(500)); });
  }
  Simulator::Stop(Seconds(1.5));
  Simulator::Run();
  Simulator::Destroy();
  return heard;
}

TEST(Ns2Radio80211b, ThresholdsAreNs2s) {
  // ns-2's RXThresh_ and CSThresh_ for 250 m and 550 m.
  EXPECT_NEAR(preset_rx_power_dbm(250), 10 * std::log10(3.652e-10 * 1000), 0.01);
  EXPECT_NEAR(preset_rx_power_dbm(550), 10 * std::log10(1.559e-11 * 1000), 0.01);
}

TEST(Ns2Radio80211b, ReceivesAt249mNotAt251m) {
  EXPECT_EQ(listen_at(249).decoded, 10);
  EXPECT_EQ(listen_at(251).decoded, 0);
}

TEST(Ns2Radio80211b, SensesAt549mNotAt551m) {
  const Heard near = listen_at(549);
  EXPECT_EQ(near.decoded, 0);
  // Ten 528-byte broadcast frames at 2 Mb/s (the papers' broadcast rate) hold the medium ~2.2 ms each.
  EXPECT_GT(near.busy_s, 0.02);
  EXPECT_DOUBLE_EQ(listen_at(551).busy_s, 0.0);
}

// The RSC-VAR paper's QualNet 802.11b: the same radio with the thresholds
// at about 340 m (reception) and 540 m (carrier sense), as the spec reads the
// preset name.
TEST(QualnetRadio80211b, ReceivesWithin340mAndSensesWithin540m) {
  const Spec spec = parse_spec(json::parse(R"({"duration": 1, "seed": 1, "radio": "qualnet-80211b",
      "topology": {"kind": "chain", "hops": 1}, "flows": [{"protocol": "cbr", "rate": 1000, "src": 0, "dst": 1}]})"));
  EXPECT_DOUBLE_EQ(spec.radio.rx_range_m, 340);
  EXPECT_DOUBLE_EQ(spec.radio.cs_range_m, 540);
  EXPECT_EQ(listen_at(339, spec.radio).decoded, 10);
  const Heard beyond = listen_at(341, spec.radio);
  EXPECT_EQ(beyond.decoded, 0);
  EXPECT_GT(beyond.busy_s, 0.02);
  EXPECT_GT(listen_at(539, spec.radio).busy_s, 0.02);
  EXPECT_DOUBLE_EQ(listen_at(541, spec.radio).busy_s, 0.0);
}

}  // namespace
}  // namespace mantra::sim
