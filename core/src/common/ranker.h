// Ranks each new sample of a metric against the samples held before it:
// HIGH if it lies in the top `fraction` of them, LOW if in the bottom
// `fraction`, else MIDDLE (ADTFRC's Table II uses the top and bottom 30 %).
//
// "In the top 30 %" is read by rank: a sample is HIGH when at least 70 % of
// the samples held are strictly below it, LOW when at least 70 % are strictly
// above it. A sample equal to most of them is therefore neither, so a metric
// that is usually 0 (out-of-order ratio, loss ratio) is HIGH only when it
// rises above its usual value. Until `min_samples` are held, every sample is
// MIDDLE: a rank among a handful of values means nothing. The sample is
// ranked first, then added.
//
// Which samples are held is the implementation's: RankAllSamples holds every
// sample since the start (rank_all_samples.h), RankWindow the latest ones
// (rank_window.h).
#pragma once

#include <cmath>
#include <cstddef>

namespace mantra {

enum class Level { kLow, kMiddle, kHigh };

class Ranker {
 public:
  virtual ~Ranker() = default;
  // Ranks x against the samples held, then adds it.
  virtual Level classify_and_add(double x) = 0;
  virtual size_t size() const = 0;
};

// The number of the n samples held that must lie strictly below a HIGH
// sample (or strictly above a LOW one): the least integer >= (1 - fraction) n,
// computed in double as the comparison `count >= (1 - fraction) * n` would.
inline size_t extreme_rank(size_t n, double fraction) {
  return static_cast<size_t>(std::ceil((1.0 - fraction) * static_cast<double>(n)));
}

}  // namespace mantra
