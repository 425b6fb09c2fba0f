// The LATP receiver's average rate feedback R_avg (paper §4.2).
//
//   R inside R_avg ± 3 sigma_R ──► R_avg <- eta R_avg + (1 - eta) R     (eta 0.5)
//   R outside ──► suspect window; once 3 suspects arrived within one RTT,
//                 all of them update R_avg in arrival order ("a major change")
//   every R ──► sigma_R <- omega sigma_R + (1 - omega) |R_avg - R|      (omega 0.875)
//
// Suspects older than one RTT are forgotten. As in WindowedEwma, sigma_R is
// updated with each sample against R_avg before it, and the first R seeds
// R_avg with sigma_R = 0.
#pragma once

#include <deque>
#include <utility>

#include "mantra/units.h"

namespace mantra::latp {

class RateFeedbackFilter {
 public:
  static constexpr int kSuspectsForChange = 3;
  RateFeedbackFilter(double eta = 0.5, double omega = 0.875) : eta_(eta), omega_(omega) {}

  // One R (bytes/s) carried by a data packet arriving at `now`; `rtt` is the
  // sender's estimate carried in the same packet.
  void add(Time now, double r_Bps, Duration rtt);

  bool has_value() const { return has_value_; }
  double value() const { return r_avg_; }
  double sigma() const { return sigma_; }
  size_t suspects() const { return suspects_.size(); }
  int64_t changes_accepted() const { return changes_; }

 private:
  void fold(double r) { r_avg_ = eta_ * r_avg_ + (1.0 - eta_) * r; }

  double eta_, omega_;
  double r_avg_ = 0.0, sigma_ = 0.0;
  bool has_value_ = false;
  std::deque<std::pair<Time, double>> suspects_;
  int64_t changes_ = 0;
};

}  // namespace mantra::latp
