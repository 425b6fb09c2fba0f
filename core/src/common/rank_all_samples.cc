#include "common/rank_all_samples.h"

namespace mantra {

RankAllSamples::RankAllSamples(double fraction, size_t min_samples) : fraction_(fraction), min_samples_(min_samples) {}

void RankAllSamples::Cursor::follow(double x, size_t p) {
  if (x < at->first) ++before;  // x went below: s(p)'s samples moved up one position
  while (p > before + at->second) {
    before += at->second;
    ++at;
  }
  while (p <= before) {
    --at;
    before -= at->second;
  }
}

Level RankAllSamples::classify_and_add(double x) {
  Level level = Level::kMiddle;
  const size_t k = extreme_rank(size_, fraction_);
  if (size_ >= min_samples_) {
    if (k == 0 || kth_smallest_.at->first < x)
      level = Level::kHigh;
    else if (kth_largest_.at->first > x)
      level = Level::kLow;
  }
  ++counts_.try_emplace(x, 0).first->second;
  ++size_;
  const size_t next_k = extreme_rank(size_, fraction_);
  if (size_ == 1) {  // both positions are 1: the only sample
    kth_smallest_ = kth_largest_ = {counts_.begin(), 0};
  } else {
    kth_smallest_.follow(x, next_k);
    kth_largest_.follow(x, size_ + 1 - next_k);
  }
  return level;
}

}  // namespace mantra
