// The radio's interface queue as ns-2 had it (queue/priqueue.cc, PriQueue
// with Prefer_Routing_Protocols 1): drop-tail, except that a routing packet
// (network/routing_packets.h) goes in at the head, and when that overfills
// the queue the packet at the tail is dropped. Without a routing kind it is
// ns-3's FifoQueueDisc: the same limit check, the same order.
//
//   data packet:    full? drop it : in at the tail
//   routing packet: full? drop the tail packet; in at the head
//
// Its one internal queue is a FlushableQueue (network/flushable_queue.h), so
// the link-failure flush and our DSR's salvage can take packets from its
// middle. A tail packet dropped for a routing packet is reported as a drop
// after dequeue with the reason kRoutingFirstOverflow (network/scenario.cc
// counts it with the queue's overflows).
#pragma once

#include <ns3/queue-disc.h>

#include "network/flushable_queue.h"
#include "network/routing_packets.h"

namespace mantra::sim {

inline constexpr const char* kRoutingFirstOverflow = "Tail dropped for a routing packet";

class PriQueueDisc : public ns3::QueueDisc {
 public:
  static ns3::TypeId GetTypeId();
  PriQueueDisc();
  // Which packets go first; RoutingPackets::kNone (the default) for none.
  void set_routing_first(RoutingPackets kind) { routing_first_ = kind; }

 protected:
  ns3::Ptr<ns3::QueueDiscItem> DoDequeue() override;

 private:
  bool DoEnqueue(ns3::Ptr<ns3::QueueDiscItem> item) override;
  ns3::Ptr<const ns3::QueueDiscItem> DoPeek() override;
  bool CheckConfig() override;
  void InitializeParams() override {}
  bool goes_first(const ns3::QueueDiscItem& item) const;
  FlushableQueue& queue();

  RoutingPackets routing_first_ = RoutingPackets::kNone;
};

}  // namespace mantra::sim
