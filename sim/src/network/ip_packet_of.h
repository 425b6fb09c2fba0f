// The IPv4 packet inside what the stack hands a routing agent back: a
// frame the MAC gave up on, a packet ARP dropped, an item taken out of the
// interface queue (network/queued_for.h). Each returns the IP header and a
// copy of what follows it, or nothing when there is no IPv4 packet inside
// (an ARP packet, another protocol). Used by our DSR and our AODV.
#pragma once

#include <ns3/ipv4-header.h>
#include <ns3/packet.h>

#include <optional>

namespace mantra::sim {

struct IpPacket {
  ns3::Ipv4Header header;
  ns3::Ptr<ns3::Packet> after_ip;  // a copy: the caller's own
};

// A MAC frame's payload: LLC/SNAP, then the network header.
std::optional<IpPacket> ip_packet_of_frame(ns3::Ptr<const ns3::Packet> msdu);
// What ARP's drop traces carry: an IPv4 packet with its header, or an ARP packet.
std::optional<IpPacket> ip_packet_of_arp_drop(ns3::Ptr<const ns3::Packet> dropped);
// An item take_queued_for gave: a queue disc's packet with its header kept
// apart, or a MAC queue's frame.
std::optional<IpPacket> ip_packet_of_queued(ns3::Ptr<const ns3::Packet> stored, const ns3::Ipv4Header* header,
                                            bool mac_frame);

}  // namespace mantra::sim
