#include "network/pri_queue_disc.h"

#include <ns3/ipv4-queue-disc-item.h>
#include <ns3/object-factory.h>

#include <array>

namespace mantra::sim {

using namespace ns3;

NS_OBJECT_ENSURE_REGISTERED(PriQueueDisc);

TypeId PriQueueDisc::GetTypeId() {
  static TypeId tid =
      TypeId("mantra::PriQueueDisc")
          .SetParent<QueueDisc>()
          .SetGroupName("Mantra")
          .AddConstructor<PriQueueDisc>()
          .AddAttribute("MaxSize", "The interface queue's limit", QueueSizeValue(QueueSize("50p")),
                        MakeQueueSizeAccessor(&QueueDisc::SetMaxSize, &QueueDisc::GetMaxSize), MakeQueueSizeChecker());
  return tid;
}

PriQueueDisc::PriQueueDisc() : QueueDisc(QueueDiscSizePolicy::SINGLE_INTERNAL_QUEUE) {}

FlushableQueue& PriQueueDisc::queue() { return *StaticCast<FlushableQueue>(GetInternalQueue(0)); }

bool PriQueueDisc::goes_first(const QueueDiscItem& item) const {
  if (routing_first_ == RoutingPackets::kNone) return false;
  const auto* ip = dynamic_cast<const Ipv4QueueDiscItem*>(&item);
  if (!ip) return false;  // ARP: at the tail, as in ns-2
  std::array<uint8_t, kRoutingPacketHeadBytes> head{};
  const uint32_t n = item.GetPacket()->CopyData(head.data(), head.size());
  return is_routing_packet(routing_first_, ip->GetHeader().GetProtocol(), std::span(head.data(), n));
}

bool PriQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item) {
  const bool full = GetCurrentSize() + item > GetMaxSize();
  if (!goes_first(*item)) {
    if (full) {
      DropBeforeEnqueue(item, "Queue disc limit exceeded");
      return false;
    }
    return queue().Enqueue(item);
  }
  Ptr<QueueDiscItem> tail = full ? queue().take_tail() : nullptr;
  queue().enqueue_head(item);
  if (tail) DropAfterDequeue(tail, kRoutingFirstOverflow);
  return true;
}

Ptr<QueueDiscItem> PriQueueDisc::DoDequeue() { return queue().Dequeue(); }

Ptr<const QueueDiscItem> PriQueueDisc::DoPeek() { return queue().Peek(); }

bool PriQueueDisc::CheckConfig() {
  if (GetNQueueDiscClasses() > 0 || GetNPacketFilters() > 0) return false;
  if (GetNInternalQueues() == 0) {
    AddInternalQueue(CreateObjectWithAttributes<FlushableQueue>("MaxSize", QueueSizeValue(GetMaxSize())));
  }
  return GetNInternalQueues() == 1 && DynamicCast<FlushableQueue>(GetInternalQueue(0));
}

}  // namespace mantra::sim
