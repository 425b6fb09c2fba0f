// What a Wi-Fi device holds for one neighbour, taken out: every packet of its
// queue disc addressed to that neighbour's MAC, and every frame of its MAC
// queue to it that is not already on the air (that one fails or succeeds by
// itself). What ns-2's PriQueue::filter / prq_get_nexthop did when the MAC
// gave up on a neighbour. Used by the link-failure flush (network/
// link_failure_flush.h), which drops them, and by our DSR (dsr/dsr_node.h),
// which salvages them.
#pragma once

#include <ns3/ipv4-header.h>
#include <ns3/mac48-address.h>
#include <ns3/net-device.h>
#include <ns3/packet.h>

#include <cstdint>
#include <functional>

namespace mantra::sim {

// Called once per packet taken, in queue order: the packet as it was stored;
// for an IPv4 item of the queue disc, its IP header (kept apart from the
// packet); for a frame of the MAC queue, mac_frame (its packet carries its
// LLC/SNAP header, then its network header). Anything else (an ARP packet in
// the queue disc) comes with neither.
using TakenPacket =
    std::function<void(ns3::Ptr<const ns3::Packet> stored, const ns3::Ipv4Header* header, bool mac_frame)>;

// Returns how many packets were taken.
int64_t take_queued_for(ns3::Ptr<ns3::NetDevice> device, ns3::Mac48Address next_hop, const TakenPacket& taken);

}  // namespace mantra::sim
