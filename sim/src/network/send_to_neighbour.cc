#include "network/send_to_neighbour.h"

#include <ns3/ipv4-route.h>

namespace mantra::sim {

void send_to_neighbour(ns3::Ptr<ns3::Ipv4L3Protocol> ipv4, ns3::Ptr<ns3::NetDevice> device,
                       ns3::Ptr<ns3::Packet> packet, const ns3::Ipv4Header& header, ns3::Ipv4Address gateway) {
  ns3::Ptr<ns3::Ipv4Route> route = ns3::Create<ns3::Ipv4Route>();
  route->SetDestination(header.GetDestination());
  route->SetSource(ipv4->GetAddress(ipv4->GetInterfaceForDevice(device), 0).GetLocal());
  route->SetGateway(gateway);
  route->SetOutputDevice(device);
  ipv4->SendWithHeader(packet, header, route);
}

}  // namespace mantra::sim
