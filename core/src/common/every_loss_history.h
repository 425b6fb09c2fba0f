// The loss event rate over every loss a receiver detected (RFC 5348 §5,
// whatever the protocol made of each loss), for reports that carry it: the
// safety floor's report (common/floor_report.h) and mantra's own report.
//
// Losses come from a LossDetector's verdict on each arrival; a bulk (a gap
// beyond LossDetector::kMaxRecordedGap) is one loss at its first number. The
// first loss event's interval is replaced by RFC 5348 §6.3.1's synthetic one,
// from the mean packet size, the sender's RTT and the receive rate.
#pragma once

#include <cstdint>

#include "common/loss_detector.h"
#include "common/loss_intervals.h"
#include "common/receive_rate_meter.h"
#include "mantra/units.h"

namespace mantra {

class EveryLossHistory {
 public:
  // A data packet of `bytes` arrived at `now` with the detector's verdict
  // `arrival`; `rtt` is the sender's (zero: none yet, 0.5 s is assumed);
  // `arrivals` (this packet counted) give the receive rate over the RTT for
  // the first interval. True when a new loss event began.
  bool on_arrival(Time now, const LossDetector::Arrival& arrival, int64_t bytes, int64_t highest_seq, Duration rtt,
                  const ReceiveRateMeter& arrivals);
  double loss_event_rate() const { return intervals_.loss_event_rate(); }
  int64_t loss_events() const { return intervals_.loss_events(); }

 private:
  bool add(Time now, int64_t seq, Time nominal_arrival, Duration rtt, const ReceiveRateMeter& arrivals);

  LossIntervals intervals_;
  double mean_packet_bytes_ = 0;
  int64_t packets_ = 0;
};

}  // namespace mantra
