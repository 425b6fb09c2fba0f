// LATP sender (paper §4.3): LATP's rate law on the rate sender.
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
// below the initial one. A media source slower than S (`source_rate_bps`,
// rate/data_source.h) leaves the sender data-limited, as in every rate
// sender.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "latp/latp_wire.h"
#include "mantra/params.h"
#include "rate/rate_law.h"
#include "rate/rate_sender.h"

namespace mantra::latp {

struct SenderConfig {
  SendingConfig sending;
  double delta = 0.05;                 // increase only when R_avg > delta*S
  double decrease_fraction = 1.0 / 9;  // cut on negative R_avg
  int nofeedback_rtts = 4;
  uint16_t src_port = 4000;
  uint16_t dst_port = 4001;
};

class LatpLaw : public RateLaw {
 public:
  using Config = SenderConfig;
  static constexpr Duration kInitialInterval = Duration::seconds(1);  // 1 packet/s before the first report
  static constexpr Duration kInitialNofeedback = Duration::seconds(2);

  explicit LatpLaw(const SenderConfig& config = {});
  static std::string parse(const Params& params, SenderConfig& out);

  size_t data_header_bytes() const override { return kDataHeaderBytes; }
  void write_data(const DataStamp& stamp, const SendState& state, std::vector<uint8_t>& out) override;
  ReportOutcome on_datagram(Time now, std::span<const uint8_t> bytes, SendState& state) override;
  Rate allowed_rate(const SendState&) const override { return Rate::bytes_per_sec(rate_Bps_); }
  void on_start(Time now, const SendState&) override { last_change_ = now; }
  std::optional<Duration> nofeedback_interval(const SendState& state) const override;
  NofeedbackNext on_nofeedback(Time now, const SendState& state) override;
  std::vector<std::pair<std::string, double>> diagnostics(const SendState& state) const override;
  // The receiver's floor report (loss event rate over every loss) and
  // receive rate, when its feedback carries the report; none otherwise.
  std::optional<FloorSignal> floor_signal() const override { return floor_; }

  double rate_Bps() const { return rate_Bps_; }
  bool in_slow_start() const { return slow_start_; }
  bool has_report() const { return have_report_; }

 private:
  double one_packet_per_rtt_Bps(const SendState& state) const;
  void on_report(Time now, const Feedback& f, const SendState& state);
  void decrease(Time now, const SendState& state);
  void set_rate(Time now, double rate_Bps, const SendState& state);

  SenderConfig config_;
  double rate_Bps_;
  bool have_report_ = false;
  bool slow_start_ = true;
  bool urgent_next_ = false;
  Time last_change_;
  std::optional<Time> last_decrease_;
  int64_t increases_ = 0, holds_ = 0, decreases_ = 0, nofeedback_expiries_ = 0;
  double last_r_avg_Bps_ = 0.0;
  std::optional<FloorSignal> floor_;  // from the last feedback with the floor report
};

using LatpSender = RateSenderWith<LatpLaw>;

}  // namespace mantra::latp
