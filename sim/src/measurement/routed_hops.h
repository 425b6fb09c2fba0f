// The hops a flow's packets crossed on the route the routing gave them, read
// from their IP TTL where the destination's IP delivers them (the
// Ipv4L3Protocol "LocalDeliver" trace): every forwarding node takes one off
// the source's default TTL, so hops = default TTL - TTL on arrival + 1. Beside
// the unit-disk path length of hop_sampling, it tells a detour (salvage, a
// stale or long route) from a short path the graph offered.
//
// Only the flow's own packets count: sent by the flow's source to its
// destination port (TCP or UDP, the port read in place from the transport
// header). Not under ns-3's DSR (`dsr-ns3`): it delivers the transport
// packet from inside its own layer with the TTL of the last hop's fresh IP
// header, so its TTL says nothing of the route.
#pragma once

#include <ns3/ipv4-address.h>
#include <ns3/node.h>
#include <ns3/ptr.h>

#include <cstdint>

#include "measurement/flow_metrics.h"

namespace mantra::sim {

// Reports each of the flow's packets that `destination` delivers to
// `metrics.on_routed_hops`. `metrics` must outlive the simulation run.
void watch_routed_hops(ns3::Ptr<ns3::Node> destination, ns3::Ipv4Address source, uint16_t port, FlowMetrics& metrics);

}  // namespace mantra::sim
