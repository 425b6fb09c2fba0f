#include "emu_port.h"

#include <ns3/arp-header.h>
#include <ns3/ipv4-header.h>
#include <ns3/ipv4.h>
#include <ns3/socket.h>
#include <ns3/udp-l4-protocol.h>

#include <algorithm>
#include <stdexcept>

#include "diverting_routing.h"

namespace mantra::emu {

using namespace ns3;

namespace {
constexpr uint16_t kEtherIpv4 = 0x0800;
constexpr uint16_t kEtherArp = 0x0806;
}  // namespace

EmuPort::EmuPort(Ptr<Node> node, Ipv4Address address, int tap_fd, const std::array<uint8_t, 6>& namespace_mac,
                 NodeOwnTraffic own)
    : node_(std::move(node)), address_(address), own_(std::move(own)) {
  namespace_mac_.CopyFrom(namespace_mac.data());
  Ptr<Ipv4> ipv4 = node_->GetObject<Ipv4>();
  const int32_t interface = ipv4->GetInterfaceForAddress(address_);
  if (interface < 0) throw std::logic_error("EmuPort: the node has no interface with its address");
  mask_ = ipv4->GetAddress(static_cast<uint32_t>(interface), 0).GetMask();
  udp_ = node_->GetObject<UdpL4Protocol>();
  device_ = CreateObject<FdNetDevice>();
  device_->SetAddress(Mac48Address::Allocate());
  device_->SetEncapsulationMode(FdNetDevice::DIX);
  device_->SetFileDescriptor(tap_fd);
  node_->AddDevice(device_);
  // Node::AddDevice hands the device's frames to the node's protocol handlers
  // (IP and ARP on every device); this device is not an IP interface, so its
  // frames come here instead.
  device_->SetReceiveCallback(MakeCallback(&EmuPort::from_tap, this));
  auto diverting = CreateObject<DivertingRouting>();
  diverting->wrap(ipv4, [this](Ptr<const Packet> p, const Ipv4Header& h) { return divert(p, h); });
}

bool EmuPort::from_tap(Ptr<NetDevice>, Ptr<const Packet> frame, uint16_t protocol, const Address&) {
  if (protocol == kEtherArp) {
    answer_arp(frame);
    return true;
  }
  if (protocol != kEtherIpv4) {
    ++counters_.not_ipv4;
    return true;
  }
  Ptr<Packet> packet = frame->Copy();
  Ipv4Header ip;
  if (Node::ChecksumEnabled()) ip.EnableChecksum();
  if (packet->GetSize() < ip.GetSerializedSize() || packet->RemoveHeader(ip) == 0 || !ip.IsChecksumOk() ||
      packet->GetSize() < ip.GetPayloadSize()) {
    ++counters_.bad_packet;
    return true;
  }
  if (ip.GetSource() != address_) {
    ++counters_.foreign_source;
    return true;
  }
  if (ip.GetDestination().IsBroadcast() || ip.GetDestination().IsMulticast() ||
      ip.GetDestination().IsSubnetDirectedBroadcast(mask_)) {
    ++counters_.not_unicast;
    return true;
  }
  if (ip.IsLastFragment() == false || ip.GetFragmentOffset() != 0) {
    ++counters_.fragment;
    return true;
  }
  packet->RemoveAtEnd(packet->GetSize() - ip.GetPayloadSize());  // the Ethernet frame's padding
  SocketIpTosTag tos;
  tos.SetTos(ip.GetTos());
  packet->AddPacketTag(tos);
  SocketIpTtlTag ttl;
  ttl.SetTtl(ip.GetTtl());
  packet->AddPacketTag(ttl);
  ++counters_.from_namespace;
  // The transports' way down: IP's Send, or our DSR's agent where it runs
  // (dsr_node.h); either takes any IP protocol.
  udp_->GetDownTarget()(packet, ip.GetSource(), ip.GetDestination(), ip.GetProtocol(), nullptr);
  return true;
}

void EmuPort::answer_arp(Ptr<const Packet> frame) {
  ArpHeader arp;
  Ptr<Packet> copy = frame->Copy();
  if (copy->RemoveHeader(arp) == 0 || !arp.IsRequest()) return;
  const Ipv4Address asked = arp.GetDestinationIpv4Address();
  if (asked == address_ || arp.GetSourceIpv4Address() != address_) return;  // its own address, or not the node's
  ArpHeader reply;
  reply.SetReply(device_->GetAddress(), asked, arp.GetSourceHardwareAddress(), arp.GetSourceIpv4Address());
  auto packet = Create<Packet>();
  packet->AddHeader(reply);
  device_->Send(packet, arp.GetSourceHardwareAddress(), kEtherArp);
  ++counters_.arp_replies;
}

bool EmuPort::divert(Ptr<const Packet> packet, const Ipv4Header& header) {
  if (header.GetDestination() != address_) return false;
  uint8_t head[sim::kRoutingPacketHeadBytes] = {};
  const uint32_t n = packet->CopyData(head, sizeof head);
  if (!for_namespace(header.GetProtocol(), std::span<const uint8_t>(head, n), own_)) return false;
  Ptr<Packet> out = packet->Copy();
  Ipv4Header ip = header;
  ip.EnableChecksum();
  ip.SetPayloadSize(out->GetSize());
  out->AddHeader(ip);
  ++counters_.to_namespace;
  if (!device_->Send(out, namespace_mac_, kEtherIpv4)) ++counters_.write_failed;
  return true;
}

nlohmann::json EmuPort::report() const {
  const EmuPortCounters& c = counters_;
  return {{"from_namespace", c.from_namespace},
          {"to_namespace", c.to_namespace},
          {"write_failed", c.write_failed},
          {"arp_replies", c.arp_replies},
          {"dropped",
           {{"not_ipv4", c.not_ipv4},
            {"bad_packet", c.bad_packet},
            {"foreign_source", c.foreign_source},
            {"not_unicast", c.not_unicast},
            {"fragment", c.fragment}}}};
}

}  // namespace mantra::emu
