// Our DSR in ns-3's stack (`routing: dsr`): on each node an Ipv4RoutingProtocol
// that hands every DSR packet (IP protocol 48) up to the DsrL4 shim whatever
// its IP destination (a relay's packets keep the final destination, as in
// ns-2), and gives sockets a route straight to their destination (the
// transport's segments then go to DsrNode, which finds the source route);
// and the shim, IP protocol 48, that passes them to the node's DSR agent.
// Nothing else is forwarded by IP.
//
//   socket ─ RouteOutput: any destination, on the radio ─► UDP/TCP ─► DsrNode
//   IP in ─ RouteInput ─ protocol 48 ─► local delivery ─► DsrL4 ─► DsrNode
//                      └ other, for this node ─► local delivery; else dropped
#pragma once

#include <ns3/ip-l4-protocol.h>
#include <ns3/ipv4-routing-helper.h>
#include <ns3/ipv4-routing-protocol.h>
#include <ns3/ipv4.h>
#include <ns3/net-device-container.h>
#include <ns3/node-container.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "dsr/dsr_node.h"
#include "network/fixed_interfaces_routing.h"

namespace mantra::sim::dsr {

class DsrRouting : public FixedInterfacesRouting {
 public:
  static ns3::TypeId GetTypeId();

  void attach(DsrNode* node) { node_ = node; }

  ns3::Ptr<ns3::Ipv4Route> RouteOutput(ns3::Ptr<ns3::Packet> p, const ns3::Ipv4Header& header,
                                       ns3::Ptr<ns3::NetDevice> oif, ns3::Socket::SocketErrno& sockerr) override;
  bool RouteInput(ns3::Ptr<const ns3::Packet> p, const ns3::Ipv4Header& header, ns3::Ptr<const ns3::NetDevice> idev,
                  const UnicastForwardCallback& ucb, const MulticastForwardCallback& mcb,
                  const LocalDeliverCallback& lcb, const ErrorCallback& ecb) override;
  void PrintRoutingTable(ns3::Ptr<ns3::OutputStreamWrapper> stream, ns3::Time::Unit unit) const override;

 private:
  void DoDispose() override;
  DsrNode* node_ = nullptr;
};

class DsrL4 : public ns3::IpL4Protocol {
 public:
  static ns3::TypeId GetTypeId();
  void attach(DsrNode* node) { node_ = node; }

  int GetProtocolNumber() const override { return kIpProtocolDsr; }
  RxStatus Receive(ns3::Ptr<ns3::Packet> p, const ns3::Ipv4Header& header,
                   ns3::Ptr<ns3::Ipv4Interface> incoming) override;
  RxStatus Receive(ns3::Ptr<ns3::Packet>, const ns3::Ipv6Header&, ns3::Ptr<ns3::Ipv6Interface>) override {
    return RX_ENDPOINT_UNREACH;
  }
  void SetDownTarget(DownTargetCallback cb) override { down_ = cb; }
  void SetDownTarget6(DownTargetCallback6 cb) override { down6_ = cb; }
  DownTargetCallback GetDownTarget() const override { return down_; }
  DownTargetCallback6 GetDownTarget6() const override { return down6_; }

 private:
  void DoDispose() override;
  DsrNode* node_ = nullptr;
  DownTargetCallback down_;
  DownTargetCallback6 down6_;
};

class DsrRoutingHelper : public ns3::Ipv4RoutingHelper {
 public:
  DsrRoutingHelper* Copy() const override { return new DsrRoutingHelper(*this); }
  ns3::Ptr<ns3::Ipv4RoutingProtocol> Create(ns3::Ptr<ns3::Node> node) const override;
};

// Our DSR on `nodes` (their radios `devices`, one each, in the same order):
// call once their internet stacks (with DsrRoutingHelper) and addresses are
// in. The agents' jitter draws from random streams first_stream + node index.
std::vector<std::unique_ptr<DsrNode>> install_dsr(const ns3::NodeContainer& nodes,
                                                  const ns3::NetDeviceContainer& devices, DsrOptions options,
                                                  int64_t first_stream);

}  // namespace mantra::sim::dsr
