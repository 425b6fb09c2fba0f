// An endpoint node's door to its namespace (endpoint_namespace.h): an ns-3
// FdNetDevice on the TAP's fd that is not an IP interface of the node (no
// address, no queue disc, no routing protocol sees it), so the node's radio,
// queues and routing stay exactly as the spec builds them.
//
//   namespace ──TAP──► FdNetDevice ─┬─ ARP request ─► answered with the device's MAC
//                                   │                 (for every address: the node routes)
//                                   └─ IPv4 from the node's address ─► checksum checked, the
//                                      frame's padding cut, TOS and TTL kept as socket tags
//                                      ─► the node's transport down-call (UDP's down target:
//                                      IP's Send, or our DSR's agent), any IP protocol, as if
//                                      the node's own socket had sent it
//   node's IP ─ local delivery ─► DivertingRouting ─ for_namespace? ─► IPv4 header back on
//                                  (checksum recomputed; TTL and ECN as they arrived) ─► TAP
//
// Which way and why: the namespace holds the node's own address, so AODV and
// DSR, which route to node addresses, reach it with nothing to learn; the
// node answers ARP for everything (proxy ARP), so the namespace needs no
// route but its default one; the kernels on both ends check every checksum
// (ns-3 computes them: ChecksumEnabled in real time).
#pragma once

#include <ns3/fd-net-device.h>
#include <ns3/ipv4-address.h>
#include <ns3/ipv4-header.h>
#include <ns3/mac48-address.h>
#include <ns3/node.h>
#include <ns3/udp-l4-protocol.h>

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "namespace_traffic.h"

namespace mantra::emu {

struct EmuPortCounters {
  int64_t from_namespace = 0;  // IPv4 packets sent on by the node
  int64_t to_namespace = 0;    // packets the node delivered to the namespace
  int64_t write_failed = 0;    // of those, what the TAP refused
  int64_t arp_replies = 0;     // ARP requests answered
  int64_t not_ipv4 = 0;        // frames of another kind (IPv6, LLDP...): dropped
  int64_t bad_packet = 0;      // a header that does not parse, a bad checksum, cut short: dropped
  int64_t foreign_source = 0;  // IPv4 from another address than the node's: dropped
  int64_t not_unicast = 0;     // broadcast or multicast: dropped
  int64_t fragment = 0;        // IP fragments: dropped (the programs send whole datagrams)
};

class EmuPort {
 public:
  // `tap_fd` is the port's own (it is closed when the device stops);
  // `namespace_mac` the TAP's address seen from the namespace.
  EmuPort(ns3::Ptr<ns3::Node> node, ns3::Ipv4Address address, int tap_fd, const std::array<uint8_t, 6>& namespace_mac,
          NodeOwnTraffic own);

  const EmuPortCounters& counters() const { return counters_; }
  nlohmann::json report() const;

 private:
  bool from_tap(ns3::Ptr<ns3::NetDevice>, ns3::Ptr<const ns3::Packet> frame, uint16_t protocol,
                const ns3::Address& from);
  void answer_arp(ns3::Ptr<const ns3::Packet> frame);
  bool divert(ns3::Ptr<const ns3::Packet> packet, const ns3::Ipv4Header& header);

  ns3::Ptr<ns3::Node> node_;
  ns3::Ipv4Address address_;
  ns3::Ipv4Mask mask_;  // of the node's interface holding address_
  ns3::Mac48Address namespace_mac_;
  ns3::Ptr<ns3::FdNetDevice> device_;
  ns3::Ptr<ns3::UdpL4Protocol> udp_;  // its down target is read per packet: our DSR sets it at its start
  NodeOwnTraffic own_;
  EmuPortCounters counters_;
};

}  // namespace mantra::emu
