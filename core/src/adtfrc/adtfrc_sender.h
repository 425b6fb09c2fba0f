// ADTFRC sender (Fu, Meng, Lu, §III-A and §IV, Algorithms 1 and 2, Fig. 4).
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
// after max_probing_limit probes without an answer the connection closes. In
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

struct SenderConfig {
  tfrc::SenderConfig tfrc;
  // Not given in the paper. One probe a second (ELFN-style periodic probing,
  // Holland & Vaidya) resumes within a second of a reconnection for about
  // one 20-byte packet per second of silence.
  Duration probing_period = Duration::seconds(1);
  // Not given in the paper: two minutes of unanswered probes close the flow.
  int max_probing_limit = 120;
};

class AdtfrcSender : public tfrc::TfrcSender {
 public:
  explicit AdtfrcSender(SenderConfig config = {});
  static std::string parse(const Params& params, SenderConfig& out);

  std::optional<Datagram> poll_transmit(Time now) override;
  std::optional<Time> poll_timeout() const override;
  EndpointStats stats() const override;

  bool probing() const { return probing_; }
  bool closed() const { return closed_; }
  int probes_in_spell() const { return probes_in_spell_; }
  std::optional<NetworkState> reported_state() const { return reported_; }

 protected:
  void on_feedback(Time now, const tfrc::Feedback& fb) override;
  void on_nofeedback(Time now) override;

 private:
  void send_probe_next(Time now);

  Duration probing_period_;
  int max_probing_limit_;
  std::optional<NetworkState> reported_;  // the latest state report
  bool probing_ = false;
  bool probe_due_ = false;
  bool closed_ = false;
  int probes_in_spell_ = 0;
  Time resumed_at_;
  bool holding_after_resume_ = false;
  int64_t probing_spells_ = 0;
  int64_t probes_sent_ = 0;
  std::array<int64_t, 4> reports_by_state_{};
};

}  // namespace mantra::adtfrc
