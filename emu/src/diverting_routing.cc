#include "diverting_routing.h"

#include <stdexcept>

namespace mantra::emu {

using namespace ns3;

NS_OBJECT_ENSURE_REGISTERED(DivertingRouting);

TypeId DivertingRouting::GetTypeId() {
  static TypeId tid = TypeId("mantra::DivertingRouting")
                          .SetParent<Ipv4RoutingProtocol>()
                          .SetGroupName("Mantra")
                          .AddConstructor<DivertingRouting>();
  return tid;
}

void DivertingRouting::wrap(Ptr<Ipv4> ipv4, Divert divert) {
  inner_ = ipv4->GetRoutingProtocol();
  if (!inner_) throw std::logic_error("DivertingRouting: the node has no routing protocol to wrap");
  divert_ = std::move(divert);
  ipv4->SetRoutingProtocol(this);
}

Ptr<Ipv4Route> DivertingRouting::RouteOutput(Ptr<Packet> p, const Ipv4Header& header, Ptr<NetDevice> oif,
                                             Socket::SocketErrno& sockerr) {
  return inner_->RouteOutput(p, header, oif, sockerr);
}

bool DivertingRouting::RouteInput(Ptr<const Packet> p, const Ipv4Header& header, Ptr<const NetDevice> idev,
                                  const UnicastForwardCallback& ucb, const MulticastForwardCallback& mcb,
                                  const LocalDeliverCallback& lcb, const ErrorCallback& ecb) {
  const LocalDeliverCallback delivered = [this, lcb](Ptr<const Packet> packet, const Ipv4Header& ip, uint32_t iif) {
    if (!divert_(packet, ip)) lcb(packet, ip, iif);
  };
  return inner_->RouteInput(p, header, idev, ucb, mcb, delivered, ecb);
}

void DivertingRouting::DoDispose() {
  if (inner_) inner_->Dispose();  // the node's Ipv4 disposes only the protocol in front
  inner_ = nullptr;
  divert_ = nullptr;
  Ipv4RoutingProtocol::DoDispose();
}

}  // namespace mantra::emu
