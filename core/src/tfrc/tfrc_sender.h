// TFRC sender (RFC 5348 §4, §8.2.1): TFRC's rate law on the rate sender.
//
// Model: the sender paces packets at the allowed rate X. Each feedback gives
// an RTT sample, the receive rate X_recv and the loss event rate p. With
// p > 0, X follows the throughput equation, capped by twice what the receiver
// saw; with p = 0 it doubles once per RTT (slow start), likewise capped. No
// feedback for max(4R, 2s/X) halves the rate.
//
//          first feedback (R known)
//   [start: 1 pkt/s] ─────────────────► [slow start: X doubles per RTT,
//        │  nofeedback: X/2              │  X <= 2*max(X_recv_set)]
//        ▼                               │ report with p > 0
//   (stays, halving)                     ▼
//                               [equation: X = max(min(X_Bps, recv_limit),
//                                                  s/t_mbi)]
//           any state ──nofeedback timer──► X halved / limits updated (§4.4)
//
// The application source (rate/data_source.h) is greedy (the papers' media
// senders) or slower than X; §8.2.1's data-limited test, on the plumbing's
// record of which sends had more data waiting, then decides which branch of
// §4.3 step 4 a report takes. With packets of varying size, s is their mean
// (SendState::packet_bytes).
//
// An extension (ADTFRC) composes this law: it decodes the same feedback
// with the same parser, lets TFRC's rule run (apply_feedback, on_nofeedback)
// and may then replace the rate through override_rate, which TFRC goes on
// from; it writes nothing else of TFRC's.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mantra/params.h"
#include "rate/rate_law.h"
#include "rate/rate_sender.h"
#include "tfrc/tfrc_wire.h"

namespace mantra::tfrc {

struct SenderConfig {
  SendingConfig sending;
  Duration t_mbi = Duration::seconds(64);  // max back-off interval (RFC 5348 §4.3)
  bool oscillation_reduction = true;       // §4.5, RECOMMENDED; applied once p > 0
};

class TfrcLaw : public RateLaw {
 public:
  using Config = SenderConfig;
  explicit TfrcLaw(const SenderConfig& config = {});
  static std::string parse(const Params& params, SenderConfig& out);
  // TFRC's own parameters, read with a reader an extension shares.
  static void read(ParamReader& r, SenderConfig& out);

  size_t data_header_bytes() const override { return kDataHeaderBytes; }
  void write_data(const DataStamp& stamp, const SendState& state, std::vector<uint8_t>& out) override;
  ReportOutcome on_datagram(Time now, std::span<const uint8_t> bytes, SendState& state) override;
  Rate allowed_rate(const SendState&) const override { return Rate::bytes_per_sec(x_); }
  Rate pacing_rate(const SendState& state) const override;
  void on_start(Time now, const SendState& state) override;
  bool wants_send_log() const override { return true; }
  std::optional<Duration> nofeedback_interval(const SendState& state) const override;
  NofeedbackNext on_nofeedback(Time now, const SendState& state) override;
  std::vector<std::pair<std::string, double>> diagnostics(const SendState& state) const override;
  // The report's X_recv and its loss event rate over every loss (the floor
  // report option when the receiver sends one, else p: TFRC counts every loss).
  std::optional<FloorSignal> floor_signal() const override { return floor_; }

  // TFRC's rule for one decoded report (RFC 5348 §4.3): RTT sample, X_recv
  // set, rate. For extensions that decode the report themselves.
  void apply_feedback(Time now, const Feedback& fb, SendState& state);
  // An extension's rate decision after TFRC's rule; TFRC goes on from it.
  void override_rate(double bytes_per_s) { x_ = bytes_per_s; }

  double rate_bytes_per_s() const { return x_; }
  double loss_event_rate() const { return p_; }
  double receive_limit() const;                   // 2*max(X_recv_set) as used by slow start
  double min_rate(const SendState& state) const;  // s/t_mbi

 private:
  struct RecvSample {
    Time at;
    double bytes_per_s;
  };
  double equation_rate(const SendState& state) const;  // X_Bps at the current s, R, p
  double initial_rate(const SendState& state) const;   // W_init / R (RFC 3390 window, §4.2)
  void update_x_recv_set(Time now, double x_recv, const SendState& state);
  void maximize_x_recv_set(Time now, double x_recv);
  double max_x_recv_set() const;
  void recompute_rate(Time now, double recv_limit, const SendState& state);

  SenderConfig config_;
  double x_;  // allowed rate X, bytes/s
  double p_ = 0.0;
  Time tld_;  // last doubling in slow start
  bool tld_set_ = false;
  std::vector<RecvSample> x_recv_set_;  // entry with infinite rate at start
  int64_t nofeedback_expiries_ = 0;
  std::optional<FloorSignal> floor_;  // from the last report with X_recv > 0
};

using TfrcSender = RateSenderWith<TfrcLaw>;

}  // namespace mantra::tfrc
