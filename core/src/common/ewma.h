// Exponentially weighted moving average: v <- w*v + (1-w)*x, seeded by the
// first sample. `weight_old` is the weight kept by the history (RFC 5348 §4.3
// uses q = 0.9 for the RTT; LATP uses 0.875 inside its 3-sigma window).
#pragma once

namespace mantra {

class Ewma {
 public:
  explicit Ewma(double weight_old) : weight_old_(weight_old) {}
  double update(double x) {
    value_ = has_value_ ? weight_old_ * value_ + (1.0 - weight_old_) * x : x;
    has_value_ = true;
    return value_;
  }
  bool has_value() const { return has_value_; }
  double value() const { return value_; }
  void reset() {
    has_value_ = false;
    value_ = 0.0;
  }

 private:
  double weight_old_;
  double value_ = 0.0;
  bool has_value_ = false;
};

}  // namespace mantra
