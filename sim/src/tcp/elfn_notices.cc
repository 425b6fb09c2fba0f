#include "tcp/elfn_notices.h"

#include <ns3/inet-socket-address.h>
#include <ns3/packet.h>
#include <ns3/udp-socket-factory.h>
#include <ns3/wifi-net-device.h>

#include <array>

#include "tcp/tcp_flow_tag.h"

namespace mantra::sim {

void ElfnNotices::install(const ns3::NodeContainer& nodes) {
  using namespace ns3;
  for (uint32_t i = 0; i < nodes.GetN(); ++i) {
    Ptr<Node> node = nodes.Get(i);
    Ptr<Socket> socket = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
    socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), kPort));
    socket->SetRecvCallback(MakeCallback(&ElfnNotices::on_receive, this));
    sockets_[node->GetId()] = socket;
    for (uint32_t d = 0; d < node->GetNDevices(); ++d) {
      auto wifi = DynamicCast<WifiNetDevice>(node->GetDevice(d));
      if (!wifi) continue;
      wifi->GetMac()->TraceConnectWithoutContext("DroppedMpdu",
                                                 MakeCallback(&ElfnNotices::on_mac_drop, this).Bind(node->GetId()));
    }
  }
}

void ElfnNotices::register_source(uint32_t flow, uint32_t node, ns3::Ipv4Address address,
                                  ns3::Ptr<VariantTcpSocket> socket) {
  sources_[flow] = Source{node, address, socket};
}

ElfnNotices::FlowCounts ElfnNotices::counts(uint32_t flow) const {
  auto it = counts_.find(flow);
  return it == counts_.end() ? FlowCounts{} : it->second;
}

void ElfnNotices::on_mac_drop(uint32_t node, ns3::WifiMacDropReason reason, ns3::Ptr<const ns3::WifiMpdu> mpdu) {
  if (reason != ns3::WIFI_MAC_DROP_REACHED_RETRY_LIMIT) return;
  TcpFlowTag tag;
  if (!mpdu->GetPacket()->FindFirstMatchingByteTag(tag) || tag.probe) return;
  auto source = sources_.find(tag.flow);
  if (source == sources_.end()) return;  // a flow without ELFN
  ++counts_[tag.flow].sent;
  if (source->second.node == node) {  // the source's own first hop failed
    deliver(tag.flow);
    return;
  }
  std::array<uint8_t, kNoticeBytes> payload{};
  for (int b = 0; b < 4; ++b) payload[b] = static_cast<uint8_t>(tag.flow >> (8 * (3 - b)));
  sockets_.at(node)->SendTo(ns3::Create<ns3::Packet>(payload.data(), kNoticeBytes), 0,
                            ns3::InetSocketAddress(source->second.address, kPort));
}

void ElfnNotices::on_receive(ns3::Ptr<ns3::Socket> socket) {
  while (ns3::Ptr<ns3::Packet> p = socket->Recv()) {
    if (p->GetSize() != kNoticeBytes) continue;
    std::array<uint8_t, kNoticeBytes> payload{};
    p->CopyData(payload.data(), kNoticeBytes);
    uint32_t flow = 0;
    for (int b = 0; b < 4; ++b) flow = (flow << 8) | payload[b];
    auto source = sources_.find(flow);
    if (source != sources_.end() && source->second.node == socket->GetNode()->GetId()) deliver(flow);
  }
}

void ElfnNotices::deliver(uint32_t flow) {
  ++counts_[flow].delivered;
  sources_.at(flow).socket->on_link_failure_notice();
}

}  // namespace mantra::sim
