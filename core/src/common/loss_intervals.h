// RFC 5348 loss events and the average loss interval (§5.2-§5.5).
//
// Losses (from a LossDetector, or a filtered subset of them, as ADTFRC feeds
// only congestion losses) are grouped into loss events: a loss starts a new
// event if it lies more than one RTT after the first loss of the current
// event (T_old + R < T_new). Interval I_i runs between the first losses of
// consecutive events; the open interval I_0 runs from the start of the most
// recent event to the highest sequence received (both ends counted).
//
// The average over n = 8 intervals uses weights 1,1,1,1,0.8,0.6,0.4,0.2 and
// counts I_0 only when that raises the mean (§5.4). History discounting
// (§5.5) shrinks the weight of old intervals when I_0 grows beyond twice the
// average; it is on by default, as in ns-2's TFRC sink.
//
// After the first loss event the receiver replaces the real length of the
// loss-free start by a synthetic interval derived from X_recv (§6.3.1); see
// set_first_interval().
#pragma once

#include <array>
#include <cstdint>
#include <deque>

#include "mantra/units.h"

namespace mantra {

class LossIntervals {
 public:
  static constexpr int kN = 8;                 // intervals averaged (RFC 5348 §5.4)
  static constexpr double kMinDiscount = 0.5;  // DF floor (§5.5)

  explicit LossIntervals(bool discounting = true) : discounting_(discounting) {}

  // Feeds one loss. Returns true if it started a new loss event.
  bool on_loss(int64_t seq, Time nominal_arrival, Duration rtt);

  // Extends the open interval to `highest_seq`.
  void on_highest_seq(int64_t highest_seq);

  // Replaces I_1 after the first loss event (RFC 5348 §6.3.1).
  void set_first_interval(double packets);

  // p = 1 / I_mean, or 0 before the first loss event.
  double loss_event_rate() const;
  double mean_interval() const;  // I_mean in packets; 0 before the first event

  int64_t loss_events() const { return events_; }
  // The closed intervals, most recent first (I_1, I_2, ...).
  const std::deque<double>& closed() const { return closed_; }
  double open_interval() const;  // I_0

 private:
  double closed_mean() const;       // I_mean' over I_1..I_k with DF_i
  double current_discount() const;  // DF for the current I_0

  bool discounting_;
  int64_t events_ = 0;
  int64_t event_start_seq_ = 0;  // S_start(0): first loss of the current event
  Time event_start_time_;        // T_old
  int64_t highest_seq_ = -1;
  std::deque<double> closed_;    // I_1..I_k, k <= kN
  std::deque<double> discount_;  // DF_1..DF_k
};

}  // namespace mantra
