// ELFN's explicit link-failure notice (Holland & Vaidya 1999), from our own
// code on every node, so it works the same under AODV and DSR (3.44's DSR
// gives no MAC feedback of its own; in ns-2 the notice rode on DSR's route
// error).
//
// A node whose MAC gives up on a frame (retry limit reached, the MAC's
// DroppedMpdu trace) that holds a data segment of a flow with ELFN sends that
// flow's source a notice: a real UDP packet of 28 bytes (the size of the IP
// header and 8 bytes of transport header an ICMP error quotes), routed like
// any packet, which can itself be lost. On the source's node the notice
// reaches the flow's socket, which freezes (variant_tcp_socket.h). A MAC
// failure on the source's own first hop is known there at once. Notices for
// a frozen socket are counted and ignored.
#pragma once

#include <ns3/node-container.h>
#include <ns3/socket.h>
#include <ns3/wifi-mac.h>
#include <ns3/wifi-mpdu.h>

#include <cstdint>
#include <map>

#include "tcp/variant_tcp_socket.h"

namespace mantra::sim {

class ElfnNotices {
 public:
  // The UDP port of the notices on every node.
  static constexpr uint16_t kPort = 3999;
  static constexpr uint32_t kNoticeBytes = 28;

  // Hooks the MAC of every Wi-Fi device of `nodes` and opens the notice port
  // on every node; `nodes` must have their IP stacks and routing.
  void install(const ns3::NodeContainer& nodes);
  // Notices for `flow` go to `socket` on node `node` at `address`.
  void register_source(uint32_t flow, uint32_t node, ns3::Ipv4Address address, ns3::Ptr<VariantTcpSocket> socket);

  struct FlowCounts {
    int64_t sent = 0;       // notices sent towards the source (or raised on the source's own node)
    int64_t delivered = 0;  // notices that reached the source's socket
  };
  FlowCounts counts(uint32_t flow) const;

 private:
  struct Source {
    uint32_t node = 0;
    ns3::Ipv4Address address;
    ns3::Ptr<VariantTcpSocket> socket;
  };
  void on_mac_drop(uint32_t node, ns3::WifiMacDropReason reason, ns3::Ptr<const ns3::WifiMpdu> mpdu);
  void on_receive(ns3::Ptr<ns3::Socket> socket);
  void deliver(uint32_t flow);

  std::map<uint32_t, Source> sources_;
  std::map<uint32_t, FlowCounts> counts_;
  std::map<uint32_t, ns3::Ptr<ns3::Socket>> sockets_;  // node id -> its notice port
};

}  // namespace mantra::sim
