#include "latp/rate_feedback_filter.h"

#include <cmath>

namespace mantra::latp {

void RateFeedbackFilter::add(Time now, double r, Duration rtt) {
  if (!has_value_) {
    r_avg_ = r;
    sigma_ = 0.0;
    has_value_ = true;
    return;
  }
  const double error = std::abs(r_avg_ - r);
  const bool inside = error <= 3.0 * sigma_;
  sigma_ = omega_ * sigma_ + (1.0 - omega_) * error;
  if (inside) {
    fold(r);
    return;
  }
  while (!suspects_.empty() && now - suspects_.front().first > rtt) suspects_.pop_front();
  suspects_.emplace_back(now, r);
  if (static_cast<int>(suspects_.size()) < kSuspectsForChange) return;
  for (const auto& [t, value] : suspects_) fold(value);
  suspects_.clear();
  ++changes_;
}

}  // namespace mantra::latp
