#include "common/loss_intervals.h"

#include <algorithm>

namespace mantra {
namespace {

// w_1..w_8: 1 for i <= n/2, else 2(n-i+1)/(n+2).
constexpr std::array<double, LossIntervals::kN> kWeights = {1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2};

}  // namespace

double LossIntervals::closed_mean() const {
  double tot = 0, w = 0;
  for (size_t i = 0; i < closed_.size(); ++i) {
    tot += closed_[i] * kWeights[i] * discount_[i];
    w += kWeights[i] * discount_[i];
  }
  return w > 0 ? tot / w : 0.0;
}

double LossIntervals::current_discount() const {
  if (!discounting_ || closed_.empty()) return 1.0;
  const double mean_closed = closed_mean();
  const double i0 = open_interval();
  if (i0 > 2.0 * mean_closed) return std::max(kMinDiscount, 2.0 * mean_closed / i0);
  return 1.0;
}

bool LossIntervals::on_loss(int64_t seq, Time nominal_arrival, Duration rtt) {
  if (events_ > 0 && event_start_time_ + rtt >= nominal_arrival) return false;  // same event
  if (events_ > 0) {
    // Close I_0 = S_start(new) - S_start(old); the old history keeps the
    // discount in force on the packet before this event (§5.5).
    const double df = current_discount();
    for (double& d : discount_) d *= df;
    closed_.push_front(static_cast<double>(seq - event_start_seq_));
    discount_.push_front(1.0);
    if (static_cast<int>(closed_.size()) > kN) {
      closed_.pop_back();
      discount_.pop_back();
    }
  }
  ++events_;
  event_start_seq_ = seq;
  event_start_time_ = nominal_arrival;
  if (highest_seq_ < seq) highest_seq_ = seq;
  return true;
}

void LossIntervals::on_highest_seq(int64_t highest_seq) {
  if (highest_seq > highest_seq_) highest_seq_ = highest_seq;
}

void LossIntervals::set_first_interval(double packets) {
  if (closed_.empty()) {
    closed_.push_back(packets);
    discount_.push_back(1.0);
  } else {
    closed_.back() = packets;  // the first event's I_1 is the oldest entry
  }
}

double LossIntervals::open_interval() const {
  if (events_ == 0) return 0.0;
  return static_cast<double>(highest_seq_ - event_start_seq_ + 1);
}

double LossIntervals::mean_interval() const {
  if (events_ == 0 || closed_.empty()) return 0.0;
  // I_0 takes w_1 and shifts I_1..I_{k-1} to w_2..w_k, all under DF (§5.5);
  // the closed-only mean uses w_1..w_k. I_0 counts only if it raises the mean.
  const double df = current_discount();
  double tot0 = open_interval() * kWeights[0], w0 = kWeights[0];
  for (size_t i = 0; i + 1 < closed_.size(); ++i) {
    tot0 += closed_[i] * kWeights[i + 1] * discount_[i] * df;
    w0 += kWeights[i + 1] * discount_[i] * df;
  }
  return std::max(tot0 / w0, closed_mean());
}

double LossIntervals::loss_event_rate() const {
  const double mean = mean_interval();
  return mean > 0 ? 1.0 / mean : 0.0;
}

}  // namespace mantra
