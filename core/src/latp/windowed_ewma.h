// LATP's estimator for a node's channel busyness B and MAC throughput T
// (paper §4.1): an EWMA whose weight depends on whether the sample falls in
// the 3-sigma observation window around the estimate.
//
//   inside  |x - v| <= 3*sigma :  v <- alpha_in  * v + (1 - alpha_in)  * x   (0.125: follow)
//   outside                    :  v <- alpha_out * v + (1 - alpha_out) * x   (0.875: distrust)
//   always                     :  sigma <- beta * sigma + (1 - beta) * |v_before - x|   (0.875)
//
// The weights are on the old value, as in the paper's B = aB + (1-a)B_sample.
// Reading chosen where the text is silent: sigma is updated with every sample
// against the estimate before that sample (like TCP's RTTVAR), and the first
// sample seeds v with sigma = 0, so a constant input is never "noisy".
#pragma once

#include <cmath>

namespace mantra::latp {

struct WindowedEwmaWeights {
  double alpha_in = 0.125;
  double alpha_out = 0.875;
  double beta = 0.875;
};

class WindowedEwma {
 public:
  explicit WindowedEwma(WindowedEwmaWeights w = {}) : w_(w) {}

  // Feeds one sample; returns true if it fell inside the window.
  bool update(double x) {
    if (!has_value_) {
      value_ = x;
      sigma_ = 0.0;
      has_value_ = true;
      return true;
    }
    const double error = std::abs(value_ - x);
    const bool inside = error <= 3.0 * sigma_;
    const double alpha = inside ? w_.alpha_in : w_.alpha_out;
    value_ = alpha * value_ + (1.0 - alpha) * x;
    sigma_ = w_.beta * sigma_ + (1.0 - w_.beta) * error;
    return inside;
  }
  bool has_value() const { return has_value_; }
  double value() const { return value_; }
  double sigma() const { return sigma_; }

 private:
  WindowedEwmaWeights w_;
  double value_ = 0.0;
  double sigma_ = 0.0;
  bool has_value_ = false;
};

}  // namespace mantra::latp
