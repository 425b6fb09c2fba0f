// The radio's interface queue as ns-2's PriQueue (network/pri_queue_disc.h):
// a routing packet overtakes the data queued before it, and on a full queue
// pushes out the packet at the tail, which counts as an overflow; with
// routing_first off it waits at the tail like any packet. Node 0 of a
// two-node network built from a run spec under our DSR queues, in one
// instant, 50 UDP data packets (the first goes into the one-packet MAC queue
// at once, 49 wait in the disc), then a DSR route request, then one more data
// packet and one more request.
#include <gtest/gtest.h>
#include <ns3/core-module.h>
#include <ns3/internet-module.h>
#include <ns3/traffic-control-module.h>
#include <ns3/wifi-module.h>

#include <vector>

#include "network/flushable_queue.h"
#include "network/scenario.h"
#include "spec/spec.h"

namespace mantra::sim {
namespace {

using namespace ns3;

constexpr uint8_t kUdp = 17, kDsr = 48, kNoNextHeader = 59;

struct Queued {
  std::vector<uint64_t> disc;  // packet uids, head first
  int64_t overflows = 0;
};

Queued run(bool routing_first, std::vector<uint64_t>& requests, std::vector<uint64_t>& data) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "duration": 2, "seed": 1, "routing": "dsr",
    "topology": {"kind": "positions", "positions": [[0, 0], [100, 0]]},
    "flows": [{"protocol": "cbr", "src": 0, "dst": 1, "rate": "1kbps", "start": 1.5}]})");
  j["radio"] = {{"preset", "ns2-80211b"}, {"routing_first", routing_first}};
  const Spec spec = parse_spec(j);
  Scenario s;
  build_scenario(spec, s);
  Ptr<NetDevice> device = s.nodes.Get(0)->GetDevice(0);
  Ptr<TrafficControlLayer> tc = s.nodes.Get(0)->GetObject<TrafficControlLayer>();
  const Mac48Address next_hop = Mac48Address::ConvertFrom(s.nodes.Get(1)->GetDevice(0)->GetAddress());
  const auto send = [&](uint8_t protocol, std::vector<uint64_t>& uids) {
    Ptr<Packet> p;
    if (protocol == kDsr) {
      const uint8_t dsr_head[4] = {kNoNextHeader, 0, 0, 8};
      p = Create<Packet>(dsr_head, sizeof dsr_head);
    } else {
      p = Create<Packet>(500);
    }
    Ipv4Header h;
    h.SetSource(s.addresses[0]);
    h.SetDestination(s.addresses[1]);
    h.SetProtocol(protocol);
    h.SetPayloadSize(p->GetSize());
    uids.push_back(p->GetUid());
    tc->Send(device, Create<Ipv4QueueDiscItem>(p, next_hop, Ipv4L3Protocol::PROT_NUMBER, h));
  };
  Queued q;
  Simulator::Schedule(Seconds(1), [&] {
    for (int i = 0; i < 50; ++i) send(kUdp, data);
    send(kDsr, requests);
    send(kUdp, data);
    send(kDsr, requests);
    Ptr<QueueDisc> disc = tc->GetRootQueueDiscOnDevice(device);
    DynamicCast<FlushableQueue>(disc->GetInternalQueue(0))
        ->remove_if(
            [&](const QueueDiscItem& item) {
              q.disc.push_back(item.GetPacket()->GetUid());
              return false;
            },
            [](const QueueDiscItem&) {});
  });
  Simulator::Stop(Seconds(1.001));
  Simulator::Run();
  Simulator::Destroy();
  q.overflows = s.drops.ifq_per_node[0];
  return q;
}

TEST(PriQueueDisc, ARouteRequestOvertakesTheDataQueuedBeforeIt) {
  std::vector<uint64_t> requests, data;
  const Queued q = run(true, requests, data);
  // The disc holds 50: the second request, the first, then data 2..49 (data 1 went to the MAC;
  // the 51st data packet met a full queue; the second request pushed out data 50).
  ASSERT_EQ(q.disc.size(), 50u);
  EXPECT_EQ(q.disc[0], requests[1]);
  EXPECT_EQ(q.disc[1], requests[0]);
  const std::vector<uint64_t> waiting(data.begin() + 1, data.begin() + 49);
  EXPECT_EQ(std::vector<uint64_t>(q.disc.begin() + 2, q.disc.end()), waiting);
  EXPECT_EQ(q.overflows, 2);
}

TEST(PriQueueDisc, WithoutRoutingFirstARequestWaitsAtTheTail) {
  std::vector<uint64_t> requests, data;
  const Queued q = run(false, requests, data);
  // data 2..50 fill 49 places, the first request the 50th; the rest met a full queue.
  ASSERT_EQ(q.disc.size(), 50u);
  const std::vector<uint64_t> waiting(data.begin() + 1, data.begin() + 50);
  EXPECT_EQ(std::vector<uint64_t>(q.disc.begin(), q.disc.end() - 1), waiting);
  EXPECT_EQ(q.disc.back(), requests[0]);
  EXPECT_EQ(q.overflows, 2);
}

}  // namespace
}  // namespace mantra::sim
