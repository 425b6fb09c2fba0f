// Two nodes on a 2 Mb/s point-to-point link with a 100-packet queue (no
// congestion loss), the run seeded and the project's TCP defaults set, for
// the TCP tests: each node's receive error model (optional) scripts what it
// loses. Addresses in 10.1.0.0/24: node 0 is .1, node 1 is .2.
#pragma once

#include <ns3/core-module.h>
#include <ns3/internet-module.h>
#include <ns3/network-module.h>
#include <ns3/point-to-point-module.h>

#include <string>

#include "apps/tcp_flow.h"
#include "network/random_streams.h"

namespace mantra::sim {

struct TwoNodeWire {
  ns3::NodeContainer nodes;
  ns3::Ipv4InterfaceContainer addresses;
};

inline TwoNodeWire two_node_wire(const std::string& delay, ns3::Ptr<ns3::ErrorModel> node1_loses,
                                 ns3::Ptr<ns3::ErrorModel> node0_loses = nullptr) {
  using namespace ns3;
  streams::seed_run(1);
  configure_tcp_defaults();
  TwoNodeWire w;
  w.nodes.Create(2);
  PointToPointHelper p2p;
  p2p.SetDeviceAttribute("DataRate", StringValue("2Mbps"));
  p2p.SetChannelAttribute("Delay", StringValue(delay));
  p2p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("100p"));
  NetDeviceContainer devices = p2p.Install(w.nodes);
  if (node1_loses) devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(node1_loses));
  if (node0_loses) devices.Get(0)->SetAttribute("ReceiveErrorModel", PointerValue(node0_loses));
  InternetStackHelper internet;
  internet.Install(w.nodes);
  Ipv4AddressHelper ip;
  ip.SetBase("10.1.0.0", "255.255.255.0");
  w.addresses = ip.Assign(devices);
  return w;
}

}  // namespace mantra::sim
