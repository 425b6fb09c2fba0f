// What our AODV agent (aodv/aodv_agent.h) routes: a unicast transport packet
// as the fields AODV reads, the simulator's packet itself opaque.
#pragma once

#include <cstdint>
#include <memory>

#include "aodv/aodv_messages.h"

namespace mantra::sim::aodv {

inline constexpr Address kBroadcast = 0xffffffff;

// The simulator's packet and what it needs to send it on (opaque to AODV).
class Payload {
 public:
  virtual ~Payload() = default;
};

struct DataPacket {
  Address source = 0;       // IP source: the originator
  Address destination = 0;  // IP destination
  int hops_travelled = 0;   // links crossed so far (ns-2's num_forwards): 0 at the source
  std::shared_ptr<Payload> payload;
};

}  // namespace mantra::sim::aodv
