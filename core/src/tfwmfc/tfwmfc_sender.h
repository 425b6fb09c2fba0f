// TF-WMFC sender (Bae & Chong 2004, §2.3.1 and §2.3.3): the rate law on the
// rate sender, and the paper's loss-based TFRC (tfrc-loss, §3.3) as the same
// law fed by losses instead of ECN marks.
//
// Model: every T the sender sends a sender report stamped t_s. On the i-th
// receiver report at t_i it takes the samples
//   R_s    = (t_i - t_s) - t_d                                      (eq. 8)
//   P_M,s  = min(n_M, (t_i - t_{i-1}) / R[k]) / n_pkt               (eq. 7)
// (the extraction shows a product; the paper's text says the bound is the
// number of RTTs between two reports' arrivals, a quotient: an ECN-TCP halves
// at most once per RTT). Every Δ it moves the averages and the rate:
//   P_M[k] = (1 - α) P_M[k-1] + α P_M,s                             (eq. 5)
//   R[k]   = (1 - β) R[k-1] + β R_s                                 (eq. 6)
//   Y[k]   = s / (P_M (sqrt(2/(3 P_M)) + 25/36) + 7/6) R)  refined  (eq. 3/4)
//          or 1.22 s / (R sqrt(P_M))                        Floyd   (eq. 2)
// Until a report with n_M > 0 arrives (the initial phase, eq. 9), every R[k]
// Y doubles while Y < W_th/R[k] and grows by s/R[k] above it.
//
//   [before the first RTT: 1 packet/s]
//        │ first report with t_s echoed: R[k] = R_s, Y = s/R
//        ▼
//   [initial phase: eq. 9 every R[k]] ──report with n_M > 0──► P_M[k] starts
//        (R[k] every Δ)                                      (pm_start)
//                                                                 ▼
//                                    [model: P_M[k], R[k], Y[k] every Δ]
//
// Readings (docs/protocols/tfwmfc.md gives the reasons):
// - Y before the first RTT sample: one packet per second (RFC 5348 §4.2's
//   rate before feedback); at the first sample Y = s/R, a window of one
//   packet, as the ECN-TCP flows it shares with start.
// - pm_start, how P_M[k] starts when the initial phase ends: kContinue (the
//   default) sets P_M[k] to the p at which the model gives the current Y, so
//   the rate is continuous (as RFC 5348 §6.3.1 synthesizes TFRC's first loss
//   interval); kFirstSample takes the first sample; kZero starts from 0 and
//   lets eq. 5 climb (the literal reading; the first rates are then about
//   ten times too high, since α = 0.01).
// - Between two reports eq. 5 and 6 take the latest sample again every Δ
//   (the paper: "the latest sample ... obtained by the latest receiver
//   report"); ewma_per_report takes each sample once.
// - t_{i-1} of the first report is the flow's start.
// - tfrc-loss: P_L,s = min(n_lost, (t_i - t_{i-1}) / R[k]) / (n_pkt + n_lost)
//   (TCP too halves at most once per RTT for losses; bound_losses 0 drops the
//   bound), its initial phase ends at the first report with a loss, and its
//   packets ask for no ECN (RED then drops where it would mark).
// - No no-feedback timer: the paper has none.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mantra/params.h"
#include "rate/rate_law.h"
#include "rate/rate_sender.h"
#include "tfwmfc/tfwmfc_wire.h"

namespace mantra::tfwmfc {

enum class Model { kRefined, kFloyd };
enum class Signal { kMarks, kLosses };  // tfwmfc, tfrc-loss
enum class PmStart { kContinue, kFirstSample, kZero };

struct SenderConfig {
  SendingConfig sending;
  Signal signal = Signal::kMarks;
  Model model = Model::kRefined;
  double alpha = 0.01;                              // eq. 5 (Table 2)
  double beta = 0.05;                               // eq. 6 (Table 2)
  Duration delta = Duration::millis(100);           // Δ (Table 2: 0.1 s)
  Duration report_interval = Duration::seconds(1);  // T (Table 2: 1.0 s)
  double w_th_bytes = 64000;                        // W_th (Table 2: 64 kbytes)
  PmStart pm_start = PmStart::kContinue;
  bool ewma_per_report = false;
  bool bound = true;           // eq. 7's once-per-RTT bound (on losses too for tfrc-loss)
  bool ect = true;             // data asks for ECT(0); tfrc-loss: false
  double max_rate_bps = 1e10;  // a guard, not the paper's: keeps the pacing interval above zero
};

class TfwmfcLaw : public RateLaw {
 public:
  using Config = SenderConfig;
  explicit TfwmfcLaw(const SenderConfig& config = {});
  static std::string parse(const Params& params, SenderConfig& out);

