#include "network/queued_for.h"

#include <ns3/abort.h>
#include <ns3/ipv4-queue-disc-item.h>
#include <ns3/queue-disc.h>
#include <ns3/traffic-control-layer.h>
#include <ns3/wifi-module.h>

#include <vector>

#include "network/flushable_queue.h"

namespace mantra::sim {

using namespace ns3;

int64_t take_queued_for(Ptr<NetDevice> device, Mac48Address next_hop, const TakenPacket& taken) {
  int64_t removed = 0;
  // The queue disc's internal queues (network/flushable_queue.h).
  Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
  Ptr<QueueDisc> disc = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr;
  for (size_t q = 0; disc && q < disc->GetNInternalQueues(); ++q) {
    auto queue = DynamicCast<FlushableQueue>(disc->GetInternalQueue(q));
    NS_ABORT_MSG_UNLESS(queue, "a queue disc without a FlushableQueue (network/queues.cc installs one in each)");
    removed += queue->remove_if(
        [&](const QueueDiscItem& item) { return Mac48Address::ConvertFrom(item.GetAddress()) == next_hop; },
        [&](const QueueDiscItem& item) {
          const auto* ip = dynamic_cast<const Ipv4QueueDiscItem*>(&item);
          taken(item.GetPacket(), ip ? &ip->GetHeader() : nullptr, false);
        });
  }
  Ptr<WifiMacQueue> mac_queue = DynamicCast<WifiNetDevice>(device)->GetMac()->GetTxop()->GetWifiMacQueue();
  std::vector<Ptr<WifiMpdu>> doomed;
  for (Ptr<WifiMpdu> m = mac_queue->PeekFirstAvailable(0); m; m = mac_queue->PeekFirstAvailable(0, m)) {
    if (m->GetHeader().GetAddr1() == next_hop && !m->IsInFlight()) doomed.push_back(m);
  }
  for (const auto& m : doomed) {
    taken(m->GetPacket(), nullptr, true);
    mac_queue->Remove(m);
  }
  return removed + static_cast<int64_t>(doomed.size());
}

}  // namespace mantra::sim
