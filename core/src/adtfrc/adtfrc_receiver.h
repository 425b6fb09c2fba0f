// ADTFRC receiver (Fu, Meng, Lu, §III and §IV, Algorithm 3).
//
// Model: a TFRC receiver that identifies the network state at every data
// packet (StateDetector: IDD, STT, POR, PLR against Table II) and lets only
// the losses seen in CONG count toward the loss event rate, so the p it
// reports is the congestion frequency. Every report carries the current
// state in an option; a loss seen in CONG sends an urgent report at once; a
// probe from the sender is answered at once.
//
//   data ──► StateDetector ──► state S (per rule: multi, IDD-only, STT-only)
//     │                          │
//     └─► LossDetector ──loss──► S == CONG ? ─yes─► LossIntervals (p), urgent report
//                                            └─no──► not congestion: ignored by p
//   report (per RTT, urgent, or probe) = TFRC feedback + option {S, urgent}
//
// Every declared loss also yields a LossVerdict per rule, so a simulator
// can score the identification against the true cause. A passive receiver
// only identifies: it acts as TFRC's (the set-up of the paper's Fig. 3).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "adtfrc/network_state.h"
#include "adtfrc/state_detector.h"
#include "tfrc/tfrc_receiver.h"

namespace mantra::adtfrc {

struct ReceiverConfig {
  tfrc::ReceiverConfig tfrc;
  // The samples each metric is ranked against: every sample since the flow
  // began, as the paper ranks against "all samples" (§III-C); or, with
  // Ranking::kWindow, the latest `window_samples` (500 is about 20 s at
  // 200 kb/s of 1000-byte packets), which keeps the ranking current across
  // speed and load changes of a 300 s run.
  Ranking ranking = Ranking::kAllSamples;
  size_t window_samples = 500;
  CongestionRule rule = CongestionRule::kMulti;  // which rule drives p and the reports
  // Identify and give verdicts, but act as a TFRC receiver: every loss
  // counts toward p and reports carry no state (so an ADTFRC sender is
  // TFRC). The paper's accuracy study (§III-D, Fig. 3) watches a TFRC flow.
  bool passive = false;
};

// ADTFRC's receiver: TFRC's receiver, composed, with ADTFRC's decisions as
// its extension.
class AdtfrcReceiver : public Receiver, private tfrc::ReceiverExtension {
 public:
  using Config = ReceiverConfig;
  // T before the sender's first RTT estimate arrives in data.
  static constexpr Duration kInitialInterval = Duration::millis(500);

  explicit AdtfrcReceiver(ReceiverConfig config = {});
  // tfrc_ holds `this` as its extension: a copy or a move would point at the original.
  AdtfrcReceiver(const AdtfrcReceiver&) = delete;
  AdtfrcReceiver& operator=(const AdtfrcReceiver&) = delete;
  static std::string parse(const Params& params, ReceiverConfig& out);

  void handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) override;
  void handle_timeout(Time now) override { tfrc_.handle_timeout(now); }
  std::optional<Datagram> poll_transmit(Time now) override { return tfrc_.poll_transmit(now); }
  std::optional<Time> poll_timeout() const override { return tfrc_.poll_timeout(); }
  EndpointStats stats() const override;
  bool identifies_loss_causes() const override { return true; }
  std::vector<LossVerdict> take_loss_verdicts() override;

  // The state the driving rule identified at the latest data packet.
  NetworkState state() const { return current_[static_cast<size_t>(rule_)]; }
  const StateDetector& state_detector() const { return state_detector_; }
  const tfrc::TfrcReceiver& tfrc() const { return tfrc_; }
  double loss_event_rate() const { return tfrc_.loss_event_rate(); }

 private:
  void on_data(Time now, const tfrc::DataHeader& header, const LossDetector::Arrival& arrival,
               Duration sender_rtt) override;
  LossUse on_loss(int64_t seq) override;
  void add_feedback_options(Time now, std::vector<WireOption>& options) override;

  CongestionRule rule_;
  bool passive_;
  StateDetector state_detector_;
  tfrc::TfrcReceiver tfrc_;
  Identification current_{};
  bool urgent_ = false;
  // The losses declared since take_loss_verdicts(), with the state each rule
  // identified: a LossVerdict per rule is built only when they are taken.
  struct DeclaredLoss {
    int64_t seq;
    Identification states;
  };
  std::vector<DeclaredLoss> declared_losses_;
  std::array<int64_t, 4> losses_by_state_{};  // indexed by NetworkState, driving rule
  int64_t probes_answered_ = 0;
  int64_t urgent_reports_ = 0;
};

}  // namespace mantra::adtfrc
