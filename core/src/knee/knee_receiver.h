// mantra's receiver (docs/protocols/mantra.md): it measures, the sender
// decides.
//
// Model: per data packet, the one-way delay (receiver's clock minus the send
// time the packet carries), its ECN mark, the rate field R the nodes on the
// path stamped (LATP's agents, where they run) and the RFC 5348 loss
// detection (three later packets). Once per sender RTT (the RTT the packet
// carries; at once on a new loss, on the U bit, or on the first packet and
// the first after an idle spell) it reports what arrived since the previous
// report: packets, bytes and the span they cover, the minimum and mean
// one-way delay, CE-marked packets, losses, the lowest R, and the loss event
// rate over every loss. The delays are the full-size packets' (at least 90 %
// of the largest of the last 2 s, the timed size the report carries; a
// multi-hop radio's floor grows with the size), N when none came; a change of
// the timed size starts the interval's timing afresh. Where the driver reads the IP TTL, the report also
// carries the last packet's TTL, and the C bit when it changed in the
// interval (the path's hop count changed).
//
//   data ──► ports checked (the first packet fixes the connection)
//        ──► interval: packets, bytes, CE, min/mean delay, lowest R, TTL
//        ──► LossDetector ──► losses ──► every-loss history; report now (L)
//   [clock due] ──► report ──► new interval
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "common/every_loss_history.h"
#include "common/loss_detector.h"
#include "common/receive_rate_meter.h"
#include "common/window_extreme.h"
#include "knee/knee_wire.h"
#include "mantra/endpoint.h"
#include "mantra/params.h"
#include "rate/report_clock.h"

namespace mantra::knee {

struct ReceiverConfig {
  // Reports go out once per max(the sender's RTT, this) while data arrives.
  Duration report_interval = kDefaultReportInterval;
};

class KneeReceiver : public Receiver {
 public:
  using Config = ReceiverConfig;
  explicit KneeReceiver(ReceiverConfig config = {}) : report_interval_(config.report_interval) {}
  // Reads `report_interval_ms` (10 .. 10000, default 400); `floor_report`
  // (which every receiver takes) is accepted: the report always carries the
  // loss over every loss.
  static std::string parse(const Params& params, ReceiverConfig& out);

  void handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) override {
    handle_datagram_with_ttl(now, bytes, ecn, 0);
  }
  // `ttl` 0: the driver cannot read it.
  void handle_datagram_with_ttl(Time now, std::span<const uint8_t> bytes, Ecn ecn, uint8_t ttl) override;
  void handle_timeout(Time now) override { clock_.on_timeout(now); }
  std::optional<Datagram> poll_transmit(Time now) override;
  std::optional<Time> poll_timeout() const override { return clock_.deadline(); }
  EndpointStats stats() const override;

 private:
  // What arrived since the last report.
  struct Interval {
    std::optional<Time> began;  // the last report, or the first arrival
    uint32_t packets = 0, bytes = 0, ce = 0, losses = 0;
    uint32_t timed = 0;  // the full-size packets, whose delays are the interval's
    int64_t owd_min_us = 0;
    double owd_sum_us = 0;
    int32_t r_min_Bps = latp::kNoRateLimit;
    bool ttl_changed = false;
  };

  // A packet of at least kFullSizeShare (knee_wire.h) of the largest of the
  // last kLargestWindow is full-size. The window holds the largest between two
  // intra frames of a video (GOPs of 0.5-2 s) and lets it fall within 2 s
  // of a step down to smaller frames: until then every report carries N,
  // and the sender's law is blind.
  static constexpr Duration kLargestWindow = Duration::seconds(2);
  Duration report_interval_;
  WindowExtreme<int64_t, std::greater<>> largest_bytes_{kLargestWindow};  // datagram sizes
  int64_t timed_reference_ = 0;  // the largest when the interval's delays were timed
  EndpointStats stats_;
  std::optional<std::pair<uint16_t, uint16_t>> ports_;  // the sender's (src, dst)
  LossDetector detector_;
  EveryLossHistory losses_;
  ReceiveRateMeter arrivals_;  // for the first loss interval
  Duration sender_rtt_;        // zero until the sender has one
  ReportClock clock_;
  Interval interval_;
  bool loss_pending_ = false;
  bool report_at_once_ = false;  // the next report is not the clock's (loss, U bit, first packet)
  int64_t echo_send_time_us_ = 0;
  Time last_arrival_;
  uint8_t last_ttl_ = 0;  // of the last data packet; 0: not known
  int64_t loss_count_ = 0, reports_ = 0, ttl_changes_ = 0;
};

}  // namespace mantra::knee
