// One node's AODV in ns-3: the agent (aodv/aodv_agent.h) and the node it runs
// on. It is the node's AodvHost and its hooks into ns-3:
//
//   a socket's packet, route up ──► AodvRouting::RouteOutput ─► agent.route_output
//   a socket's packet, no route ──► loopback, back through RouteInput ─► agent.route
//   IP in: UDP to port 654 ──► from_aodv ──► agent.receive (decoded; refused bytes counted)
//          for another node ──► relay: TTL - 1 (0: dropped) ─► agent.route
//   the MAC's retry limit on a data frame ──► mac_dropped ──► agent.link_failed
//   ARP gave up on the next hop ──► arp_dropped ──► agent.link_failed (ns-2's
//          ARP called the routing agent's xmit_failure)
//   agent.send_message ──► UDP 654 in an IP packet of its own, sent to the
//          neighbour's MAC or broadcast (Ipv4L3Protocol::SendWithHeader)
//   agent.forward ──► the packet with its IP header, to the next hop's MAC
//   agent.take_queued ──► the queue disc and MAC queue's packets for that
//          neighbour (network/queued_for.h)
//   the purge ──► every 0.5 s from the start, every node in step (ns-2's)
#pragma once

#include <ns3/ipv4-header.h>
#include <ns3/ipv4-l3-protocol.h>
#include <ns3/net-device.h>
#include <ns3/node.h>
#include <ns3/packet.h>
#include <ns3/random-variable-stream.h>
#include <ns3/wifi-mac.h>

#include <array>
#include <cstdint>
#include <memory>

#include "aodv/aodv_agent.h"
#include "network/mac_book.h"

namespace mantra::sim::aodv {

class AodvNode : public AodvHost {
 public:
  AodvNode(ns3::Ptr<ns3::Node> node, ns3::Ptr<ns3::NetDevice> device, std::shared_ptr<const MacBook> macs,
           ns3::Ptr<ns3::UniformRandomVariable> random);

  // Hooks the MAC and ARP; starts the purge.
  void start();
  uint32_t radio_interface() const { return interface_; }
  ns3::Ptr<ns3::NetDevice> radio() const { return device_; }

  const AodvAgent& agent() const { return *agent_; }
  AodvAgent& agent() { return *agent_; }
  const std::array<int64_t, kDropReasons>& drops() const { return drops_; }
  int64_t malformed() const { return malformed_; }
  int64_t ttl_drops() const { return ttl_drops_; }

  // From AodvRouting.
  void from_aodv(ns3::Ptr<const ns3::Packet> udp, const ns3::Ipv4Header& ip);
  void from_socket(ns3::Ptr<const ns3::Packet> packet, const ns3::Ipv4Header& ip);  // held: no route when sent
  void relay(ns3::Ptr<const ns3::Packet> packet, ns3::Ipv4Header ip);

  // AodvHost
  double now_s() const override;
  double uniform_s(double max_s) override;
  void send_message(const Message& m, Address to, uint8_t ttl, double delay_s) override;
  void forward(DataPacket p, Address next_hop, double delay_s) override;
  void drop(const DataPacket& p, DropReason why) override;
  std::vector<DataPacket> take_queued(Address next_hop) override;

 private:
  DataPacket data_packet(ns3::Ptr<const ns3::Packet> packet, const ns3::Ipv4Header& ip) const;
  void send_now(ns3::Ptr<ns3::Packet> packet, const ns3::Ipv4Header& ip, Address next_hop);
  void mac_dropped(ns3::WifiMacDropReason reason, ns3::Ptr<const ns3::WifiMpdu> mpdu);
  void arp_dropped(ns3::Ptr<const ns3::Packet> dropped);
  void link_failed(DataPacket p, Address next_hop);
  void purge();

  ns3::Ptr<ns3::Node> node_;
  ns3::Ptr<ns3::NetDevice> device_;
  ns3::Ptr<ns3::Ipv4L3Protocol> ipv4_;
  uint32_t interface_ = 0;
  uint8_t default_ttl_ = 64;
  Address self_ = 0;
  std::shared_ptr<const MacBook> macs_;
  ns3::Ptr<ns3::UniformRandomVariable> random_;
  std::unique_ptr<AodvAgent> agent_;
  std::array<int64_t, kDropReasons> drops_{};
  int64_t malformed_ = 0;
  int64_t ttl_drops_ = 0;
};

// Whether an IP packet is one of AODV's own: UDP to port 654 (`after_ip`: what follows the IP header).
bool is_aodv_message(const ns3::Ipv4Header& ip, ns3::Ptr<const ns3::Packet> after_ip);

}  // namespace mantra::sim::aodv
