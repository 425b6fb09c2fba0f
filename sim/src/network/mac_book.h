// Which MAC answers for which IP address on the radio: what the simulation
// knows to find a neighbour's frames in a queue (our routing agents name
// next hops by IP address; network/queued_for.h finds frames by MAC).
#pragma once

#include <ns3/mac48-address.h>
#include <ns3/net-device-container.h>
#include <ns3/node-container.h>

#include <cstdint>
#include <map>
#include <memory>

namespace mantra::sim {

using MacBook = std::map<uint32_t, ns3::Mac48Address>;  // IPv4 address (host order) -> MAC

// The book of `nodes`, each with its radio in `devices` (same order), once their addresses are in.
std::shared_ptr<const MacBook> mac_book_of(const ns3::NodeContainer& nodes, const ns3::NetDeviceContainer& devices);

}  // namespace mantra::sim
