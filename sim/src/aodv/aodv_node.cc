#include "aodv/aodv_node.h"

#include <ns3/arp-cache.h>
#include <ns3/arp-l3-protocol.h>
#include <ns3/ipv4-interface.h>
#include <ns3/ipv4-route.h>
#include <ns3/simulator.h>
#include <ns3/udp-header.h>
#include <ns3/uinteger.h>
#include <ns3/wifi-mpdu.h>
#include <ns3/wifi-net-device.h>

#include <array>
#include <span>
#include <vector>

#include "network/ip_packet_of.h"
#include "network/queued_for.h"
#include "network/routing_packets.h"
#include "network/send_to_neighbour.h"

namespace mantra::sim::aodv {

using namespace ns3;

namespace {

constexpr uint8_t kUdp = 17;  // IP's protocol number for UDP, which AODV's messages ride

// A data packet in the simulator: what follows its IP header, and the header.
class NsData : public Payload {
 public:
  NsData(Ptr<const ns3::Packet> packet, const Ipv4Header& ip) : packet(std::move(packet)), ip(ip) {}
  Ptr<const ns3::Packet> packet;
  Ipv4Header ip;
};

Ipv4Address ip_of(Address a) { return a == kBroadcast ? Ipv4Address::GetBroadcast() : Ipv4Address(a); }

}  // namespace

bool is_aodv_message(const Ipv4Header& ip, Ptr<const ns3::Packet> after_ip) {
  std::array<uint8_t, kRoutingPacketHeadBytes> head{};
  const uint32_t n = after_ip->CopyData(head.data(), head.size());
  return is_routing_packet(RoutingPackets::kAodv, ip.GetProtocol(), std::span(head.data(), n));
}

namespace {
// A unicast transport packet: what AODV routes, and whose failures it hears
// (ns-2 asked no MAC feedback for its own packets or for broadcasts).
bool is_data(const IpPacket& ip) {
  return !ip.header.GetDestination().IsBroadcast() && !is_aodv_message(ip.header, ip.after_ip);
}

}  // namespace

AodvNode::AodvNode(Ptr<Node> node, Ptr<NetDevice> device, std::shared_ptr<const MacBook> macs,
                   Ptr<UniformRandomVariable> random)
    : node_(std::move(node)), device_(std::move(device)), macs_(std::move(macs)), random_(std::move(random)) {}

void AodvNode::start() {
  ipv4_ = node_->GetObject<Ipv4L3Protocol>();
  interface_ = static_cast<uint32_t>(ipv4_->GetInterfaceForDevice(device_));
  self_ = ipv4_->GetAddress(interface_, 0).GetLocal().Get();
  UintegerValue ttl;
  ipv4_->GetAttribute("DefaultTtl", ttl);
  default_ttl_ = static_cast<uint8_t>(ttl.Get());
  agent_ = std::make_unique<AodvAgent>(self_, *this);
  DynamicCast<WifiNetDevice>(device_)->GetMac()->TraceConnectWithoutContext("DroppedMpdu",
                                                                            MakeCallback(&AodvNode::mac_dropped, this));
  const auto arp = MakeCallback(&AodvNode::arp_dropped, this);
  node_->GetObject<ArpL3Protocol>()->TraceConnectWithoutContext("Drop", arp);
  ipv4_->GetInterface(interface_)->GetArpCache()->TraceConnectWithoutContext("Drop", arp);
  // Every node's purge from t = 0, as ns-2 started its agents' timers.
  Simulator::ScheduleNow(&AodvNode::purge, this);
}

void AodvNode::purge() { Simulator::Schedule(Seconds(agent_->purge()), &AodvNode::purge, this); }

double AodvNode::now_s() const { return Simulator::Now().GetSeconds(); }

double AodvNode::uniform_s(double max_s) { return random_->GetValue(0, max_s); }

// Links crossed so far: IP's TTL starts at its default at the source and each
// relay takes one off on arrival (relay below).
DataPacket AodvNode::data_packet(Ptr<const ns3::Packet> packet, const Ipv4Header& ip) const {
  DataPacket p;
  p.source = ip.GetSource().Get();
  p.destination = ip.GetDestination().Get();
  p.hops_travelled = default_ttl_ - ip.GetTtl();
  p.payload = std::make_shared<NsData>(std::move(packet), ip);
  return p;
}

void AodvNode::from_aodv(Ptr<const ns3::Packet> udp, const Ipv4Header& ip) {
  if (ip.GetSource().Get() == self_) return;
  Ptr<ns3::Packet> copy = udp->Copy();
  UdpHeader header;
  copy->RemoveHeader(header);
  std::vector<uint8_t> bytes(copy->GetSize());
  copy->CopyData(bytes.data(), bytes.size());
  const Decoded d = decode(bytes);
  if (!d.message) {
    ++malformed_;
    return;
  }
  agent_->receive(*d.message, ip.GetSource().Get(), ip.GetTtl());
}

void AodvNode::from_socket(Ptr<const ns3::Packet> packet, const Ipv4Header& ip) {
  agent_->route(data_packet(std::move(packet), ip));
}

void AodvNode::relay(Ptr<const ns3::Packet> packet, Ipv4Header ip) {
  if (ip.GetTtl() <= 1) {  // ns-2 took one off and dropped at 0
    ++ttl_drops_;
    return;
  }
  ip.SetTtl(ip.GetTtl() - 1);
  agent_->route(data_packet(std::move(packet), ip));
}

void AodvNode::send_message(const Message& m, Address to, uint8_t ttl, double delay_s) {
  const std::vector<uint8_t> bytes = encode(m);
  Ptr<ns3::Packet> packet = Create<ns3::Packet>(bytes.data(), bytes.size());
  UdpHeader udp;
  udp.SetSourcePort(kAodvPort);
  udp.SetDestinationPort(kAodvPort);
  packet->AddHeader(udp);
  Ipv4Header ip;
  ip.SetSource(Ipv4Address(self_));
  ip.SetDestination(ip_of(to));
  ip.SetProtocol(kUdp);
  ip.SetTtl(ttl);
  ip.SetPayloadSize(packet->GetSize());
  ip.SetMayFragment();
  if (delay_s <= 0) {
    send_now(packet, ip, to);
    return;
  }
  Simulator::Schedule(Seconds(delay_s), [this, packet, ip, to] { send_now(packet, ip, to); });
}

void AodvNode::forward(DataPacket p, Address next_hop, double delay_s) {
  const auto& data = static_cast<const NsData&>(*p.payload);
  Ptr<ns3::Packet> packet = data.packet->Copy();
  const Ipv4Header ip = data.ip;
  if (delay_s <= 0) {
    send_now(packet, ip, next_hop);
    return;
  }
  Simulator::Schedule(Seconds(delay_s), [this, packet, ip, next_hop] { send_now(packet, ip, next_hop); });
}

void AodvNode::send_now(Ptr<ns3::Packet> packet, const Ipv4Header& ip, Address next_hop) {
  send_to_neighbour(ipv4_, device_, packet, ip, ip_of(next_hop));
}

void AodvNode::drop(const DataPacket&, DropReason why) { ++drops_[static_cast<size_t>(why)]; }

std::vector<DataPacket> AodvNode::take_queued(Address next_hop) {
  std::vector<DataPacket> taken;
  const auto mac = macs_->find(next_hop);
  if (mac == macs_->end()) return taken;
  take_queued_for(device_, mac->second, [&](Ptr<const ns3::Packet> stored, const Ipv4Header* header, bool mac_frame) {
    std::optional<IpPacket> ip = ip_packet_of_queued(stored, header, mac_frame);
    // ns-2's filter dropped every packet for the neighbour; AODV's own go unreported.
    if (ip && !is_aodv_message(ip->header, ip->after_ip)) taken.push_back(data_packet(ip->after_ip, ip->header));
  });
  return taken;
}

void AodvNode::mac_dropped(WifiMacDropReason reason, Ptr<const WifiMpdu> mpdu) {
  if (reason != WIFI_MAC_DROP_REACHED_RETRY_LIMIT) return;
  const Mac48Address to = mpdu->GetHeader().GetAddr1();
  std::optional<IpPacket> ip = ip_packet_of_frame(mpdu->GetPacket());
  if (to.IsGroup() || !ip || !is_data(*ip)) return;
  for (const auto& [address, mac] : *macs_) {
    if (mac == to) {
      link_failed(data_packet(ip->after_ip, ip->header), address);
      return;
    }
  }
}

void AodvNode::arp_dropped(Ptr<const ns3::Packet> dropped) {
  std::optional<IpPacket> ip = ip_packet_of_arp_drop(dropped);  // else one of ARP's own packets
  if (!ip || !is_data(*ip)) return;
  Route* route = agent_->table().find(ip->header.GetDestination().Get());
  if (!route || !route->hop_count_known()) return;
  ArpCache::Entry* entry = ipv4_->GetInterface(interface_)->GetArpCache()->Lookup(Ipv4Address(route->next_hop));
  if (entry && entry->IsDead())
    link_failed(data_packet(ip->after_ip, ip->header), route->next_hop);  // else: its queue was full
}

void AodvNode::link_failed(DataPacket p, Address next_hop) {
  // After the MAC or ARP has finished with the failed packet.
  Simulator::ScheduleNow(
      [this, failed = std::move(p), next_hop]() mutable { agent_->link_failed(std::move(failed), next_hop); });
}

}  // namespace mantra::sim::aodv
