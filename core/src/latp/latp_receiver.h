// LATP receiver (paper §4.2).
//
// Model: the receiver turns the per-hop rate feedback R of each data packet
// into R_avg (RateFeedbackFilter), detects losses (three later packets, the
// RFC 5348 rule) and reports R_avg and the receive rate s to the sender once
// per RTT (the RTT the sender writes in each data packet), and at once on a
// new loss or when a packet asks for it (U bit).
//
//   data ──► ports checked (the first packet fixes the connection)
//        ──► R (unless no node bounded it yet) ──► R_avg
//        ──► LossDetector ──► new loss ──► report now, L bit set
//
// The feedback clock is the rate receivers' ReportClock (rate/report_clock.h),
// armed for the sender's RTT after each report; a new loss or the U bit
// reports at once.
//
// s is the bytes received over max(RTT, time since the last report), as the
// "average receiving rate within the last reporting period". Before the
// sender has an RTT (field 0) it sets U on every packet, so each is answered.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "common/every_loss_history.h"
#include "common/loss_detector.h"
#include "common/receive_rate_meter.h"
#include "latp/latp_wire.h"
#include "latp/rate_feedback_filter.h"
#include "mantra/endpoint.h"
#include "mantra/params.h"
#include "rate/report_clock.h"

namespace mantra::latp {

struct ReceiverConfig {
  double eta = 0.5;      // weight of R_avg's history
  double omega = 0.875;  // weight of sigma_R's history
  // `floor_report` 1: feedback carries the loss event rate over every loss
  // for the sender's safety floor (4 bytes after the paper's 20). Off in
  // every reproduction.
  bool floor_report = false;
};

class LatpReceiver : public Receiver {
 public:
  using Config = ReceiverConfig;
  explicit LatpReceiver(ReceiverConfig config = {})
      : floor_report_(config.floor_report), filter_(config.eta, config.omega) {}
  static std::string parse(const Params& params, ReceiverConfig& out);

  void handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) override;
  void handle_timeout(Time now) override { clock_.on_timeout(now); }
  std::optional<Datagram> poll_transmit(Time now) override;
  std::optional<Time> poll_timeout() const override { return clock_.deadline(); }
  EndpointStats stats() const override;

  const RateFeedbackFilter& rate_feedback() const { return filter_; }

 private:
  double receive_rate_Bps(Time now) const;

  bool floor_report_;
  EveryLossHistory all_losses_;  // every loss, for the floor report
  RateFeedbackFilter filter_;
  LossDetector detector_;
  EndpointStats stats_;
  std::optional<std::pair<uint16_t, uint16_t>> ports_;  // the sender's (src, dst)
  Duration sender_rtt_;                                 // zero until the sender has one
  uint16_t last_timestamp_ms_ = 0;
  Time last_arrival_;
  ReportClock clock_;
  bool loss_pending_ = false;
  std::optional<Time> last_feedback_;
  ReceiveRateMeter arrivals_;  // for s
  int64_t losses_ = 0, urgent_ = 0, unbounded_r_ = 0;
};

}  // namespace mantra::latp
