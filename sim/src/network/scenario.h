// Builds the network of a run spec in ns-3: nodes, positions and mobility,
// the radio (or wired line), the interface queues, the routing protocol and
// addresses, plus the drop counters the result reports.
#pragma once

#include <ns3/ipv4-address.h>
#include <ns3/node-container.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "aodv/aodv_node.h"
#include "dsr/dsr_node.h"
#include "network/channel_error.h"
#include "network/link_failure_flush.h"
#include "network/routing_packets.h"
#include "spec/spec.h"

namespace mantra::sim {

struct DropCounters {
  std::vector<int64_t> ifq_per_node;  // interface-queue (queue disc) overflows
  int64_t mac_retry = 0;              // frames dropped after the MAC's last retry
  int64_t no_route = 0;               // IP: no route, or dropped from AODV's buffer
  int64_t arp = 0;                    // ARP: no answer from the neighbour, or its pending queue full
  ChannelErrorDrops channel_error;    // frames or packets the channel error model (or a wired loss) took
};

// The routing protocol's own packets (network/routing_packets.h) as the
// nodes' IP sent them, every hop.
struct RoutingTraffic {
  RoutingPackets kind = RoutingPackets::kNone;
  int64_t packets = 0;
  int64_t bytes = 0;  // IP header included
};

struct Scenario {
  ns3::NodeContainer nodes;
  std::vector<ns3::Ipv4Address> addresses;  // one per node, for flows
  DropCounters drops;
  LinkFailureFlush link_failure_flush;                      // installed when the spec asks (link_failure_flush)
  std::vector<std::unique_ptr<dsr::DsrNode>> dsr_nodes;     // our DSR's agents (routing: dsr), one per radio node
  std::vector<std::unique_ptr<aodv::AodvNode>> aodv_nodes;  // our AODV's agents (routing: aodv), one per radio node
  RoutingTraffic routing_traffic;
};

// Builds everything into `scenario`; must be called once per simulation.
void build_scenario(const Spec& spec, Scenario& scenario);

}  // namespace mantra::sim
