// ns-2's reaction to a link failure, added beside ns-3's routing (run spec
// key `link_failure_flush`, docs/run-spec.md).
//
// When ns-2's 802.11 MAC gives up on a frame, AODV's rt_ll_failed drops that
// packet and then every packet in the interface queue whose next hop is the
// broken neighbour (PriQueue::filter); it re-routes none of them. ns-3's AODV
// leaves them queued, so each is tried again (another full set of MAC
// retries) or waits behind the broken link. With the flush on, a node whose
// MAC drops a frame after its last retry removes, in the same instant,
//
//   from its interface queue disc: every packet addressed to that MAC
//   from its Wi-Fi MAC queue:      every frame to that MAC not yet on the air
//
// and nothing else. Each removed packet is passed to the observers (the loss
// oracle: a route change) and counted in `flushed`.
//
//   MAC: DroppedMpdu(retry limit, to M) ──► now: queue disc ─ drop items to M
//                                                 MAC queue  ─ drop frames to M
#pragma once

#include <ns3/mac48-address.h>
#include <ns3/net-device-container.h>
#include <ns3/packet.h>

#include <cstdint>
#include <vector>

#include "network/drop_observer.h"

namespace mantra::sim {

class LinkFailureFlush {
 public:
  // Watches the MACs of `devices` (Wi-Fi devices with their queue discs installed).
  void install(const ns3::NetDeviceContainer& devices);

  // Removes what `device` holds for `next_hop`; returns the packets removed.
  int64_t flush(ns3::Ptr<ns3::NetDevice> device, ns3::Mac48Address next_hop);

  void observe(DropObserver observer) { observers_.push_back(std::move(observer)); }
  int64_t flushed() const { return flushed_; }

 private:
  void removed(uint32_t node, ns3::Ptr<const ns3::Packet> packet);

  std::vector<DropObserver> observers_;
  int64_t flushed_ = 0;
};

}  // namespace mantra::sim
