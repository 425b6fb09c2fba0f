#include "measurement/path_change_recovery.h"

#include <algorithm>

namespace mantra::sim {

double PathChangeRecovery::bytes_in(double from_s, double to_s) const {
  double total = 0;
  for (const auto& [at, bytes] : arrivals_) {
    if (at >= from_s && at <= to_s) total += static_cast<double>(bytes);
  }
  return total;
}

void PathChangeRecovery::on_arrival(double now_s, int64_t bytes, bool path_changed) {
  if (!first_arrival_s_) first_arrival_s_ = now_s;
  if (path_changed && !arrivals_.empty()) {
    if (open_) {
      ++merged_;
    } else {
      const double old_s = arrivals_.back().first;  // the old path's last delivery
      const double earlier_Bps = bytes_in(old_s - kEarlierWindowS, old_s) / kEarlierWindowS;
      if (old_s - *first_arrival_s_ < kEarlierWindowS || earlier_Bps <= 0) {
        ++too_early_;
      } else {
        ++changes_;
        open_ = Open{old_s, kRecoveredShare * earlier_Bps};
      }
    }
  }
  arrivals_.emplace_back(now_s, bytes);
  while (arrivals_.front().first < now_s - kEarlierWindowS - kRecoveryWindowS) arrivals_.pop_front();
  last_window_.emplace_back(now_s, bytes);
  last_window_bytes_ += static_cast<double>(bytes);
  while (last_window_.front().first < now_s - kRecoveryWindowS) {
    last_window_bytes_ -= static_cast<double>(last_window_.front().second);
    last_window_.pop_front();
  }
  if (open_ && last_window_bytes_ >= open_->target_Bps * kRecoveryWindowS) {
    recovery_s_.push_back(now_s - open_->from_s);
    open_.reset();
  }
}

nlohmann::json PathChangeRecovery::summary() const {
  nlohmann::json out = {{"changes", changes_},          {"merged", merged_},   {"too_early", too_early_},
                        {"unrecovered", open_ ? 1 : 0}, {"median_s", nullptr}, {"within_2s_share", nullptr}};
  if (changes_ == 0) return out;
  std::vector<double> sorted = recovery_s_;
  std::sort(sorted.begin(), sorted.end());
  // The one still recovering, if any, is longer than all: it sorts last, with no value.
  const auto n = static_cast<size_t>(changes_);
  const auto value = [&](size_t k) { return k < sorted.size() ? std::optional<double>(sorted[k]) : std::nullopt; };
  const auto low = value((n - 1) / 2), high = value(n / 2);
  if (low && high) out["median_s"] = (*low + *high) / 2;
  const auto within = std::count_if(sorted.begin(), sorted.end(), [](double s) { return s <= kGoalS; });
  out["within_2s_share"] = static_cast<double>(within) / static_cast<double>(n);
  return out;
}

}  // namespace mantra::sim
