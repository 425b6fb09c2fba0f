#include "network/routing_packets.h"

#include "aodv/aodv_messages.h"
#include "dsr/dsr_header.h"

namespace mantra::sim {

namespace {
constexpr uint8_t kUdp = 17;
constexpr uint8_t kNs3DsrControl = 1;  // ns-3's DsrFsHeader message type: 1 control, 2 data
}  // namespace

RoutingPackets routing_packets_of(std::string_view routing) {
  if (routing == "aodv" || routing == "aodv-ns3") return RoutingPackets::kAodv;  // both UDP 654
  if (routing == "dsr") return RoutingPackets::kDsr;
  if (routing == "dsr-ns3") return RoutingPackets::kDsrNs3;
  return RoutingPackets::kNone;
}

bool is_routing_packet(RoutingPackets kind, uint8_t ip_protocol, std::span<const uint8_t> payload_head) {
  switch (kind) {
    case RoutingPackets::kNone:
      return false;
    case RoutingPackets::kAodv:
      return ip_protocol == kUdp && payload_head.size() >= 4 &&
             static_cast<uint16_t>(payload_head[2] << 8 | payload_head[3]) == aodv::kAodvPort;
    case RoutingPackets::kDsr:
      return ip_protocol == dsr::kIpProtocolDsr && !payload_head.empty() && payload_head[0] == dsr::kNoNextHeader;
    case RoutingPackets::kDsrNs3:
      return ip_protocol == dsr::kIpProtocolDsr && payload_head.size() >= 2 && payload_head[1] == kNs3DsrControl;
  }
  return false;
}

}  // namespace mantra::sim
