#include "common/rank_window.h"

namespace mantra {

RankWindow::RankWindow(size_t capacity, double fraction, size_t min_samples)
    : capacity_(capacity), fraction_(fraction), min_samples_(min_samples) {}

Level RankWindow::classify_and_add(double x) {
  Level level = Level::kMiddle;
  if (samples_.size() >= min_samples_) {
    size_t below = 0, above = 0;
    for (double s : samples_) {
      below += s < x;
      above += s > x;
    }
    const double n = static_cast<double>(samples_.size());
    const double needed = (1.0 - fraction_) * n;
    if (static_cast<double>(below) >= needed)
      level = Level::kHigh;
    else if (static_cast<double>(above) >= needed)
      level = Level::kLow;
  }
  samples_.push_back(x);
  if (samples_.size() > capacity_) samples_.pop_front();
  return level;
}

}  // namespace mantra
