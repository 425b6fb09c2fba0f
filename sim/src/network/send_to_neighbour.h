// Sends an IP packet whose header is already written to one neighbour's MAC
// (or to every neighbour, for a broadcast gateway) on `device`, past IP's
// routing: how our routing agents put their own packets and the packets they
// forward on the air (IP's Tx trace and the interface queue still see them).
#pragma once

#include <ns3/ipv4-address.h>
#include <ns3/ipv4-header.h>
#include <ns3/ipv4-l3-protocol.h>
#include <ns3/net-device.h>
#include <ns3/packet.h>

namespace mantra::sim {

void send_to_neighbour(ns3::Ptr<ns3::Ipv4L3Protocol> ipv4, ns3::Ptr<ns3::NetDevice> device,
                       ns3::Ptr<ns3::Packet> packet, const ns3::Ipv4Header& header, ns3::Ipv4Address gateway);

}  // namespace mantra::sim
