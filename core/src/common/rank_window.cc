#include "common/rank_window.h"

#include <algorithm>

namespace mantra {

RankWindow::RankWindow(size_t capacity, double fraction, size_t min_samples)
    : capacity_(capacity), fraction_(fraction), min_samples_(min_samples) {}

Level RankWindow::classify_and_add(double x) {
  Level level = Level::kMiddle;
  const auto not_below = std::lower_bound(sorted_.begin(), sorted_.end(), x);  // the first sample >= x
  const auto above = std::upper_bound(not_below, sorted_.end(), x);            // the first sample > x
  if (sorted_.size() >= min_samples_) {
    const auto needed = static_cast<std::ptrdiff_t>(extreme_rank(sorted_.size(), fraction_));
    if (not_below - sorted_.begin() >= needed)
      level = Level::kHigh;
    else if (sorted_.end() - above >= needed)
      level = Level::kLow;
  }
  arrival_order_.push_back(x);
  if (arrival_order_.size() <= capacity_) {
    sorted_.insert(above, x);
    return level;
  }
  // Full: x takes the place of the oldest sample; only the samples between the two values move.
  const double oldest = arrival_order_.front();
  arrival_order_.pop_front();
  if (oldest < x) {
    const auto last_oldest = std::upper_bound(sorted_.begin(), not_below, oldest) - 1;
    std::move(last_oldest + 1, not_below, last_oldest);
    *(not_below - 1) = x;
  } else if (oldest > x) {
    const auto first_oldest = std::lower_bound(above, sorted_.end(), oldest);
    std::move_backward(above, first_oldest, first_oldest + 1);
    *above = x;
  }  // else the sorted samples stay as they are
  return level;
}

}  // namespace mantra
