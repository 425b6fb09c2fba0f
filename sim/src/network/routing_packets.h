// Which packets are a routing protocol's own, told apart by bytes read in
// place (no ns-3 types): what ns-2's PriQueue put at the head of the
// interface queue (Prefer_Routing_Protocols, queue/priqueue.cc: PT_AODV,
// PT_DSR) and what the result counts as routing overhead.
//   aodv     UDP to port 654 (ns-3's AODV; RFC 3561 §3)
//   dsr      ours: IP protocol 48 whose DSR header's Next Header is 59 (no
//            transport payload): a request, reply or error alone. A data
//            packet that carries a piggybacked error is data, as in ns-2,
//            where such a packet kept its data type.
//   dsr-ns3  ns-3's DSR: IP protocol 48 whose fixed header's message type
//            (its second byte) is 1, control (2 is data)
// `oracle` and `static` send no routing packets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace mantra::sim {

enum class RoutingPackets : uint8_t { kNone, kAodv, kDsr, kDsrNs3 };

// The kind for a spec's `routing` value.
RoutingPackets routing_packets_of(std::string_view routing);

// How many bytes of an IP payload is_routing_packet reads at most.
inline constexpr size_t kRoutingPacketHeadBytes = 4;

// `ip_protocol` is the IP header's; `payload_head` the IP payload's first
// bytes (fewer than kRoutingPacketHeadBytes when the payload is shorter).
bool is_routing_packet(RoutingPackets kind, uint8_t ip_protocol, std::span<const uint8_t> payload_head);

}  // namespace mantra::sim
