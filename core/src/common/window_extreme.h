// The least (or greatest) of the values added over the last `window`: a
// deque increasing in time and monotonic in value, so its front is the
// window's extreme, amortised O(1) per value. `Better` orders the kept
// extreme first: std::less for a minimum, std::greater for a maximum.
#pragma once

#include <deque>
#include <optional>
#include <utility>

#include "mantra/units.h"

namespace mantra {

template <typename Value, typename Better>
class WindowExtreme {
 public:
  explicit WindowExtreme(Duration window) : window_(window) {}

  void add(Time now, Value v) {
    // A value no better than a later one can never be the extreme again.
    while (!values_.empty() && !Better{}(values_.back().second, v)) values_.pop_back();
    values_.emplace_back(now, v);
    expire(now);
  }
  // Forgets the values older than the window.
  void expire(Time now) {
    while (!values_.empty() && values_.front().first < now - window_) values_.pop_front();
  }
  // The window's extreme; none when nothing is in it.
  std::optional<Value> extreme() const {
    if (values_.empty()) return std::nullopt;
    return values_.front().second;
  }
  bool empty() const { return values_.empty(); }

 private:
  Duration window_;
  std::deque<std::pair<Time, Value>> values_;
};

}  // namespace mantra
