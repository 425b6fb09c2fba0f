#include "dsr/dsr_routing.h"

#include <ns3/abort.h>
#include <ns3/ipv4-l3-protocol.h>
#include <ns3/mac48-address.h>

namespace mantra::sim::dsr {

using namespace ns3;

TypeId DsrRouting::GetTypeId() {
  static TypeId tid = TypeId("mantra::DsrRouting").SetParent<Ipv4RoutingProtocol>().SetGroupName("Mantra");
  return tid;
}

Ptr<Ipv4Route> DsrRouting::RouteOutput(Ptr<ns3::Packet>, const Ipv4Header& header, Ptr<NetDevice>,
                                       Socket::SocketErrno& sockerr) {
  NS_ABORT_MSG_UNLESS(node_, "a socket routed before install_dsr attached the node");
  const uint32_t radio = node_->radio_interface();
  Ptr<Ipv4Route> route = Create<Ipv4Route>();
  route->SetDestination(header.GetDestination());
  route->SetGateway(header.GetDestination());
  route->SetSource(ipv4_->GetAddress(radio, 0).GetLocal());
  route->SetOutputDevice(ipv4_->GetNetDevice(radio));
  sockerr = Socket::ERROR_NOTERROR;
  return route;
}

bool DsrRouting::RouteInput(Ptr<const ns3::Packet> p, const Ipv4Header& header, Ptr<const NetDevice> idev,
                            const UnicastForwardCallback&, const MulticastForwardCallback&,
                            const LocalDeliverCallback& lcb, const ErrorCallback&) {
  const int32_t iif = ipv4_->GetInterfaceForDevice(idev);
  if (header.GetProtocol() == kIpProtocolDsr) {
    NS_ABORT_MSG_UNLESS(node_, "DSR packet before install_dsr attached the node");
    node_->set_local_deliver(lcb);
    lcb(p, header, iif);
    return true;
  }
  if (ipv4_->IsDestinationAddress(header.GetDestination(), iif)) {
    lcb(p, header, iif);
    return true;
  }
  return false;
}

void DsrRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit) const {
  *stream->GetStream() << "DSR (source routes; see the agent's cache)\n";
}

void DsrRouting::DoDispose() {
  node_ = nullptr;
  FixedInterfacesRouting::DoDispose();
}

TypeId DsrL4::GetTypeId() {
  static TypeId tid = TypeId("mantra::DsrL4").SetParent<IpL4Protocol>().SetGroupName("Mantra");
  return tid;
}

IpL4Protocol::RxStatus DsrL4::Receive(Ptr<ns3::Packet> p, const Ipv4Header& header, Ptr<Ipv4Interface>) {
  node_->from_ip(p, header);
  return RX_OK;
}

void DsrL4::DoDispose() {
  node_ = nullptr;
  IpL4Protocol::DoDispose();
}

Ptr<Ipv4RoutingProtocol> DsrRoutingHelper::Create(Ptr<Node>) const { return CreateObject<DsrRouting>(); }

std::vector<std::unique_ptr<DsrNode>> install_dsr(const NodeContainer& nodes, const NetDeviceContainer& devices,
                                                  DsrOptions options, int64_t first_stream) {
  NS_ABORT_MSG_UNLESS(nodes.GetN() == devices.GetN(), "one radio per DSR node");
  const std::shared_ptr<const MacBook> macs = mac_book_of(nodes, devices);
  std::vector<std::unique_ptr<DsrNode>> dsr_nodes;
  for (uint32_t i = 0; i < nodes.GetN(); ++i) {
    Ptr<Node> node = nodes.Get(i);
    Ptr<UniformRandomVariable> random = CreateObject<UniformRandomVariable>();
    random->SetStream(first_stream + i);
    auto dsr_node = std::make_unique<DsrNode>(node, devices.Get(i), macs, options, random);
    Ptr<DsrRouting> routing = DynamicCast<DsrRouting>(node->GetObject<Ipv4>()->GetRoutingProtocol());
    NS_ABORT_MSG_UNLESS(routing, "node " << i << " has no DsrRouting (InternetStackHelper needs DsrRoutingHelper)");
    routing->attach(dsr_node.get());
    Ptr<DsrL4> l4 = CreateObject<DsrL4>();
    l4->attach(dsr_node.get());
    node->GetObject<Ipv4L3Protocol>()->Insert(l4);
    dsr_node->start();
    dsr_nodes.push_back(std::move(dsr_node));
  }
  return dsr_nodes;
}

}  // namespace mantra::sim::dsr
