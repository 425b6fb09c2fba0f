#include "dsr/send_buffer.h"

#include <algorithm>

namespace mantra::sim::dsr {

std::optional<Packet> SendBuffer::put(Packet p, double now_s) {
  for (Slot& s : slots_) {
    if (!s.packet) {
      s.packet = std::move(p);
      s.since_s = now_s;
      return std::nullopt;
    }
  }
  Slot& oldest = *std::min_element(slots_.begin(), slots_.end(),
                                   [](const Slot& a, const Slot& b) { return a.since_s < b.since_s; });
  std::optional<Packet> pushed_out = std::move(oldest.packet);
  oldest.packet = std::move(p);
  oldest.since_s = now_s;
  return pushed_out;
}

void SendBuffer::sweep(double now_s, const std::function<void(Packet&&)>& expired,
                       const std::function<bool(Packet&)>& visit) {
  for (Slot& s : slots_) {
    if (!s.packet) continue;
    if (now_s - s.since_s > kTimeoutS) {
      Packet p = std::move(*s.packet);
      s.packet.reset();
      expired(std::move(p));
      continue;
    }
    if (visit(*s.packet)) s.packet.reset();
  }
}

size_t SendBuffer::size() const {
  return static_cast<size_t>(std::count_if(slots_.begin(), slots_.end(), [](const Slot& s) { return s.packet; }));
}

}  // namespace mantra::sim::dsr
