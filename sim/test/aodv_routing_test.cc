// Our AODV in ns-3's stack (sim/src/aodv/aodv_routing.h): the agent driven by
// real sockets, IP, the ns-2 radio, its queue and the MAC's failures.
#include "aodv/aodv_routing.h"

#include <gtest/gtest.h>
#include <ns3/core-module.h>
#include <ns3/internet-module.h>
#include <ns3/mobility-module.h>
#include <ns3/network-module.h>

#include "network/queues.h"
#include "network/radio.h"
#include "network/random_streams.h"
#include "network/routing_packets.h"

namespace mantra::sim::aodv {
namespace {

using namespace ns3;

struct Net {
  NodeContainer nodes;
  NetDeviceContainer devices;
  std::vector<std::unique_ptr<AodvNode>> aodv;
  int received = 0;
};

// Nodes at `positions` with the ns-2 radio, its 50-packet queue (AODV's packets first) and our AODV.
void build(Net& net, const std::vector<Vector>& positions, uint32_t seed) {
  streams::seed_run(seed);
  net.nodes.Create(positions.size());
  auto at = CreateObject<ListPositionAllocator>();
  for (const Vector& v : positions) at->Add(v);
  MobilityHelper mobility;
  mobility.SetPositionAllocator(at);
  mobility.Install(net.nodes);
  net.devices = install_radio(RadioSpec{}, ChannelErrorSpec{}, nullptr, net.nodes, 0);
  InternetStackHelper internet;
  internet.SetRoutingHelper(AodvRoutingHelper());
  internet.Install(net.nodes);
  install_queue(net.devices, QueueSpec{}, 2e6, 0, 50, "mantra::PriQueueDisc", RoutingPackets::kAodv);
  Ipv4AddressHelper ip;
  ip.SetBase("10.0.0.0", "255.255.255.0");
  ip.Assign(net.devices);
  net.aodv = install_aodv(net.nodes, net.devices, 100);
}

// 512-byte UDP packets from node `from` to node `to`, every 50 ms from `start_s` to `stop_s`.
void flow(Net& net, uint32_t from, uint32_t to, double start_s, double stop_s) {
  Ptr<Socket> sink = Socket::CreateSocket(net.nodes.Get(to), UdpSocketFactory::GetTypeId());
  sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
  sink->SetRecvCallback([&net](Ptr<Socket> s) {
    while (s->Recv()) ++net.received;
  });
  Ptr<Socket> source = Socket::CreateSocket(net.nodes.Get(from), UdpSocketFactory::GetTypeId());
  const Ipv4Address dst = net.nodes.Get(to)->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
  source->Connect(InetSocketAddress(dst, 9));
  for (double t = start_s; t < stop_s - 1e-9; t += 0.05) {
    Simulator::Schedule(Seconds(t), [source] { source->Send(Create<Packet>(512)); });
  }
}

Address address_of(Net& net, uint32_t node) { return net.aodv[node]->agent().self(); }

class AodvRouting : public testing::TestWithParam<uint32_t> {};  // the run's seed

TEST_P(AodvRouting, ASourcesPacketsWaitForTheDiscoveryThenCrossThreeHops) {
  Net net;
  build(net, {{0, 0, 0}, {200, 0, 0}, {400, 0, 0}, {600, 0, 0}}, GetParam());
  flow(net, 0, 3, 1.0, 2.0);  // 20 packets
  Simulator::Stop(Seconds(4));
  Simulator::Run();
  EXPECT_EQ(net.received, 20);
  const Route* route = net.aodv[0]->agent().table().find(address_of(net, 3));
  ASSERT_NE(route, nullptr);
  EXPECT_TRUE(route->up());
  EXPECT_EQ(route->hops, 3);
  EXPECT_EQ(route->next_hop, address_of(net, 1));
  EXPECT_EQ(net.aodv[0]->agent().counters().requests_sent, 1);
  Simulator::Destroy();
}

TEST_P(AodvRouting, ALinkTheMacGivesUpOnIsReportedAndTheFlowMovesToAnotherPath) {
  Net net;
  // 0-1-2-3 on a line; node 4 far away until it takes node 2's place beside the line.
  build(net, {{0, 0, 0}, {200, 0, 0}, {400, 0, 0}, {600, 0, 0}, {400, 3000, 0}}, GetParam());
  flow(net, 0, 3, 1.0, 6.0);  // 100 packets
  Simulator::Schedule(Seconds(3.0), [&net] {
    net.nodes.Get(2)->GetObject<MobilityModel>()->SetPosition({400, 3000, 0});
    net.nodes.Get(4)->GetObject<MobilityModel>()->SetPosition({400, 100, 0});
  });
  Simulator::Stop(Seconds(8));
  Simulator::Run();
  // Node 1 found the link to 2 broken from the MAC's retry limit, and told node 0.
  EXPECT_GE(net.aodv[1]->agent().counters().errors_sent, 1);
  const Route* route = net.aodv[0]->agent().table().find(address_of(net, 3));
  ASSERT_NE(route, nullptr);
  EXPECT_TRUE(route->up());
  const Route* at_1 = net.aodv[1]->agent().table().find(address_of(net, 3));
  ASSERT_NE(at_1, nullptr);
  EXPECT_EQ(at_1->next_hop, address_of(net, 4));
  EXPECT_GE(net.received, 90);  // a few lost at the break, none after it
  Simulator::Destroy();
}

INSTANTIATE_TEST_SUITE_P(Seeds, AodvRouting, testing::Values(1u, 2u, 3u, 4u, 5u));

}  // namespace
}  // namespace mantra::sim::aodv
