// The path's one-way delay floor (docs/protocols/mantra.md): the minimum of
// the reports' minimum delays over a window, kept apart per IP TTL, that is
// per hop count. A path of another length then neither reads as a queue on
// the old path's floor (a longer one) nor hides a queue under it (a shorter
// one), and two paths the routing alternates between keep a floor each.
//
// Model: one deque per TTL, increasing in time and in delay, so its front is
// the window's minimum. TTL 0 (the driver cannot read it) is one path.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <utility>

#include "mantra/units.h"

namespace mantra::knee {

class DelayFloor {
 public:
  explicit DelayFloor(Duration window) : window_(window) {}

  // A report's minimum delay, of packets that all came with `ttl`.
  void add(Time now, uint8_t ttl, int64_t owd_min_us);
  // Forgets the reports older than the window.
  void expire(Time now);
  // The floor of the path with `ttl`; none without a report of it in the window.
  std::optional<int64_t> of(uint8_t ttl) const;
  // The highest floor of the paths in the window, the longest path's: the
  // floor for an interval whose packets came over more than one path.
  std::optional<int64_t> highest() const;

 private:
  Duration window_;
  std::map<uint8_t, std::deque<std::pair<Time, int64_t>>> paths_;
};

}  // namespace mantra::knee
