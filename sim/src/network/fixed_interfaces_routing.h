// The base of our own routing protocols (the oracle, our DSR): an ns-3
// Ipv4RoutingProtocol on a node whose interfaces and addresses never change
// once the routing is installed (every network this project builds), so
// their notifications are ignored; the node's Ipv4 is kept for the subclass.
#pragma once

#include <ns3/ipv4-routing-protocol.h>
#include <ns3/ipv4.h>

namespace mantra::sim {

class FixedInterfacesRouting : public ns3::Ipv4RoutingProtocol {
 public:
  void NotifyInterfaceUp(uint32_t) override {}
  void NotifyInterfaceDown(uint32_t) override {}
  void NotifyAddAddress(uint32_t, ns3::Ipv4InterfaceAddress) override {}
  void NotifyRemoveAddress(uint32_t, ns3::Ipv4InterfaceAddress) override {}
  void SetIpv4(ns3::Ptr<ns3::Ipv4> ipv4) override { ipv4_ = ipv4; }

 protected:
  void DoDispose() override {
    ipv4_ = nullptr;
    ns3::Ipv4RoutingProtocol::DoDispose();
  }

  ns3::Ptr<ns3::Ipv4> ipv4_;
};

}  // namespace mantra::sim
