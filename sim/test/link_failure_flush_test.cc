// The link-failure flush (network/link_failure_flush.h) removes exactly the
// packets for the broken next hop, from both the queue disc and the Wi-Fi MAC
// queue, and keeps the others in their order. Node 0 of a three-node network
// built from a run spec queues, in one instant, packets for neighbours 1 and 2
// (the first, for node 2, is taken into the MAC queue at once); the flush for
// node 2 then runs in the same instant, before any frame is on the air.
#include <gtest/gtest.h>
#include <ns3/core-module.h>
#include <ns3/internet-module.h>
#include <ns3/traffic-control-module.h>
#include <ns3/wifi-module.h>

#include <set>
#include <vector>

#include "network/flushable_queue.h"
#include "network/scenario.h"
#include "spec/spec.h"

namespace mantra::sim {
namespace {

using namespace ns3;

struct Held {
  std::vector<uint64_t> disc, mac;  // packet uids, in queue order
};

Held held_by(Ptr<NetDevice> device) {
  Held held;
  Ptr<QueueDisc> disc = device->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(device);
  auto queue = DynamicCast<FlushableQueue>(disc->GetInternalQueue(0));
  queue->remove_if(  // a walk that removes nothing
      [&](const QueueDiscItem& item) {
        held.disc.push_back(item.GetPacket()->GetUid());
        return false;
      },
      [](const QueueDiscItem&) {});
  Ptr<WifiMacQueue> mac = DynamicCast<WifiNetDevice>(device)->GetMac()->GetTxop()->GetWifiMacQueue();
  for (Ptr<WifiMpdu> m = mac->PeekFirstAvailable(0); m; m = mac->PeekFirstAvailable(0, m))
    held.mac.push_back(m->GetPacket()->GetUid());
  return held;
}

TEST(LinkFailureFlush, RemovesExactlyThePacketsForTheBrokenNextHop) {
  const Spec spec = parse_spec(nlohmann::json::parse(R"({
    "duration": 2, "seed": 1, "routing": "aodv-ns3", "link_failure_flush": true,
    "topology": {"kind": "positions", "positions": [[0, 0], [100, 0], [0, 100]]},
    "flows": [{"protocol": "cbr", "src": 0, "dst": 1, "rate": "1kbps", "start": 1.5}]})"));
  Scenario s;
  build_scenario(spec, s);
  Ptr<Node> node = s.nodes.Get(0);
  const auto radio_of = [&](uint32_t i) {  // the radio was installed before IP added the loopback
    Ptr<NetDevice> d = s.nodes.Get(i)->GetDevice(0);
    EXPECT_TRUE(DynamicCast<WifiNetDevice>(d));
    return d;
  };
  Ptr<NetDevice> device = radio_of(0);
  const auto mac_of = [&](uint32_t i) { return Mac48Address::ConvertFrom(radio_of(i)->GetAddress()); };
  std::vector<uint32_t> next_hops = {2, 1, 2, 1, 1, 2, 2, 1};
  std::set<uint64_t> to_broken, to_kept;
  std::vector<uint64_t> kept_in_order;
  std::set<uint64_t> observed;
  s.link_failure_flush.observe([&](uint32_t at, Ptr<const Packet> p) {
    EXPECT_EQ(at, 0u);
    observed.insert(p->GetUid());
  });
  Held before, after;
  int64_t flushed = -1;
  Simulator::Schedule(Seconds(1), [&] {
    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
    for (uint32_t hop : next_hops) {
      Ptr<Packet> p = Create<Packet>(500);
      Ipv4Header h;
      h.SetSource(s.addresses[0]);
      h.SetDestination(s.addresses[hop]);
      h.SetProtocol(17);
      h.SetPayloadSize(500);
      (hop == 2 ? to_broken : to_kept).insert(p->GetUid());
      if (hop == 1) kept_in_order.push_back(p->GetUid());
      tc->Send(device, Create<Ipv4QueueDiscItem>(p, mac_of(hop), Ipv4L3Protocol::PROT_NUMBER, h));
    }
    before = held_by(device);
    flushed = s.link_failure_flush.flush(device, mac_of(2));
    after = held_by(device);
  });
  Simulator::Stop(Seconds(1.01));
  Simulator::Run();
  Simulator::Destroy();

  // Before: the first packet (for node 2) in the MAC queue, the other seven in the disc.
  ASSERT_EQ(before.mac.size(), 1u);
  EXPECT_TRUE(to_broken.count(before.mac[0]));
  EXPECT_EQ(before.disc.size(), 7u);
  // The flush took the four packets for node 2 (one from the MAC queue, three from the disc) and only those.
  EXPECT_EQ(flushed, 4);
  EXPECT_EQ(observed, to_broken);
  EXPECT_EQ(s.link_failure_flush.flushed(), 4);
  // The four for node 1 are still held, in their order (the first may have moved up into the emptied MAC queue).
  std::vector<uint64_t> left = after.mac;
  left.insert(left.end(), after.disc.begin(), after.disc.end());
  EXPECT_EQ(left, kept_in_order);
}

TEST(LinkFailureFlush, NeedsARoutingProtocolThatRepairsRoutes) {
  try {
    parse_spec(nlohmann::json::parse(R"({"duration": 2, "seed": 1, "routing": "static", "link_failure_flush": true,
      "topology": {"kind": "chain", "hops": 2}, "flows": [{"protocol": "cbr", "src": 0, "dst": 2, "rate": "1kbps"}]})"));
    FAIL() << "accepted";
  } catch (const SpecError& e) {
    EXPECT_EQ(e.key(), "link_failure_flush");
  }
}

}  // namespace
}  // namespace mantra::sim
