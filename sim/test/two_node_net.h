// Two nodes `distance_m` apart on the x axis with a radio, an IP stack and
// addresses 10.0.0.1 and 10.0.0.2: the set-up of the radio-level tests.
#pragma once

#include <ns3/core-module.h>
#include <ns3/internet-module.h>
#include <ns3/mobility-module.h>
#include <ns3/network-module.h>

#include "network/radio.h"
#include "network/random_streams.h"

namespace mantra::sim {

struct TwoNodeNet {
  ns3::NodeContainer nodes;
  ns3::NetDeviceContainer devices;
};

inline TwoNodeNet two_node_net(double distance_m, const RadioSpec& radio) {
  using namespace ns3;
  streams::seed_run(1);
  TwoNodeNet net;
  net.nodes.Create(2);
  auto positions = CreateObject<ListPositionAllocator>();
  positions->Add(Vector(0, 0, 0));
  positions->Add(Vector(distance_m, 0, 0));
  MobilityHelper mobility;
  mobility.SetPositionAllocator(positions);
  mobility.Install(net.nodes);
  net.devices = install_radio(radio, ChannelErrorSpec{}, nullptr, net.nodes, 0);
  InternetStackHelper internet;
  internet.Install(net.nodes);
  Ipv4AddressHelper ip;
  ip.SetBase("10.0.0.0", "255.255.255.0");
  ip.Assign(net.devices);
  return net;
}

}  // namespace mantra::sim
