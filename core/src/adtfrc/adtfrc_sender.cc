#include "adtfrc/adtfrc_sender.h"

#include <algorithm>

#include "adtfrc/adtfrc_wire.h"

namespace mantra::adtfrc {

AdtfrcLaw::AdtfrcLaw(const SenderConfig& config)
    : tfrc_(config), probing_period_(config.probing_period), max_probing_limit_(config.max_probing_limit) {}

std::string AdtfrcLaw::parse(const Params& params, SenderConfig& out) {
  out = {};  // every parameter not given takes its default
  // TFRC's parameters and ADTFRC's own, read as one set.
  ParamReader r(params);
  tfrc::TfrcLaw::read(r, out);
  const double period_s = r.get("probing_period_s", out.probing_period.secs());
  const double limit = r.get("max_probing_limit", out.max_probing_limit);
  r.require(period_s >= 0.001 && period_s <= 3600, "probing_period_s must be between 0.001 and 3600");
  r.require(limit >= 1 && limit <= 1e6, "max_probing_limit must be between 1 and 1000000");
  out.probing_period = Duration::from_seconds(period_s);
  out.max_probing_limit = static_cast<int>(limit);
  return r.finish();
}

ReportOutcome AdtfrcLaw::on_datagram(Time now, std::span<const uint8_t> bytes, SendState& state) {
  const auto fb = tfrc::decode_feedback(bytes);  // TFRC's feedback, with ADTFRC's option
  if (!fb) return ReportOutcome::kRejected;
  if (closed_) return ReportOutcome::kIgnored;
  const auto report = find_state_option(fb->options);
  if (report) {
    reported_ = report->state;
    ++reports_by_state_[static_cast<size_t>(report->state)];
  }
  const bool had_rtt = state.has_rtt();
  const double previous = tfrc_.rate_bytes_per_s();
  if (probing_) {
    // Algorithm 1, lines 1-5: leave probing, resume at the frozen rate and
    // act as in RTCHG until the reports describe the new path (§III-A).
    probing_ = false;
    probe_due_.reset();
    probes_in_spell_ = 0;
    resumed_at_ = now;
    holding_after_resume_ = true;
  }
  tfrc_.apply_feedback(now, *fb, state);  // RTT, X_recv bookkeeping, TFRC's rate
  if (holding_after_resume_ && fb->t_recvdata >= resumed_at_ + state.rtt().smoothed()) holding_after_resume_ = false;
  if (!had_rtt) return ReportOutcome::kTaken;  // the first report only sets the initial rate (RFC 5348 §4.2)
  if (holding_after_resume_) {
    tfrc_.override_rate(previous);
    return ReportOutcome::kTaken;
  }
  if (!report) return ReportOutcome::kTaken;  // a plain TFRC receiver: TFRC's rule
  switch (report->state) {
    case NetworkState::kCongestion:
      if (fb->x_recv_bytes_per_s > 0) {
        tfrc_.override_rate(std::max(std::min(tfrc_.rate_bytes_per_s(), static_cast<double>(fb->x_recv_bytes_per_s)),
                                     tfrc_.min_rate(state)));
      }
      break;
    case NetworkState::kRouteChange:
      tfrc_.override_rate(previous);
      break;
    case NetworkState::kChannelError:
    case NetworkState::kNormal:
      break;  // min(T_calc, 2*X_recv), as TFRC computed it
  }
  return ReportOutcome::kTaken;
}

NofeedbackNext AdtfrcLaw::on_nofeedback(Time now, const SendState& state) {
  if (closed_) return NofeedbackNext::stop();
  if (probing_) {  // Algorithm 2: another probe, or give up
    if (++probes_in_spell_ >= max_probing_limit_) {
      closed_ = true;
      probing_ = false;
      probe_due_.reset();
      return NofeedbackNext::stop();
    }
    probe_due_ = now;
    return NofeedbackNext::in(probing_period_);
  }
  if (reported_ && *reported_ != NetworkState::kCongestion) {
    // DISCONNECTION: freeze X and the TFRC timers, stop data, probe.
    probing_ = true;
    ++probing_spells_;
    probes_in_spell_ = 0;
    probe_due_ = now;
    return NofeedbackNext::in(probing_period_);
  }
  return tfrc_.on_nofeedback(now, state);  // CONG, or no state known: TFRC's back-off
}

std::optional<Datagram> AdtfrcLaw::make_control(Time now, const SendState& state) {
  if (!probing_ || !probe_due_) return std::nullopt;
  probe_due_.reset();
  Probe p;
  p.number = static_cast<uint32_t>(probes_in_spell_ + 1);
  p.timestamp = now;
  p.sender_rtt = state.has_rtt() ? state.rtt().smoothed() : Duration::zero();
  Datagram d;
  d.bytes = encode_probe(p);
  d.kind = DatagramKind::kProbe;
  ++probes_sent_;
  return d;
}

std::vector<std::pair<std::string, double>> AdtfrcLaw::diagnostics(const SendState& state) const {
  auto d = tfrc_.diagnostics(state);
  d.emplace_back("probing_spells", static_cast<double>(probing_spells_));
  d.emplace_back("probes_sent", static_cast<double>(probes_sent_));
  d.emplace_back("closed", closed_ ? 1.0 : 0.0);
  for (int i = 0; i < 4; ++i) {
    d.emplace_back("reports_" + std::string(state_name(static_cast<NetworkState>(i))),
                   static_cast<double>(reports_by_state_[i]));
  }
  return d;
}

}  // namespace mantra::adtfrc
