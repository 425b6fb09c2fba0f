// A node's routing protocol with one change: what it would deliver to the
// node's own transports, `divert` may take instead (mantra-emu hands it to
// the program in the node's namespace, emu_port.h). Everything else (routes
// out, forwarding, the protocol's own packets, interface notices) is the
// wrapped protocol's, unchanged.
//
//   IP in ─► inner RouteInput ─┬─ forward / routing message ─► as before
//                              └─ local delivery ─► divert(p, header)? ─ yes ─► taken
//                                                                     └ no ─► the node's transports
//
// Local delivery is where every routing protocol of the project ends a
// packet's trip (ours call the callback RouteInput was given, DSR included,
// from its agent), so the diversion needs nothing from any of them.
#pragma once

#include <ns3/ipv4-routing-protocol.h>
#include <ns3/ipv4.h>

#include <functional>

namespace mantra::emu {

class DivertingRouting : public ns3::Ipv4RoutingProtocol {
 public:
  // true: the packet was taken, the node's transports do not see it.
  using Divert = std::function<bool(ns3::Ptr<const ns3::Packet>, const ns3::Ipv4Header&)>;

  static ns3::TypeId GetTypeId();

  // Puts this protocol in front of `ipv4`'s own (which keeps its Ipv4).
  void wrap(ns3::Ptr<ns3::Ipv4> ipv4, Divert divert);

  ns3::Ptr<ns3::Ipv4Route> RouteOutput(ns3::Ptr<ns3::Packet> p, const ns3::Ipv4Header& header,
                                       ns3::Ptr<ns3::NetDevice> oif, ns3::Socket::SocketErrno& sockerr) override;
  bool RouteInput(ns3::Ptr<const ns3::Packet> p, const ns3::Ipv4Header& header, ns3::Ptr<const ns3::NetDevice> idev,
                  const UnicastForwardCallback& ucb, const MulticastForwardCallback& mcb,
                  const LocalDeliverCallback& lcb, const ErrorCallback& ecb) override;
  void NotifyInterfaceUp(uint32_t interface) override { inner_->NotifyInterfaceUp(interface); }
  void NotifyInterfaceDown(uint32_t interface) override { inner_->NotifyInterfaceDown(interface); }
  void NotifyAddAddress(uint32_t interface, ns3::Ipv4InterfaceAddress address) override {
    inner_->NotifyAddAddress(interface, address);
  }
  void NotifyRemoveAddress(uint32_t interface, ns3::Ipv4InterfaceAddress address) override {
    inner_->NotifyRemoveAddress(interface, address);
  }
  void SetIpv4(ns3::Ptr<ns3::Ipv4>) override {}  // the inner protocol has it already
  void PrintRoutingTable(ns3::Ptr<ns3::OutputStreamWrapper> stream, ns3::Time::Unit unit) const override {
    inner_->PrintRoutingTable(stream, unit);
  }

 private:
  void DoDispose() override;

  ns3::Ptr<ns3::Ipv4RoutingProtocol> inner_;
  Divert divert_;
};

}  // namespace mantra::emu
