#include "network/oracle_routing.h"

#include <ns3/ipv4-route.h>
#include <ns3/loopback-net-device.h>
#include <ns3/node.h>
#include <ns3/output-stream-wrapper.h>
#include <ns3/simulator.h>

#include <utility>

namespace mantra::sim {

using namespace ns3;

NS_OBJECT_ENSURE_REGISTERED(OracleRouting);

TypeId OracleRouting::GetTypeId() {
  static TypeId tid = TypeId("mantra::OracleRouting").SetParent<Ipv4RoutingProtocol>().SetGroupName("Mantra");
  return tid;
}

Ptr<Ipv4Route> OracleRouting::route_to(Ipv4Address destination) {
  const auto to = routes_->node_of(destination);
  if (!to) return nullptr;
  const auto via = routes_->next_hop(node_, *to);
  if (!via) return nullptr;
  const Ipv4Address own = routes_->address_of(node_);
  auto route = Create<Ipv4Route>();
  route->SetDestination(destination);
  route->SetSource(own);
  route->SetGateway(routes_->address_of(*via));
  if (!radio_) radio_ = ipv4_->GetNetDevice(static_cast<uint32_t>(ipv4_->GetInterfaceForAddress(own)));
  route->SetOutputDevice(radio_);
  return route;
}

Ptr<Ipv4Route> OracleRouting::loopback_route(Ipv4Address destination) const {
  auto route = Create<Ipv4Route>();
  route->SetDestination(destination);
  route->SetSource(routes_->address_of(node_));
  route->SetGateway(Ipv4Address::GetLoopback());
  for (uint32_t i = 0; i < ipv4_->GetNInterfaces(); ++i) {
    if (is_loopback(ipv4_->GetNetDevice(i))) route->SetOutputDevice(ipv4_->GetNetDevice(i));
  }
  return route;
}

bool OracleRouting::is_loopback(Ptr<const NetDevice> device) const {
  return DynamicCast<const LoopbackNetDevice>(device) != nullptr;
}

Ptr<Ipv4Route> OracleRouting::RouteOutput(Ptr<Packet>, const Ipv4Header& header, Ptr<NetDevice>,
                                          Socket::SocketErrno& sockerr) {
  const Ipv4Address destination = header.GetDestination();
  sockerr = Socket::ERROR_NOTERROR;
  if (destination.IsBroadcast() || destination.IsMulticast() || destination == routes_->address_of(node_)) {
    return loopback_route(destination);  // delivered here (RouteInput)
  }
  if (Ptr<Ipv4Route> route = route_to(destination)) return route;
  if (!routes_->node_of(destination)) {
    sockerr = Socket::ERROR_NOROUTETOHOST;  // not a node of this network
    return nullptr;
  }
  return loopback_route(destination);  // held in RouteInput until a path appears
}

bool OracleRouting::RouteInput(Ptr<const Packet> p, const Ipv4Header& header, Ptr<const NetDevice> idev,
                               const UnicastForwardCallback& ucb, const MulticastForwardCallback&,
                               const LocalDeliverCallback& lcb, const ErrorCallback& ecb) {
  const Ipv4Address destination = header.GetDestination();
  const int32_t in = ipv4_->GetInterfaceForDevice(idev);
  if (destination.IsMulticast()) return false;
  if (destination.IsBroadcast() || ipv4_->IsDestinationAddress(destination, static_cast<uint32_t>(in))) {
    lcb(p, header, static_cast<uint32_t>(in));
    return true;
  }
  if (is_loopback(idev)) {  // our own packet that had no path when it was sent
    hold({p, header, ucb, ecb, Simulator::Now()});
    return true;
  }
  if (!ipv4_->IsForwarding(static_cast<uint32_t>(in))) {
    ecb(p, header, Socket::ERROR_NOROUTETOHOST);
    return true;
  }
  if (Ptr<Ipv4Route> route = route_to(destination)) {
    ucb(route, p, header);
  } else {
    ecb(p, header, Socket::ERROR_NOROUTETOHOST);
  }
  return true;
}

void OracleRouting::hold(Held held) {
  if (held_.size() == kHeldPackets) {
    Held oldest = std::move(held_.front());
    held_.pop_front();
    oldest.drop(oldest.packet, oldest.header, Socket::ERROR_NOROUTETOHOST);
  }
  held_.push_back(std::move(held));
  if (!retry_.IsPending()) {
    retry_ = Simulator::Schedule(MilliSeconds(OracleRoutes::kRefreshMs), &OracleRouting::release_held, this);
  }
}

void OracleRouting::release_held() {
  std::deque<Held> still;
  const Time now = Simulator::Now();
  for (Held& h : held_) {
    if (Ptr<Ipv4Route> route = route_to(h.header.GetDestination())) {
      h.forward(route, h.packet, h.header);
    } else if (now - h.since >= MilliSeconds(kHoldMs)) {
      h.drop(h.packet, h.header, Socket::ERROR_NOROUTETOHOST);
    } else {
      still.push_back(std::move(h));
    }
  }
  held_ = std::move(still);
  if (!held_.empty()) {
    retry_ = Simulator::Schedule(MilliSeconds(OracleRoutes::kRefreshMs), &OracleRouting::release_held, this);
  }
}

void OracleRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit) const {
  *stream->GetStream() << "oracle routing, node " << node_ << ": " << held_.size() << " packets held\n";
}

void OracleRouting::DoDispose() {
  retry_.Cancel();
  held_.clear();
  radio_ = nullptr;
  FixedInterfacesRouting::DoDispose();
}

Ptr<Ipv4RoutingProtocol> OracleRoutingHelper::Create(Ptr<Node> node) const {
  return CreateObject<OracleRouting>(routes_, routes_->index_of(node));
}

}  // namespace mantra::sim
