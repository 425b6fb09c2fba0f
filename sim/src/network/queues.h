// The queue discs of a run: drop-tail FIFO, or RED with ECN marking (the
// TF-WMFC paper's routers), installed under IP on a link's devices.
//
// RED's numbers the spec leaves unset come from the TF-WMFC paper's Table 1
// at the link's rate C (Mb/s): limit 400C/16, min_th 5C/16, max_th 50C/16
// packets, max_p 1.0, w_q 0.002. On the 2 Mb/s radio that is exactly ns-2's
// 50-packet interface queue, with min_th 0.625 and max_th 6.25 packets.
// ns-3 choices the paper does not make, each a spec key with ns-3's default:
// gentle (true), hard_drop (true: where the average forces a drop, drop even
// ECN-capable packets), MeanPktSize 1000 bytes (the paper's packets), and the
// one-packet device queue under the disc (set by the topology builders), so
// that RED sees the backlog. Every disc keeps its packets in a
// FlushableQueue (a drop-tail queue that can also drop from its middle, for
// the link-failure flush); it queues and drops exactly as ns-3's drop-tail.
#pragma once

#include <ns3/net-device-container.h>

#include <string>

#include "network/routing_packets.h"
#include "spec/spec.h"

namespace mantra::sim {

struct RedNumbers {
  int limit = 0;
  double min_th = 0, max_th = 0;
};

// RED's limit and thresholds for a link of `link_bps`: the spec's, or Table 1's.
RedNumbers red_numbers(const QueueSpec& q, double link_bps);

// Installs `q` on every device of `devices` (before any address is assigned,
// or ns-3 puts its own default disc there). A drop-tail queue without a
// limit holds `default_limit` packets; `fifo_type` is the drop-tail disc's
// TypeId: ns3::FifoQueueDisc on wired links; on the radio
// mantra::PriQueueDisc (network/pri_queue_disc.h), or its subclass
// mantra::LatpQueueDisc on LATP's radios, with `routing_first` the routing
// packets it puts at the head.
void install_queue(ns3::NetDeviceContainer& devices, const QueueSpec& q, double link_bps, double link_delay_s,
                   int default_limit, const std::string& fifo_type = "ns3::FifoQueueDisc",
                   RoutingPackets routing_first = RoutingPackets::kNone);

}  // namespace mantra::sim
