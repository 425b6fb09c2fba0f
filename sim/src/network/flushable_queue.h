// A queue disc's internal drop-tail queue that can also drop the items a
// predicate picks from anywhere in it (ns-3's queues remove only at the
// head). Every queue disc of a run holds its packets in one of these
// (network/queues.cc), so the link-failure flush (network/link_failure_flush.h)
// can do what ns-2's PriQueue::filter does. A removed item goes through the
// queue's own drop-after-dequeue path: the disc counts it as a drop after
// dequeue, with its statistics kept consistent.
#pragma once

#include <ns3/queue-item.h>
#include <ns3/queue.h>

#include <functional>

namespace mantra::sim {

class FlushableQueue : public ns3::Queue<ns3::QueueDiscItem> {
 public:
  static ns3::TypeId GetTypeId();

  // Drop-tail: in at the tail, out at the head (ns-3's DropTailQueue).
  bool Enqueue(ns3::Ptr<ns3::QueueDiscItem> item) override;
  ns3::Ptr<ns3::QueueDiscItem> Dequeue() override;
  ns3::Ptr<ns3::QueueDiscItem> Remove() override;
  ns3::Ptr<const ns3::QueueDiscItem> Peek() const override;

  // ns-2's enqueHead: in at the head (network/pri_queue_disc.h). False, and
  // the item dropped by the queue, when it is full.
  bool enqueue_head(ns3::Ptr<ns3::QueueDiscItem> item);
  // The item at the tail, taken out as a dequeue (no drop counted here: the
  // caller reports it); null when empty.
  ns3::Ptr<ns3::QueueDiscItem> take_tail();

  // Drops every item `doomed` picks, in queue order, after calling
  // `before_drop` on it; the others keep their order. Returns how many.
  int64_t remove_if(const std::function<bool(const ns3::QueueDiscItem&)>& doomed,
                    const std::function<void(const ns3::QueueDiscItem&)>& before_drop);
};

}  // namespace mantra::sim
