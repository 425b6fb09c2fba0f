// One node's DSR in ns-3: the agent (dsr/dsr_agent.h) and the node it runs
// on. It is the node's DsrHost and its hooks into ns-3:
//
//   UDP/TCP down target ──► from_transport ──► agent.send
//   IP protocol 48 in (any destination: DsrRouting hands every DSR packet up)
//                       ──► from_ip ──► agent.receive
//   a unicast frame for another node (promiscuous) ──► overheard ──► agent.overhear
//   the MAC's retry limit on a DSR frame ──► mac_dropped ──► agent.transmit_failed
//   ARP gave up on the next hop (no answer to its requests) ──► arp_dropped
//                       ──► agent.transmit_failed (ns-2's ARP called the routing
//                       agent's xmit_failure); a packet ARP drops because its
//                       pending queue is full is only lost
//   agent.transmit ──► Ipv4L3Protocol::SendWithHeader to the next hop's MAC
//                      (the IP destination stays the final one, as in ns-2)
//   agent.deliver  ──► IP's local delivery with the transport's protocol
//                      (so IP's LocalDeliver trace and the sockets see it)
//   agent.take_queued ──► the queue disc and MAC queue's packets for that
//                      neighbour (network/queued_for.h)
//   the send-buffer check ──► every 30-60 ms, from a random start in the first 30 ms
#pragma once

#include <ns3/ipv4-interface.h>
#include <ns3/ipv4-l3-protocol.h>
#include <ns3/ipv4-route.h>
#include <ns3/ipv4-routing-protocol.h>
#include <ns3/net-device.h>
#include <ns3/node.h>
#include <ns3/random-variable-stream.h>
#include <ns3/wifi-mac.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>

#include "dsr/dsr_agent.h"
#include "network/mac_book.h"

namespace mantra::sim::dsr {

class DsrNode : public DsrHost {
 public:
  DsrNode(ns3::Ptr<ns3::Node> node, ns3::Ptr<ns3::NetDevice> device, std::shared_ptr<const MacBook> macs,
          DsrOptions options, ns3::Ptr<ns3::UniformRandomVariable> random);

  // Hooks the transports, the promiscuous tap and the MAC; starts the timer.
  void start();
  uint32_t radio_interface() const { return interface_; }
  // IP's local delivery, as DsrRouting is given it with each packet in.
  void set_local_deliver(const ns3::Ipv4RoutingProtocol::LocalDeliverCallback& local_deliver) {
    if (local_deliver_.IsNull()) local_deliver_ = local_deliver;  // the same callback every time
  }

  const DsrAgent& agent() const { return *agent_; }
  // Packets dropped by reason (DropReason's order).
  const std::array<int64_t, kDropReasons>& drops() const { return drops_; }
  // Transport packets delivered here, and the hops they crossed (read from
  // their IP TTL against IP's default: every relay lowers it by one, a
  // salvage's detour included; a transport that sets its own TTL is not
  // counted).
  int64_t delivered() const { return delivered_; }
  int64_t delivered_hops() const { return delivered_hops_; }

  // From ns-3.
  void from_transport(ns3::Ptr<ns3::Packet> packet, ns3::Ipv4Address source, ns3::Ipv4Address destination,
                      uint8_t protocol, ns3::Ptr<ns3::Ipv4Route> route);
  void from_ip(ns3::Ptr<ns3::Packet> packet, const ns3::Ipv4Header& ip);

  // DsrHost
  double now_s() const override;
  double uniform_s(double max_s) override;
  void transmit(Packet p, Address next_hop, double delay_s) override;
  void deliver(Packet p) override;
  void drop(const Packet& p, DropReason why) override;
  std::vector<Packet> take_queued(Address next_hop) override;

 private:
  void overheard(ns3::Ptr<ns3::NetDevice> device, ns3::Ptr<const ns3::Packet> packet, uint16_t protocol,
                 const ns3::Address& from, const ns3::Address& to, ns3::NetDevice::PacketType type);
  void mac_dropped(ns3::WifiMacDropReason reason, ns3::Ptr<const ns3::WifiMpdu> mpdu);
  void arp_dropped(ns3::Ptr<const ns3::Packet> dropped);
  void link_failed(Packet p);
  void send_now(Packet p, Address next_hop);
  void check_send_buffer();

  ns3::Ptr<ns3::Node> node_;
  ns3::Ptr<ns3::NetDevice> device_;
  ns3::Ptr<ns3::Ipv4L3Protocol> ipv4_;
  uint32_t interface_ = 0;
  uint8_t default_ttl_ = 64;  // IP's DefaultTtl, what a transport's packet starts with
  Address self_ = 0;
  std::shared_ptr<const MacBook> macs_;
  DsrOptions options_;
  ns3::Ptr<ns3::UniformRandomVariable> random_;
  ns3::Ipv4RoutingProtocol::LocalDeliverCallback local_deliver_;
  std::unique_ptr<DsrAgent> agent_;
  std::array<int64_t, kDropReasons> drops_{};
  int64_t delivered_ = 0;
  int64_t delivered_hops_ = 0;
};

// Reads a DSR packet from an IP header and what follows it, which it takes
// (the DSR header is removed from it; the rest becomes the payload); nullopt
// when the DSR header is refused.
std::optional<Packet> read_packet(const ns3::Ipv4Header& ip, ns3::Ptr<ns3::Packet> after_ip);

}  // namespace mantra::sim::dsr