  size_t data_header_bytes() const override { return kDataHeaderBytes; }
  void write_data(const DataStamp& stamp, const SendState& state, std::vector<uint8_t>& out) override;
  Ecn data_ecn() const override { return config_.ect ? Ecn::kEct0 : Ecn::kNotEct; }
  ReportOutcome on_datagram(Time now, std::span<const uint8_t> bytes, SendState& state) override;
  Rate allowed_rate(const SendState&) const override { return Rate::bytes_per_sec(y_); }
  void on_start(Time now, const SendState& state) override;
  std::optional<Duration> nofeedback_interval(const SendState&) const override { return std::nullopt; }
  std::optional<Time> rate_update_due() const override;
  void on_rate_update(Time now, const SendState& state) override;
  std::optional<Time> control_due() const override { return next_sender_report_; }
  std::optional<Datagram> make_control(Time now, const SendState& state) override;
  std::vector<std::pair<std::string, double>> diagnostics(const SendState& state) const override;
  // From the last receiver report: its loss fraction n_lost / (n_pkt + n_lost)
  // (losses, whichever signal the law follows) and receive rate.
  std::optional<FloorSignal> floor_signal() const override { return floor_; }

  bool initial_phase() const { return initial_; }
  double rate_bytes_per_s() const { return y_; }
  std::optional<double> p() const { return p_; }  // P_M[k] (P_L[k]); none before the model phase
  std::optional<double> rtt_s() const { return r_; }
  std::optional<double> p_sample() const { return p_sample_; }
  // The model's rate at s, R and p (bytes/s), and the p at which it gives y.
  double model_rate(double s_bytes, double rtt_s, double p) const;
  double model_p_for(double s_bytes, double rtt_s, double y_bytes_per_s) const;

 private:
  void take_report(Time now, const ReceiverReport& rr, SendState& state);
  void end_initial_phase(Time now, const SendState& state);
  void ramp(Time now, const SendState& state);  // eq. 9, once
  void set_rate(double y);

  SenderConfig config_;
  double y_;  // Y, bytes/s
  bool initial_ = true;
  std::optional<double> r_;         // R[k], s
  std::optional<double> r_sample_;  // R_s, s
  std::optional<double> p_;         // P_M[k]
  std::optional<double> p_sample_;  // P_M,s
  bool new_r_sample_ = false, new_p_sample_ = false;
  Time t_prev_report_;  // t_{i-1}
  Time next_delta_;
  std::optional<Time> next_ramp_;
  std::optional<Time> next_sender_report_;
  int64_t sender_reports_ = 0, receiver_reports_ = 0;
  std::optional<FloorSignal> floor_;
  int64_t signals_ = 0;         // n_M (n_lost) summed over the reports
  double signals_counted_ = 0;  // after eq. 7's bound
  std::optional<Time> initial_phase_end_;
};

// The paper's loss-based TFRC (§3.3): the same law with P_L for P_M.
class TfrcLossLaw : public TfwmfcLaw {
 public:
  using Config = SenderConfig;
  explicit TfrcLossLaw(const SenderConfig& config = {}) : TfwmfcLaw(config) {}
  static std::string parse(const Params& params, SenderConfig& out);
};

using TfwmfcSender = RateSenderWith<TfwmfcLaw>;
using TfrcLossSender = RateSenderWith<TfrcLossLaw>;

}  // namespace mantra::tfwmfc
