#include "adtfrc/adtfrc_receiver.h"

#include "adtfrc/adtfrc_wire.h"
#include "common/packet_type.h"

namespace mantra::adtfrc {

AdtfrcReceiver::AdtfrcReceiver(ReceiverConfig config)
    : rule_(config.rule),
      passive_(config.passive),
      state_detector_(config.ranking, config.window_samples),
      tfrc_(config.tfrc, this) {
  current_.fill(NetworkState::kNormal);
}

std::string AdtfrcReceiver::parse(const Params& params, ReceiverConfig& out) {
  const ReceiverConfig defaults;
  ParamReader r(params);
  tfrc::TfrcReceiver::read(r, out.tfrc);
  const double ranking = r.get("ranking", static_cast<double>(defaults.ranking));
  const double window = r.get("window_samples", static_cast<double>(defaults.window_samples));
  const double rule = r.get("detector", 0);
  const double passive = r.get("passive", 0);
  r.require(passive == 0 || passive == 1, "passive must be 0 or 1");
  r.require(ranking == 0 || ranking == 1, "ranking must be 0 (all samples) or 1 (sliding window of window_samples)");
  r.require(window >= static_cast<double>(StateDetector::kMinSamples) && window <= 100000,
            "window_samples must be between 10 and 100000");
  r.require(rule == 0 || rule == 1 || rule == 2, "detector must be 0 (multi-metric), 1 (IDD only) or 2 (STT only)");
  out.ranking = static_cast<Ranking>(static_cast<int>(ranking));
  out.window_samples = static_cast<size_t>(window);
  out.rule = static_cast<CongestionRule>(static_cast<int>(rule));
  out.passive = passive == 1;
  return r.finish();
}

void AdtfrcReceiver::handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) {
  if (bytes.empty() || bytes[0] != static_cast<uint8_t>(PacketType::kAdtfrcProbe)) {
    tfrc_.handle_datagram(now, bytes, ecn);
    return;
  }
  auto probe = decode_probe(bytes);
  if (!probe) {
    tfrc_.handle_datagram(now, bytes, ecn);  // counted there as rejected
    return;
  }
  ++probes_answered_;
  tfrc_.answer(probe->timestamp, now, probe->sender_rtt);  // Algorithm 3: a probing packet is answered at once
}

void AdtfrcReceiver::on_data(Time now, const tfrc::DataHeader& header, const LossDetector::Arrival& arrival,
                             Duration sender_rtt) {
  const Duration interval = sender_rtt > Duration::zero() ? sender_rtt : kInitialInterval;
  current_ = state_detector_.on_packet(header.timestamp, now, arrival.loss_count(), interval);
}

AdtfrcReceiver::LossUse AdtfrcReceiver::on_loss(int64_t seq) {
  declared_losses_.push_back({seq, current_});
  const NetworkState s = state();
  ++losses_by_state_[static_cast<size_t>(s)];
  if (passive_) return LossUse::kCount;
  if (s != NetworkState::kCongestion) return LossUse::kIgnore;  // not congestion: p ignores it (§IV)
  urgent_ = true;                                               // Algorithm 3: Urgent = 1
  return LossUse::kCountAndReportNow;
}

void AdtfrcReceiver::add_feedback_options(Time /*now*/, std::vector<WireOption>& options) {
  if (passive_) return;
  options.push_back(encode_state_option({state(), urgent_}));
  if (urgent_) ++urgent_reports_;
  urgent_ = false;
}

std::vector<LossVerdict> AdtfrcReceiver::take_loss_verdicts() {
  std::vector<LossVerdict> verdicts;
  verdicts.reserve(declared_losses_.size() * kCongestionRules);
  for (const auto& loss : declared_losses_) {
    for (int r = 0; r < kCongestionRules; ++r) {
      const auto rule = static_cast<CongestionRule>(r);
      verdicts.push_back(
          {loss.seq, std::string(rule_name(rule)), std::string(state_name(loss.states[r])), rule == rule_});
    }
  }
  declared_losses_.clear();
  return verdicts;
}

EndpointStats AdtfrcReceiver::stats() const {
  EndpointStats s = tfrc_.stats();
  for (int i = 0; i < 4; ++i) {
    s.diagnostics.emplace_back("losses_" + std::string(state_name(static_cast<NetworkState>(i))),
                               static_cast<double>(losses_by_state_[i]));
  }
  s.diagnostics.emplace_back("urgent_reports", static_cast<double>(urgent_reports_));
  s.diagnostics.emplace_back("probes_answered", static_cast<double>(probes_answered_));
  return s;
}

}  // namespace mantra::adtfrc
