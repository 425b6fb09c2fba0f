// The path's one-way delay floor (docs/protocols/mantra.md): the minimum of
// the reports' minimum delays over a window, kept apart per IP TTL (per hop
// count) and per size class of the packets timed. A path of another length
// then neither reads as a queue on the old path's floor (a longer one) nor
// hides a queue under it (a shorter one), and two paths the routing
// alternates between keep a floor each. On a multi-hop radio a packet's
// floor grows with its size (every hop sends every byte), so larger packets
// are not judged on the floor of smaller ones: a video that steps up a rung
// would read its larger frames as a queue.
//
// Model: one windowed minimum per key (common/window_extreme.h). TTL 0 (the driver cannot read it) is one path; timed
// size 0 (a receiver that does not say) is one size.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <optional>

#include "common/window_extreme.h"
#include "mantra/units.h"

namespace mantra::knee {

struct FloorKey {
  uint8_t ttl = 0;
  // Sizes within a factor of 1/kFullSizeShare (knee_wire.h: 1/0.9 = 1.11)
  // share a class: class k holds [1.11^(k-1), 1.11^k) bytes; 0: not known.
  uint8_t size_class = 0;
  static FloorKey of(uint8_t ttl, uint16_t timed_bytes);
  auto operator<=>(const FloorKey&) const = default;
};

// One windowed extreme per path and size: the delay floor's minima, and the
// best receive rate of each path (the law's competitive test).
template <typename Value, typename Better>
class PerPathExtreme {
 public:
  explicit PerPathExtreme(Duration window) : window_(window) {}

  // A report's value, of packets that all came with one TTL.
  void add(Time now, FloorKey key, Value v) {
    paths_.try_emplace(key, window_).first->second.add(now, v);
    expire(now);
  }
  // Forgets the reports older than the window.
  void expire(Time now) {
    for (auto it = paths_.begin(); it != paths_.end();) {
      it->second.expire(now);
      it = it->second.empty() ? paths_.erase(it) : std::next(it);
    }
  }
  // The extreme of the path and size `key`; none without a report of it in the window.
  std::optional<Value> of(FloorKey key) const {
    const auto it = paths_.find(key);
    if (it == paths_.end()) return std::nullopt;
    return it->second.extreme();
  }

 protected:
  Duration window_;
  std::map<FloorKey, WindowExtreme<Value, Better>> paths_;
};

class DelayFloor : public PerPathExtreme<int64_t, std::less<>> {
 public:
  using PerPathExtreme::PerPathExtreme;
  // The highest floor in the window, the longest path's: the floor for an
  // interval whose packets came over more than one path.
  std::optional<int64_t> highest() const;
};

}  // namespace mantra::knee
