#include "network/flushable_queue.h"

namespace mantra::sim {

using namespace ns3;

NS_OBJECT_ENSURE_REGISTERED(FlushableQueue);

TypeId FlushableQueue::GetTypeId() {
  // TrafficControlHelper::AddInternalQueues names the item type after the queue's.
  static TypeId tid =
      TypeId("mantra::FlushableQueue<QueueDiscItem>")
          .SetParent<Queue<QueueDiscItem>>()
          .SetGroupName("Mantra")
          .AddConstructor<FlushableQueue>()
          .AddAttribute("MaxSize", "The most the queue holds", QueueSizeValue(QueueSize("100p")),
                        MakeQueueSizeAccessor(&QueueBase::SetMaxSize, &QueueBase::GetMaxSize), MakeQueueSizeChecker());
  return tid;
}

bool FlushableQueue::Enqueue(Ptr<QueueDiscItem> item) { return DoEnqueue(GetContainer().end(), item); }

bool FlushableQueue::enqueue_head(Ptr<QueueDiscItem> item) { return DoEnqueue(GetContainer().begin(), item); }

Ptr<QueueDiscItem> FlushableQueue::take_tail() {
  const auto& items = GetContainer();
  return items.empty() ? nullptr : DoDequeue(std::prev(items.end()));
}

Ptr<QueueDiscItem> FlushableQueue::Dequeue() { return DoDequeue(GetContainer().begin()); }

Ptr<QueueDiscItem> FlushableQueue::Remove() { return DoRemove(GetContainer().begin()); }

Ptr<const QueueDiscItem> FlushableQueue::Peek() const { return DoPeek(GetContainer().begin()); }

int64_t FlushableQueue::remove_if(const std::function<bool(const QueueDiscItem&)>& doomed,
                                  const std::function<void(const QueueDiscItem&)>& before_drop) {
  int64_t removed = 0;
  const auto& items = GetContainer();
  for (auto it = items.begin(); it != items.end();) {
    auto next = std::next(it);
    if (doomed(**it)) {
      before_drop(**it);
      DoRemove(it);
      ++removed;
    }
    it = next;
  }
  return removed;
}

}  // namespace mantra::sim
