// Our AODV in ns-3's stack: on each node an Ipv4RoutingProtocol that asks the
// node's AODV agent (aodv/aodv_node.h) for each packet's next hop.
//
//   socket ─ RouteOutput: route up ─► to the next hop on the radio
//                         none ─► loopback: the packet comes back through
//                                 RouteInput and waits in the agent's queue
//   IP in ─ RouteInput: UDP 654 ─► the agent (AODV's own; never delivered)
//                       broadcast or for this node ─► local delivery
//                       from the loopback ─► the agent (a source's packet)
//                       for another node ─► the agent (a relay's)
#pragma once

#include <ns3/ipv4-routing-helper.h>
#include <ns3/ipv4-routing-protocol.h>
#include <ns3/net-device-container.h>
#include <ns3/node-container.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "aodv/aodv_node.h"
#include "network/fixed_interfaces_routing.h"

namespace mantra::sim::aodv {

class AodvRouting : public FixedInterfacesRouting {
 public:
  static ns3::TypeId GetTypeId();

  void attach(AodvNode* node) { node_ = node; }

  ns3::Ptr<ns3::Ipv4Route> RouteOutput(ns3::Ptr<ns3::Packet> p, const ns3::Ipv4Header& header,
                                       ns3::Ptr<ns3::NetDevice> oif, ns3::Socket::SocketErrno& sockerr) override;
  bool RouteInput(ns3::Ptr<const ns3::Packet> p, const ns3::Ipv4Header& header, ns3::Ptr<const ns3::NetDevice> idev,
                  const UnicastForwardCallback& ucb, const MulticastForwardCallback& mcb,
                  const LocalDeliverCallback& lcb, const ErrorCallback& ecb) override;
  void PrintRoutingTable(ns3::Ptr<ns3::OutputStreamWrapper> stream, ns3::Time::Unit unit) const override;

 private:
  void DoDispose() override;
  ns3::Ptr<ns3::Ipv4Route> route_via(ns3::Ipv4Address destination, ns3::Ipv4Address gateway,
                                     ns3::Ptr<ns3::NetDevice> device) const;
  AodvNode* node_ = nullptr;
};

class AodvRoutingHelper : public ns3::Ipv4RoutingHelper {
 public:
  AodvRoutingHelper* Copy() const override { return new AodvRoutingHelper(*this); }
  ns3::Ptr<ns3::Ipv4RoutingProtocol> Create(ns3::Ptr<ns3::Node> node) const override;
};

// Our AODV on `nodes` (their radios `devices`, one each, in the same order):
// call once their internet stacks (with AodvRoutingHelper) and addresses are
// in. The agents' jitter draws from random streams first_stream + node index.
std::vector<std::unique_ptr<AodvNode>> install_aodv(const ns3::NodeContainer& nodes,
                                                    const ns3::NetDeviceContainer& devices, int64_t first_stream);

}  // namespace mantra::sim::aodv
