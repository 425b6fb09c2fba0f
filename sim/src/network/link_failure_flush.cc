#include "network/link_failure_flush.h"

#include <ns3/abort.h>
#include <ns3/queue-disc.h>
#include <ns3/simulator.h>
#include <ns3/traffic-control-layer.h>
#include <ns3/wifi-module.h>

#include "network/flushable_queue.h"

namespace mantra::sim {

using namespace ns3;

void LinkFailureFlush::install(const NetDeviceContainer& devices) {
  for (uint32_t i = 0; i < devices.GetN(); ++i) {
    Ptr<NetDevice> device = devices.Get(i);
    DynamicCast<WifiNetDevice>(device)->GetMac()->TraceConnectWithoutContext(
        "DroppedMpdu",
        MakeBoundCallback(
            +[](LinkFailureFlush* self, Ptr<NetDevice> dev, WifiMacDropReason reason, Ptr<const WifiMpdu> mpdu) {
              if (reason != WIFI_MAC_DROP_REACHED_RETRY_LIMIT) return;
              // After the MAC has finished with the failed frame.
              Simulator::ScheduleNow(&LinkFailureFlush::flush, self, dev, mpdu->GetHeader().GetAddr1());
            },
            this, device));
  }
}

int64_t LinkFailureFlush::flush(Ptr<NetDevice> device, Mac48Address next_hop) {
  const uint32_t node = device->GetNode()->GetId();
  int64_t removed_now = 0;
  // The queue disc's internal queues (network/flushable_queue.h).
  Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
  Ptr<QueueDisc> disc = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr;
  for (size_t q = 0; disc && q < disc->GetNInternalQueues(); ++q) {
    auto queue = DynamicCast<FlushableQueue>(disc->GetInternalQueue(q));
    NS_ABORT_MSG_UNLESS(queue, "a queue disc without a FlushableQueue (network/queues.cc installs one in each)");
    removed_now += queue->remove_if(
        [&](const QueueDiscItem& item) { return Mac48Address::ConvertFrom(item.GetAddress()) == next_hop; },
        [&](const QueueDiscItem& item) { removed(node, item.GetPacket()); });
  }
  // The MAC queue: every frame to the broken neighbour but one already on
  // the air (a new attempt started); that one fails or succeeds by itself.
  Ptr<WifiMacQueue> mac_queue = DynamicCast<WifiNetDevice>(device)->GetMac()->GetTxop()->GetWifiMacQueue();
  std::vector<Ptr<WifiMpdu>> doomed;
  for (Ptr<WifiMpdu> m = mac_queue->PeekFirstAvailable(0); m; m = mac_queue->PeekFirstAvailable(0, m)) {
    if (m->GetHeader().GetAddr1() == next_hop && !m->IsInFlight()) doomed.push_back(m);
  }
  for (const auto& m : doomed) {
    removed(node, m->GetPacket());
    mac_queue->Remove(m);
  }
  return removed_now + static_cast<int64_t>(doomed.size());
}

void LinkFailureFlush::removed(uint32_t node, Ptr<const Packet> packet) {
  ++flushed_;
  for (const auto& observer : observers_) observer(node, packet);
}

}  // namespace mantra::sim
