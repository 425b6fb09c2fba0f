// Which packets addressed to an endpoint node belong to the program in its
// namespace (no ns-3). The node and its namespace share one address; the
// node keeps what its own simulated stack needs:
//   - the routing protocol's own packets (network/routing_packets.h);
//   - UDP and TCP to a port of a simulated flow (5000 + the flow's index,
//     spec.h flow_port), or to ns-3's ephemeral ports 49152-65535 (a
//     simulated TCP sender's); the namespace's own ephemeral ports are
//     32768-49151 (endpoint_namespace.h), so its programs never get those;
// and everything else (UDP and TCP to other ports, ICMP, any other
// protocol) goes to the namespace: a ping to the node is answered by the
// program side, as it would be by the host the node stands for.
#pragma once

#include <cstdint>
#include <set>
#include <span>

#include "network/routing_packets.h"

namespace mantra::emu {

inline constexpr uint16_t kNs3FirstEphemeralPort = 49152;  // ns-3's Ipv4EndPointDemux

struct NodeOwnTraffic {
  sim::RoutingPackets routing = sim::RoutingPackets::kNone;
  std::set<uint16_t> simulated_ports;  // every simulated flow's port
};

// `payload_head`: the IP payload's first bytes (at least 4 when the payload has them).
bool for_namespace(uint8_t ip_protocol, std::span<const uint8_t> payload_head, const NodeOwnTraffic& own);

}  // namespace mantra::emu
