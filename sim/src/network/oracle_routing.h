// The oracle routing protocol (run spec `routing: oracle`), one per node: an
// ns-3 Ipv4RoutingProtocol that forwards each packet to the next hop that
// OracleRoutes (oracle_routes.h) gives for its destination now. It sends no
// control packet and repairs nothing: a packet a node cannot forward because
// the graph has no path is dropped there (counted as `no_route`), except at
// its source, which holds it until a path appears:
//
//   source, path now    ──► sent to the next hop
//   source, no path     ──► loopback route (the socket binds its address),
//                           then held: at most 64 packets (the oldest dropped
//                           when full), each at most 30 s, tried every 100 ms
//   relay, path now     ──► forwarded;   relay, no path ──► dropped
//   to this node        ──► delivered
//
// The source's hold is ns-2 AODV's route-request queue (aodv_rqueue.h:
// AODV_RTQ_MAX_LEN 64, AODV_RTQ_TIMEOUT 30 s), so a transport meets the same
// wait for a route on the oracle as on the papers' AODV, without the search.
// Broadcast and multicast are delivered locally and never forwarded.
#pragma once

#include <ns3/event-id.h>
#include <ns3/ipv4-routing-helper.h>
#include <ns3/ipv4-routing-protocol.h>
#include <ns3/ipv4.h>

#include <cstdint>
#include <deque>
#include <memory>

#include "network/fixed_interfaces_routing.h"
#include "network/oracle_routes.h"

namespace mantra::sim {

class OracleRouting : public FixedInterfacesRouting {
 public:
  static constexpr size_t kHeldPackets = 64;
  static constexpr int64_t kHoldMs = 30'000;

  static ns3::TypeId GetTypeId();
  OracleRouting(std::shared_ptr<OracleRoutes> routes, uint32_t node) : routes_(std::move(routes)), node_(node) {}

  ns3::Ptr<ns3::Ipv4Route> RouteOutput(ns3::Ptr<ns3::Packet> p, const ns3::Ipv4Header& header,
                                       ns3::Ptr<ns3::NetDevice> oif, ns3::Socket::SocketErrno& sockerr) override;
  bool RouteInput(ns3::Ptr<const ns3::Packet> p, const ns3::Ipv4Header& header, ns3::Ptr<const ns3::NetDevice> idev,
                  const UnicastForwardCallback& ucb, const MulticastForwardCallback& mcb,
                  const LocalDeliverCallback& lcb, const ErrorCallback& ecb) override;
  void PrintRoutingTable(ns3::Ptr<ns3::OutputStreamWrapper> stream, ns3::Time::Unit unit) const override;

 private:
  struct Held {
    ns3::Ptr<const ns3::Packet> packet;
    ns3::Ipv4Header header;
    UnicastForwardCallback forward;
    ErrorCallback drop;
    ns3::Time since;
  };

  // The route to the next hop towards `destination` now, or nullptr.
  ns3::Ptr<ns3::Ipv4Route> route_to(ns3::Ipv4Address destination);
  ns3::Ptr<ns3::Ipv4Route> loopback_route(ns3::Ipv4Address destination) const;
  bool is_loopback(ns3::Ptr<const ns3::NetDevice> device) const;
  void hold(Held held);
  void release_held();
  void DoDispose() override;

  std::shared_ptr<OracleRoutes> routes_;
  uint32_t node_ = 0;
  ns3::Ptr<ns3::NetDevice> radio_;  // the device of this node's radio address, found once
  std::deque<Held> held_;
  ns3::EventId retry_;
};

// Installs OracleRouting on each node of a scenario through InternetStackHelper.
class OracleRoutingHelper : public ns3::Ipv4RoutingHelper {
 public:
  explicit OracleRoutingHelper(std::shared_ptr<OracleRoutes> routes) : routes_(std::move(routes)) {}
  OracleRoutingHelper* Copy() const override { return new OracleRoutingHelper(*this); }
  ns3::Ptr<ns3::Ipv4RoutingProtocol> Create(ns3::Ptr<ns3::Node> node) const override;

 private:
  std::shared_ptr<OracleRoutes> routes_;
};

}  // namespace mantra::sim
