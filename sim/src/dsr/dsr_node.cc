#include "dsr/dsr_node.h"

#include <ns3/arp-cache.h>
#include <ns3/arp-l3-protocol.h>
#include <ns3/simulator.h>
#include <ns3/socket.h>
#include <ns3/tcp-l4-protocol.h>
#include <ns3/udp-l4-protocol.h>
#include <ns3/uinteger.h>
#include <ns3/wifi-mpdu.h>
#include <ns3/wifi-net-device.h>

#include "dsr/dsr_wire_header.h"
#include "network/ip_packet_of.h"
#include "network/queued_for.h"
#include "network/send_to_neighbour.h"

namespace mantra::sim::dsr {

using namespace ns3;

namespace {

// The transport segment under a DSR header in the simulator.
class NsPayload : public Payload {
 public:
  explicit NsPayload(Ptr<ns3::Packet> packet) : packet_(std::move(packet)) {}
  uint32_t bytes() const override { return packet_->GetSize(); }
  Ptr<ns3::Packet> copy() const { return packet_->Copy(); }

 private:
  Ptr<ns3::Packet> packet_;
};

Ipv4Address ip_of(Address a) { return a == kBroadcast ? Ipv4Address::GetBroadcast() : Ipv4Address(a); }

}  // namespace

std::optional<Packet> read_packet(const Ipv4Header& ip, Ptr<ns3::Packet> rest) {
  DsrWireHeader wire;
  rest->RemoveHeader(wire);
  if (!wire.error().empty()) return std::nullopt;
  Packet p;
  p.source = ip.GetSource().Get();
  p.destination = ip.GetDestination().IsBroadcast() ? kBroadcast : ip.GetDestination().Get();
  p.identification = ip.GetIdentification();
  p.ttl = ip.GetTtl();
  p.tos = ip.GetTos();
  p.header = wire.header();
  if (p.header.next_header != kNoNextHeader) p.payload = std::make_shared<NsPayload>(rest);
  return p;
}

DsrNode::DsrNode(Ptr<Node> node, Ptr<NetDevice> device, std::shared_ptr<const MacBook> macs, DsrOptions options,
                 Ptr<UniformRandomVariable> random)
    : node_(std::move(node)),
      device_(std::move(device)),
      macs_(std::move(macs)),
      options_(options),
      random_(std::move(random)) {}

void DsrNode::start() {
  ipv4_ = node_->GetObject<Ipv4L3Protocol>();
  interface_ = static_cast<uint32_t>(ipv4_->GetInterfaceForDevice(device_));
  self_ = ipv4_->GetAddress(interface_, 0).GetLocal().Get();
  UintegerValue ttl;
  ipv4_->GetAttribute("DefaultTtl", ttl);
  default_ttl_ = static_cast<uint8_t>(ttl.Get());
  agent_ = std::make_unique<DsrAgent>(self_, *this, options_);
  const auto down = MakeCallback(&DsrNode::from_transport, this);
  node_->GetObject<UdpL4Protocol>()->SetDownTarget(down);
  node_->GetObject<TcpL4Protocol>()->SetDownTarget(down);
  node_->RegisterProtocolHandler(MakeCallback(&DsrNode::overheard, this), Ipv4L3Protocol::PROT_NUMBER, device_, true);
  DynamicCast<WifiNetDevice>(device_)->GetMac()->TraceConnectWithoutContext("DroppedMpdu",
                                                                            MakeCallback(&DsrNode::mac_dropped, this));
  const auto arp = MakeCallback(&DsrNode::arp_dropped, this);
  node_->GetObject<ArpL3Protocol>()->TraceConnectWithoutContext("Drop", arp);
  ipv4_->GetInterface(interface_)->GetArpCache()->TraceConnectWithoutContext("Drop", arp);
  Simulator::Schedule(Seconds(uniform_s(DsrAgent::kSendBufferCheckS)), &DsrNode::check_send_buffer, this);
}

void DsrNode::check_send_buffer() {
  Simulator::Schedule(Seconds(agent_->check_send_buffer()), &DsrNode::check_send_buffer, this);
}

void DsrNode::from_transport(Ptr<ns3::Packet> packet, Ipv4Address source, Ipv4Address destination, uint8_t protocol,
                             Ptr<Ipv4Route>) {
  Packet p;
  p.source = source.Get();
  p.destination = destination.IsBroadcast() ? kBroadcast : destination.Get();
  p.ttl = default_ttl_;
  SocketIpTtlTag ttl;
  if (packet->RemovePacketTag(ttl)) p.ttl = ttl.GetTtl();
  SocketIpTosTag tos;
  if (packet->RemovePacketTag(tos)) p.tos = tos.GetTos();
  p.header.next_header = protocol;
  p.payload = std::make_shared<NsPayload>(packet);
  agent_->send(std::move(p));
}

void DsrNode::from_ip(Ptr<ns3::Packet> packet, const Ipv4Header& ip) {
  std::optional<Packet> p = read_packet(ip, packet);
  if (!p) {
    ++drops_[static_cast<size_t>(DropReason::kMalformed)];
    return;
  }
  agent_->receive(std::move(*p));
}

void DsrNode::overheard(Ptr<NetDevice>, Ptr<const ns3::Packet> packet, uint16_t, const ns3::Address&,
                        const ns3::Address&, NetDevice::PacketType type) {
  if (type != NetDevice::PACKET_OTHERHOST) return;
  Ipv4Header ip;
  packet->PeekHeader(ip);
  if (ip.GetProtocol() != kIpProtocolDsr) return;
  Ptr<ns3::Packet> copy = packet->Copy();
  copy->RemoveHeader(ip);
  if (std::optional<Packet> p = read_packet(ip, copy)) agent_->overhear(*p);
}

void DsrNode::mac_dropped(WifiMacDropReason reason, Ptr<const WifiMpdu> mpdu) {
  if (reason != WIFI_MAC_DROP_REACHED_RETRY_LIMIT) return;
  std::optional<IpPacket> ip = ip_packet_of_frame(mpdu->GetPacket());
  if (!ip || ip->header.GetProtocol() != kIpProtocolDsr) return;
  if (std::optional<Packet> p = read_packet(ip->header, ip->after_ip)) link_failed(std::move(*p));
}

void DsrNode::arp_dropped(Ptr<const ns3::Packet> dropped) {
  std::optional<IpPacket> ip = ip_packet_of_arp_drop(dropped);  // else one of ARP's own packets
  if (!ip || ip->header.GetProtocol() != kIpProtocolDsr) return;
  std::optional<Packet> p = read_packet(ip->header, ip->after_ip);
  if (!p || !p->header.source_route) return;
  const std::vector<Address> route = route_of(*p);
  const size_t next = receiver_of(*p);
  if (next >= route.size()) return;
  ArpCache::Entry* entry = ipv4_->GetInterface(interface_)->GetArpCache()->Lookup(Ipv4Address(route[next]));
  if (entry && entry->IsDead()) link_failed(std::move(*p));  // else: its pending queue was full
}

void DsrNode::link_failed(Packet p) {
  // After the MAC or ARP has finished with the failed packet.
  Simulator::ScheduleNow([this, failed = std::move(p)]() mutable { agent_->transmit_failed(std::move(failed)); });
}

double DsrNode::now_s() const { return Simulator::Now().GetSeconds(); }

double DsrNode::uniform_s(double max_s) { return random_->GetValue(0, max_s); }

void DsrNode::transmit(Packet p, Address next_hop, double delay_s) {
  if (delay_s <= 0) {
    send_now(std::move(p), next_hop);
    return;
  }
  Simulator::Schedule(Seconds(delay_s),
                      [this, p = std::move(p), next_hop]() mutable { send_now(std::move(p), next_hop); });
}

void DsrNode::send_now(Packet p, Address next_hop) {
  Ptr<ns3::Packet> packet = p.payload ? static_cast<const NsPayload&>(*p.payload).copy() : Create<ns3::Packet>();
  packet->AddHeader(DsrWireHeader(p.header));
  Ipv4Header ip;
  ip.SetSource(Ipv4Address(p.source));
  ip.SetDestination(ip_of(p.destination));
  ip.SetProtocol(kIpProtocolDsr);
  ip.SetTtl(p.ttl);
  ip.SetTos(p.tos);
  ip.SetIdentification(p.identification);
  ip.SetPayloadSize(packet->GetSize());
  ip.SetMayFragment();
  send_to_neighbour(ipv4_, device_, packet, ip, ip_of(next_hop));
}

void DsrNode::deliver(Packet p) {
  Ptr<ns3::Packet> packet = static_cast<const NsPayload&>(*p.payload).copy();
  Ipv4Header ip;
  ip.SetSource(Ipv4Address(p.source));
  ip.SetDestination(Ipv4Address(p.destination == kBroadcast ? self_ : p.destination));
  ip.SetProtocol(p.header.next_header);
  ip.SetTtl(p.ttl);
  ip.SetTos(p.tos);
  ip.SetIdentification(p.identification);
  ip.SetPayloadSize(packet->GetSize());
  ++delivered_;
  delivered_hops_ += default_ttl_ - p.ttl + 1;
  local_deliver_(packet, ip, interface_);
}

void DsrNode::drop(const Packet&, DropReason why) { ++drops_[static_cast<size_t>(why)]; }

std::vector<Packet> DsrNode::take_queued(Address next_hop) {
  std::vector<Packet> taken;
  const auto mac = macs_->find(next_hop);
  if (mac == macs_->end()) return taken;
  take_queued_for(device_, mac->second, [&](Ptr<const ns3::Packet> stored, const Ipv4Header* header, bool mac_frame) {
    std::optional<IpPacket> ip = ip_packet_of_queued(stored, header, mac_frame);
    if (!ip || ip->header.GetProtocol() != kIpProtocolDsr) return;
    if (std::optional<Packet> p = read_packet(ip->header, ip->after_ip)) taken.push_back(std::move(*p));
  });
  return taken;
}

}  // namespace mantra::sim::dsr
