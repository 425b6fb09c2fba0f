// Who is told of a packet that one of our own network pieces drops (the
// per-packet channel error, the link-failure flush), where no ns-3 trace
// sees it: the node that dropped it and the packet. The loss oracle is the
// observer (run.cc).
#pragma once

#include <ns3/packet.h>

#include <cstdint>
#include <functional>

namespace mantra::sim {

using DropObserver = std::function<void(uint32_t node, ns3::Ptr<const ns3::Packet> packet)>;

}  // namespace mantra::sim
