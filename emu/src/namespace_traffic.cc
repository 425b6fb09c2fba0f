#include "namespace_traffic.h"

namespace mantra::emu {
namespace {
constexpr uint8_t kTcp = 6;
constexpr uint8_t kUdp = 17;
constexpr size_t kPortsBytes = 4;  // source and destination port, the first 4 bytes of both headers
}  // namespace

bool for_namespace(uint8_t ip_protocol, std::span<const uint8_t> payload_head, const NodeOwnTraffic& own) {
  if (sim::is_routing_packet(own.routing, ip_protocol, payload_head)) return false;
  if (ip_protocol != kTcp && ip_protocol != kUdp) return true;
  if (payload_head.size() < kPortsBytes) return false;  // no transport header: nobody's, the node's stack drops it
  const auto port = static_cast<uint16_t>(payload_head[2] << 8 | payload_head[3]);
  return port < kNs3FirstEphemeralPort && !own.simulated_ports.count(port);
}

}  // namespace mantra::emu
