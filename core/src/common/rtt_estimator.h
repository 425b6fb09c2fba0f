// RTT estimation for rate-based senders (RFC 5348 §4.3 step 2 and §4.5):
//   R        <- q*R + (1-q)*R_sample            (first sample: R = R_sample)
//   R_sqmean <- q2*R_sqmean + (1-q2)*sqrt(R_sample)
// q = q2 = 0.9 are the RFC's recommended filter constants.
#pragma once

#include <cmath>

#include "common/ewma.h"
#include "mantra/units.h"

namespace mantra {

class RttEstimator {
 public:
  explicit RttEstimator(double q = 0.9, double q2 = 0.9) : rtt_s_(q), sqrt_rtt_(q2) {}

  void add_sample(Duration sample) {
    const double s = sample.secs() > 0 ? sample.secs() : 1e-6;  // a zero RTT would divide by zero
    latest_ = sample;
    rtt_s_.update(s);
    sqrt_rtt_.update(std::sqrt(s));
  }
  bool has_sample() const { return rtt_s_.has_value(); }
  Duration smoothed() const { return Duration::from_seconds(rtt_s_.value()); }
  double smoothed_s() const { return rtt_s_.value(); }
  double sqrt_mean_s() const { return sqrt_rtt_.value(); }
  Duration latest() const { return latest_; }

 private:
  Ewma rtt_s_;
  Ewma sqrt_rtt_;
  Duration latest_;
};

}  // namespace mantra
