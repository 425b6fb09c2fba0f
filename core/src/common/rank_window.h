// A sliding window of recent samples that ranks a new sample against them:
// HIGH if it lies in the top `fraction` of the window, LOW if in the bottom
// `fraction`, else MIDDLE (ADTFRC's Table II uses the top and bottom 30 %).
//
// "In the top 30 %" is read by rank: a sample is HIGH when at least 70 % of
// the window is strictly below it, LOW when at least 70 % is strictly above
// it. A sample equal to most of the window is therefore neither, so a metric
// that is usually 0 (out-of-order ratio, loss ratio) is HIGH only when it
// rises above its usual value. Until the window holds `min_samples`, every
// sample is MIDDLE: a rank among a handful of values means nothing.
#pragma once

#include <cstddef>
#include <deque>

namespace mantra {

enum class Level { kLow, kMiddle, kHigh };

class RankWindow {
 public:
  RankWindow(size_t capacity, double fraction, size_t min_samples);

  // Ranks x against the samples held, then adds it (dropping the oldest).
  Level classify_and_add(double x);

  size_t size() const { return samples_.size(); }

 private:
  size_t capacity_;
  double fraction_;
  size_t min_samples_;
  std::deque<double> samples_;
};

}  // namespace mantra
