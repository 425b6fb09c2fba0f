#include "aodv/request_queue.h"

#include <algorithm>

namespace mantra::sim::aodv {

void RequestQueue::expire(double now_s, const Dropped& dropped) {
  for (auto it = queue_.begin(); it != queue_.end();) {
    if (it->deadline_s < now_s) {
      DataPacket p = std::move(it->packet);
      it = queue_.erase(it);
      dropped(std::move(p), true);
    } else {
      ++it;
    }
  }
}

void RequestQueue::put(DataPacket p, double now_s, const Dropped& dropped) {
  expire(now_s, dropped);
  if (queue_.size() >= kCapacity) {
    DataPacket oldest = std::move(queue_.front().packet);
    queue_.pop_front();
    dropped(std::move(oldest), false);
  }
  queue_.push_back({std::move(p), now_s + kTimeoutS});
}

std::optional<DataPacket> RequestQueue::take(Address destination, double now_s, const Dropped& dropped) {
  expire(now_s, dropped);
  auto it = std::find_if(queue_.begin(), queue_.end(),
                         [destination](const Waiting& w) { return w.packet.destination == destination; });
  if (it == queue_.end()) return std::nullopt;
  DataPacket p = std::move(it->packet);
  queue_.erase(it);
  return p;
}

bool RequestQueue::holds(Address destination) const {
  return std::any_of(queue_.begin(), queue_.end(),
                     [destination](const Waiting& w) { return w.packet.destination == destination; });
}

}  // namespace mantra::sim::aodv
