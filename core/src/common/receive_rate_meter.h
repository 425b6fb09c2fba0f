// Bytes received over a trailing window, as a rate: TFRC's X_recv (RFC 5348
// §6.2) and LATP's receive rate s (§4.2) are both this.
#pragma once

#include <cstdint>
#include <deque>
#include <utility>

#include "mantra/units.h"

namespace mantra {

class ReceiveRateMeter {
 public:
  void add(Time arrival, int64_t bytes) { arrivals_.emplace_back(arrival, bytes); }

  // Bytes/s over (now - window, now]; 0 for an empty window.
  double rate_Bps(Time now, Duration window) const {
    if (window <= Duration::zero()) return 0.0;
    int64_t bytes = 0;
    for (auto it = arrivals_.rbegin(); it != arrivals_.rend() && it->first > now - window; ++it) bytes += it->second;
    return static_cast<double>(bytes) / window.secs();
  }

  // Drops arrivals at or before `t`, which no later window will reach.
  void forget_through(Time t) {
    while (!arrivals_.empty() && arrivals_.front().first <= t) arrivals_.pop_front();
  }

 private:
  std::deque<std::pair<Time, int64_t>> arrivals_;  // (time, bytes), oldest first
};

}  // namespace mantra
