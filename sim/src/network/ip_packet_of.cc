#include "network/ip_packet_of.h"

#include <ns3/ipv4-l3-protocol.h>
#include <ns3/llc-snap-header.h>

namespace mantra::sim {

using namespace ns3;

std::optional<IpPacket> ip_packet_of_frame(Ptr<const Packet> msdu) {
  IpPacket p;
  p.after_ip = msdu->Copy();
  LlcSnapHeader llc;
  p.after_ip->RemoveHeader(llc);
  if (llc.GetType() != Ipv4L3Protocol::PROT_NUMBER) return std::nullopt;
  p.after_ip->RemoveHeader(p.header);
  return p;
}

std::optional<IpPacket> ip_packet_of_arp_drop(Ptr<const Packet> dropped) {
  // An IPv4 packet starts with version 4, header length 5 (ns-3 writes no options).
  uint8_t first = 0;
  if (dropped->GetSize() < 20 || (dropped->CopyData(&first, 1), first) != 0x45) return std::nullopt;
  IpPacket p;
  p.after_ip = dropped->Copy();
  p.after_ip->RemoveHeader(p.header);
  return p;
}

std::optional<IpPacket> ip_packet_of_queued(Ptr<const Packet> stored, const Ipv4Header* header, bool mac_frame) {
  if (header) return IpPacket{*header, stored->Copy()};
  if (mac_frame) return ip_packet_of_frame(stored);
  return std::nullopt;  // ARP's
}

}  // namespace mantra::sim
