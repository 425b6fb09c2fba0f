// LATP sender (paper §4.3).
//
// Model: a paced rate S (bytes/s) steered by the receiver's reports of R_avg
// (the path's spare admissible throughput, negative when some node is busier
// than B_TH) and s (the receive rate). X is the packet size, rtt the sender's
// smoothed RTT from the echoed time stamps (q = 0.9, as TFRC).
//
//   [initial] 1 packet/s, U set on every packet until an RTT sample exists
//      │ first report
//      ▼
//   [slow start] at most once per rtt: S = max(2s, X/rtt)
//      │ R_avg < 0 (then the decrease below applies at once) or no-feedback expiry
//      ▼
//   [steady] per report:
//      R_avg >  delta*S  : S = max(min(2s, S + R_avg, S + N*X/rtt), X/rtt),
//                          N = rtts since the last rate change   (delta 0.05)
//      0 <= R_avg <= delta*S : hold
//      R_avg < 0         : S -= S/9, at most once per rtt
//   any ──no report for 4 rtt──► S = S/2, re-arm, next packet urgent
//   always: S >= X/rtt (one packet per RTT)
//
// Readings where the paper is silent: R_avg = 0 exactly holds; before the
// first report the no-feedback timer (2 s, RFC 5348's initial value) only
// re-arms and marks the next packet urgent, there being no rate to halve
// below the initial one; `source_rate_bps` (default 0, none) caps S at a media
// source's bit rate.
#pragma once

#include <optional>
#include <string>

#include "common/rtt_estimator.h"
#include "latp/latp_wire.h"
#include "mantra/endpoint.h"
#include "mantra/params.h"

namespace mantra::latp {

struct SenderConfig {
  int64_t packet_bytes = 1000;
  double delta = 0.05;                 // increase only when R_avg > delta*S
  double decrease_fraction = 1.0 / 9;  // cut on negative R_avg
  int nofeedback_rtts = 4;
  Rate source_rate = Rate::zero();  // a media source's bit rate; zero: always backlogged
  uint16_t src_port = 4000;
  uint16_t dst_port = 4001;
};

class LatpSender : public Sender {
 public:
  static constexpr Duration kInitialInterval = Duration::seconds(1);  // 1 packet/s before the first report
  static constexpr Duration kInitialNofeedback = Duration::seconds(2);

  explicit LatpSender(SenderConfig config = {});
  static std::string parse(const Params& params, SenderConfig& out);

  void handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) override;
  void handle_timeout(Time now) override;
  std::optional<Datagram> poll_transmit(Time now) override;
  std::optional<Time> poll_timeout() const override;
  EndpointStats stats() const override;
  Rate allowed_rate() const override;

  double rate_Bps() const { return rate_Bps_; }
  bool in_slow_start() const { return slow_start_; }
  bool has_report() const { return have_report_; }
  const RttEstimator& rtt() const { return rtt_; }

 private:
  double one_packet_per_rtt_Bps() const;
  void on_report(Time now, const Feedback& f);
  void decrease(Time now);
  void set_rate(Time now, double rate_Bps);
  Duration nofeedback_interval() const;

  SenderConfig config_;
  RttEstimator rtt_;
  EndpointStats stats_;
  double rate_Bps_;
  bool started_ = false;
  bool have_report_ = false;
  bool slow_start_ = true;
  bool urgent_next_ = false;
  Time next_send_;
  Time last_sent_;
  Time last_change_;
  std::optional<Time> last_decrease_;
  Time nofeedback_deadline_;
  uint32_t next_seq_ = 0;
  int64_t increases_ = 0, holds_ = 0, decreases_ = 0, nofeedback_expiries_ = 0;
  double last_r_avg_Bps_ = 0.0;
};

}  // namespace mantra::latp
