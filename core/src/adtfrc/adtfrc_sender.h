// ADTFRC sender (Fu, Meng, Lu, §III-A and §IV, Algorithms 1 and 2, Fig. 4):
// ADTFRC's rate law on the rate sender, composing TFRC's law.
//
// Model: a TFRC sender that reads the network state the receiver reports in
// each feedback and, instead of treating every loss and every silence as
// congestion, reacts per state:
//   CONG    X = min(T_calc, X_recv)      decrease (tighter than TFRC's 2*X_recv)
//   RTCHG   X = X_prev                   hold for the new path
//   CHERR   X = min(T_calc, 2*X_recv)    TFRC's rule; p already ignores the loss
//   NORMAL  X = TFRC's rule              (Algorithm 1 leaves NORMAL unsaid)
// Lines 16-20 of Algorithm 1 read inverted in the extracted text ("if T_new
// >= T_prev then decrease"); we read them as "move toward T_new": a decrease
// applies at once, an increase is bounded by TFRC's own limits (slow-start
// doubling per RTT, 2*X_recv), which keep it gradual.
//
// On a nofeedback (retransmission) timeout, Algorithm 2: if the last reported
// state is not CONG, the path is taken as DISCONNECTED: the rate and timers
// freeze, data stops, and a probe goes out every probing_period; the first
// feedback ends probing and data resumes at the frozen rate, held (the RTCHG
// action) until a report covers a full RTT of data sent after the resumption;
// after max_probing_limit probes without an answer the connection closes.
// Probes are the law's control packets, due when the no-feedback timer
// (re-armed every probing_period while probing) fires. In
// CONG, or with no state ever reported (a plain TFRC receiver), TFRC's
// halving applies, so against a TFRC receiver this sender is TFRC.
//
//                 feedback {state}                 timeout, state != CONG
//   [TFRC rate control] ◄──────────── [probing] ◄─────────────────── [TFRC]
//     │ timeout, CONG or no state       │ timeout: probe, count++
//     ▼                                 ▼ count >= max_probing_limit
//   TFRC back-off (X/2)              [closed: sends nothing]
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "adtfrc/network_state.h"
#include "tfrc/tfrc_sender.h"

namespace mantra::adtfrc {

struct SenderConfig : tfrc::SenderConfig {
  // Not given in the paper. One probe a second (ELFN-style periodic probing,
  // Holland & Vaidya) resumes within a second of a reconnection for about
  // one 20-byte packet per second of silence.
  Duration probing_period = Duration::seconds(1);
  // Not given in the paper: two minutes of unanswered probes close the flow.
  int max_probing_limit = 120;
};

class AdtfrcLaw : public RateLaw {
 public:
  using Config = SenderConfig;
  explicit AdtfrcLaw(const SenderConfig& config = {});
  static std::string parse(const Params& params, SenderConfig& out);

  size_t data_header_bytes() const override { return tfrc_.data_header_bytes(); }
  void write_data(const DataStamp& stamp, const SendState& state, std::vector<uint8_t>& out) override {
    tfrc_.write_data(stamp, state, out);
  }
  ReportOutcome on_datagram(Time now, std::span<const uint8_t> bytes, SendState& state) override;
  Rate allowed_rate(const SendState& state) const override { return tfrc_.allowed_rate(state); }
  Rate pacing_rate(const SendState& state) const override { return tfrc_.pacing_rate(state); }
  // TFRC's: with the receiver's floor report, the loss event rate over every
  // loss, those its detector did not count as congestion included.
  std::optional<FloorSignal> floor_signal() const override { return tfrc_.floor_signal(); }
  void on_start(Time now, const SendState& state) override { tfrc_.on_start(now, state); }
  bool wants_send_log() const override { return true; }
  bool data_paused() const override { return probing_ || closed_; }
  std::optional<Duration> nofeedback_interval(const SendState& state) const override {
    return tfrc_.nofeedback_interval(state);
  }
  NofeedbackNext on_nofeedback(Time now, const SendState& state) override;
  std::optional<Time> control_due() const override { return probe_due_; }
  std::optional<Datagram> make_control(Time now, const SendState& state) override;
  std::vector<std::pair<std::string, double>> diagnostics(const SendState& state) const override;

  const tfrc::TfrcLaw& tfrc() const { return tfrc_; }
  double rate_bytes_per_s() const { return tfrc_.rate_bytes_per_s(); }
  bool probing() const { return probing_; }
  bool closed() const { return closed_; }
  int probes_in_spell() const { return probes_in_spell_; }
  std::optional<NetworkState> reported_state() const { return reported_; }

 private:
  tfrc::TfrcLaw tfrc_;
  Duration probing_period_;
  int max_probing_limit_;
  std::optional<NetworkState> reported_;  // the latest state report
  bool probing_ = false;
  std::optional<Time> probe_due_;  // a probe goes out at the next poll from then
  bool closed_ = false;
  int probes_in_spell_ = 0;
  Time resumed_at_;
  bool holding_after_resume_ = false;
  int64_t probing_spells_ = 0;
  int64_t probes_sent_ = 0;
  std::array<int64_t, 4> reports_by_state_{};
};

using AdtfrcSender = RateSenderWith<AdtfrcLaw>;

}  // namespace mantra::adtfrc
