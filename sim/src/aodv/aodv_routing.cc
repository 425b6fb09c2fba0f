#include "aodv/aodv_routing.h"

#include <ns3/abort.h>
#include <ns3/ipv4-l3-protocol.h>
#include <ns3/ipv4-route.h>
#include <ns3/loopback-net-device.h>
#include <ns3/output-stream-wrapper.h>

namespace mantra::sim::aodv {

using namespace ns3;

NS_OBJECT_ENSURE_REGISTERED(AodvRouting);

TypeId AodvRouting::GetTypeId() {
  static TypeId tid = TypeId("mantra::AodvRouting").SetParent<Ipv4RoutingProtocol>().SetGroupName("Mantra");
  return tid;
}

Ptr<Ipv4Route> AodvRouting::route_via(Ipv4Address destination, Ipv4Address gateway, Ptr<NetDevice> device) const {
  Ptr<Ipv4Route> route = Create<Ipv4Route>();
  route->SetDestination(destination);
  route->SetGateway(gateway);
  route->SetSource(ipv4_->GetAddress(node_->radio_interface(), 0).GetLocal());
  route->SetOutputDevice(device);
  return route;
}

Ptr<Ipv4Route> AodvRouting::RouteOutput(Ptr<ns3::Packet>, const Ipv4Header& header, Ptr<NetDevice>,
                                        Socket::SocketErrno& sockerr) {
  NS_ABORT_MSG_UNLESS(node_, "a socket routed before install_aodv attached the node");
  sockerr = Socket::ERROR_NOTERROR;
  const Ipv4Address destination = header.GetDestination();
  if (destination.IsBroadcast() || destination.IsMulticast()) {
    return route_via(destination, destination, node_->radio());
  }
  if (auto next_hop = node_->agent().route_output(destination.Get())) {
    return route_via(destination, Ipv4Address(*next_hop), node_->radio());
  }
  for (uint32_t i = 0; i < ipv4_->GetNInterfaces(); ++i) {  // held: back through RouteInput
    if (DynamicCast<LoopbackNetDevice>(ipv4_->GetNetDevice(i))) {
      return route_via(destination, Ipv4Address::GetLoopback(), ipv4_->GetNetDevice(i));
    }
  }
  sockerr = Socket::ERROR_NOROUTETOHOST;
  return nullptr;
}

bool AodvRouting::RouteInput(Ptr<const ns3::Packet> p, const Ipv4Header& header, Ptr<const NetDevice> idev,
                             const UnicastForwardCallback&, const MulticastForwardCallback&,
                             const LocalDeliverCallback& lcb, const ErrorCallback&) {
  NS_ABORT_MSG_UNLESS(node_, "a packet in before install_aodv attached the node");
  const Ipv4Address destination = header.GetDestination();
  const int32_t iif = ipv4_->GetInterfaceForDevice(idev);
  if (destination.IsMulticast()) return false;
  if (is_aodv_message(header, p)) {
    node_->from_aodv(p, header);
    return true;
  }
  if (DynamicCast<const LoopbackNetDevice>(idev) && !ipv4_->IsDestinationAddress(destination, iif)) {
    node_->from_socket(p, header);
    return true;
  }
  if (destination.IsBroadcast() || ipv4_->IsDestinationAddress(destination, static_cast<uint32_t>(iif))) {
    lcb(p, header, static_cast<uint32_t>(iif));
    return true;
  }
  node_->relay(p, header);
  return true;
}

void AodvRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit) const {
  *stream->GetStream() << "AODV (ns-2's), " << (node_ ? node_->agent().table().all().size() : 0) << " routes\n";
}

void AodvRouting::DoDispose() {
  node_ = nullptr;
  FixedInterfacesRouting::DoDispose();
}

Ptr<Ipv4RoutingProtocol> AodvRoutingHelper::Create(Ptr<Node>) const { return CreateObject<AodvRouting>(); }

std::vector<std::unique_ptr<AodvNode>> install_aodv(const NodeContainer& nodes, const NetDeviceContainer& devices,
                                                    int64_t first_stream) {
  NS_ABORT_MSG_UNLESS(nodes.GetN() == devices.GetN(), "one radio per AODV node");
  const std::shared_ptr<const MacBook> macs = mac_book_of(nodes, devices);
  std::vector<std::unique_ptr<AodvNode>> aodv_nodes;
  for (uint32_t i = 0; i < nodes.GetN(); ++i) {
    Ptr<Node> node = nodes.Get(i);
    Ptr<UniformRandomVariable> random = CreateObject<UniformRandomVariable>();
    random->SetStream(first_stream + i);
    auto aodv_node = std::make_unique<AodvNode>(node, devices.Get(i), macs, random);
    Ptr<AodvRouting> routing = DynamicCast<AodvRouting>(node->GetObject<Ipv4>()->GetRoutingProtocol());
    NS_ABORT_MSG_UNLESS(routing, "node " << i << " has no AodvRouting (InternetStackHelper needs AodvRoutingHelper)");
    routing->attach(aodv_node.get());
    aodv_node->start();
    aodv_nodes.push_back(std::move(aodv_node));
  }
  return aodv_nodes;
}

}  // namespace mantra::sim::aodv
