#include "measurement/routed_hops.h"

#include <ns3/ipv4-l3-protocol.h>
#include <ns3/packet.h>
#include <ns3/uinteger.h>

namespace mantra::sim {

namespace {
constexpr uint8_t kTcp = 6;
constexpr uint8_t kUdp = 17;

void on_local_deliver(FlowMetrics* metrics, ns3::Ipv4Address source, uint16_t port, uint8_t default_ttl,
                      const ns3::Ipv4Header& ip, ns3::Ptr<const ns3::Packet> packet, uint32_t) {
  if (ip.GetSource() != source || (ip.GetProtocol() != kTcp && ip.GetProtocol() != kUdp)) return;
  uint8_t ports[4];  // source and destination port: the first 4 bytes of both headers, read in place
  if (packet->CopyData(ports, sizeof ports) < sizeof ports) return;
  if (static_cast<uint16_t>(ports[2] << 8 | ports[3]) != port) return;
  metrics->on_routed_hops(default_ttl - ip.GetTtl() + 1);
}
}  // namespace

void watch_routed_hops(ns3::Ptr<ns3::Node> destination, ns3::Ipv4Address source, uint16_t port, FlowMetrics& metrics) {
  metrics.watch_routed_hops();
  auto ipv4 = destination->GetObject<ns3::Ipv4L3Protocol>();
  ns3::UintegerValue ttl;
  ipv4->GetAttribute("DefaultTtl", ttl);
  ipv4->TraceConnectWithoutContext("LocalDeliver", ns3::MakeBoundCallback(&on_local_deliver, &metrics, source, port,
                                                                          static_cast<uint8_t>(ttl.Get())));
}

}  // namespace mantra::sim
