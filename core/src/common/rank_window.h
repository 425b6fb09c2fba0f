// A Ranker (ranker.h) holding a sliding window: the latest `capacity`
// samples. Rank is by binary search in the window kept sorted (O(log W));
// once the window is full, the new sample takes the oldest one's place,
// moving the samples whose values lie between the two (none when they are
// equal, as for a metric that is usually 0), at most W.
#pragma once

#include <cstddef>
#include <deque>
#include <vector>

#include "common/ranker.h"

namespace mantra {

class RankWindow : public Ranker {
 public:
  // capacity >= 1; samples are not NaN.
  RankWindow(size_t capacity, double fraction, size_t min_samples);

  // Ranks x against the window, then adds it (dropping the oldest).
  Level classify_and_add(double x) override;
  size_t size() const override { return arrival_order_.size(); }

 private:
  size_t capacity_;
  double fraction_;
  size_t min_samples_;
  std::deque<double> arrival_order_;  // the window, oldest first
  std::vector<double> sorted_;        // the same samples, ascending
};

}  // namespace mantra
