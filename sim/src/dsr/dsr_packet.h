// What the DSR agent (dsr/dsr_agent.h) handles: an IP packet whose protocol
// is DSR, as fields rather than bytes. The transport segment it carries is
// opaque to DSR and shared between copies (a salvaged packet and its route
// error, a packet and its overheard copy); its size counts on the air.
#pragma once

#include <cstdint>
#include <memory>

#include "dsr/dsr_header.h"

namespace mantra::sim::dsr {

inline constexpr Address kBroadcast = 0xffffffff;

// The transport segment under the DSR header (the simulator's packet).
class Payload {
 public:
  virtual ~Payload() = default;
  virtual uint32_t bytes() const = 0;
};

struct Packet {
  Address source = 0;       // IP source: the originator
  Address destination = 0;  // IP destination: the final one (kBroadcast for a route request)
  uint16_t identification = 0;
  uint8_t ttl = 0;
  uint8_t tos = 0;  // carried, not read (the transport's ECN codepoint rides here)
  DsrHeader header;
  std::shared_ptr<const Payload> payload;  // null for DSR's own packets

  bool carries_data() const { return payload != nullptr; }
};

}  // namespace mantra::sim::dsr

namespace mantra::sim::dsr {

// A source route as the agent works with it: every node from the one that
// chose the route to the IP destination. On the air the first node is
// implicit (the IP source) unless the packet was salvaged: a salvaged
// packet's route begins at its salvager, so the salvager is listed first
// (the Salvage field says which). Segments left counts the listed hops from
// the receiver of a transmission onward; the receiver is node
// size - 1 - segments_left of the route.
std::vector<Address> route_of(const Packet& p);
size_t receiver_of(const Packet& p);  // index in route_of(p) of the node the packet is sent to
void put_route(Packet& p, const std::vector<Address>& route, size_t receiver, uint8_t salvage);

}  // namespace mantra::sim::dsr
