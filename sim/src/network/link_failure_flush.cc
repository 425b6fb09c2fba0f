#include "network/link_failure_flush.h"

#include <ns3/simulator.h>
#include <ns3/wifi-module.h>

#include "network/queued_for.h"

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
  return take_queued_for(device, next_hop,
                         [&](Ptr<const Packet> stored, const Ipv4Header*, bool) { removed(node, stored); });
}

void LinkFailureFlush::removed(uint32_t node, Ptr<const Packet> packet) {
  ++flushed_;
  for (const auto& observer : observers_) observer(node, packet);
}

}  // namespace mantra::sim
