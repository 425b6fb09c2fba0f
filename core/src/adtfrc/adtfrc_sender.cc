#include "adtfrc/adtfrc_sender.h"

#include <algorithm>

#include "adtfrc/adtfrc_wire.h"

namespace mantra::adtfrc {

AdtfrcSender::AdtfrcSender(SenderConfig config)
    : tfrc::TfrcSender(config.tfrc),
      probing_period_(config.probing_period),
      max_probing_limit_(config.max_probing_limit) {}

std::string AdtfrcSender::parse(const Params& params, SenderConfig& out) {
  // The TFRC parameters and ADTFRC's own, checked as one set.
  Params tfrc_params = params, own;
  for (const char* name : {"probing_period_s", "max_probing_limit"}) {
    if (auto it = tfrc_params.find(name); it != tfrc_params.end()) {
      own.insert(*it);
      tfrc_params.erase(it);
    }
  }
  std::string error = tfrc::TfrcSender::parse(tfrc_params, out.tfrc);
  if (!error.empty()) return error;
  const SenderConfig defaults;
  ParamReader r(own);
  const double period_s = r.get("probing_period_s", defaults.probing_period.secs());
  const double limit = r.get("max_probing_limit", defaults.max_probing_limit);
  r.require(period_s >= 0.001 && period_s <= 3600, "probing_period_s must be between 0.001 and 3600");
  r.require(limit >= 1 && limit <= 1e6, "max_probing_limit must be between 1 and 1000000");
  out.probing_period = Duration::from_seconds(period_s);
  out.max_probing_limit = static_cast<int>(limit);
  return r.finish();
}

void AdtfrcSender::on_feedback(Time now, const tfrc::Feedback& fb) {
  if (closed_) return;
  const auto report = find_state_option(fb.options);
  if (report) {
    reported_ = report->state;
    ++reports_by_state_[static_cast<size_t>(report->state)];
  }
  const bool had_rtt = has_rtt();
  const double previous = x_;
  if (probing_) {
    // Algorithm 1, lines 1-5: leave probing, resume at the frozen rate and
    // act as in RTCHG until the reports describe the new path (§III-A).
    probing_ = false;
    probe_due_ = false;
    probes_in_spell_ = 0;
    resumed_at_ = now;
    holding_after_resume_ = true;
  }
  tfrc::TfrcSender::on_feedback(now, fb);  // RTT, X_recv bookkeeping, TFRC's rate, timers
  if (holding_after_resume_ && fb.t_recvdata >= resumed_at_ + rtt()) holding_after_resume_ = false;
  if (!had_rtt) return;  // the first report only sets the initial rate (RFC 5348 §4.2)
  if (holding_after_resume_) {
    x_ = previous;
    return;
  }
  if (!report) return;  // a plain TFRC receiver: TFRC's rule
  switch (report->state) {
    case NetworkState::kCongestion:
      if (fb.x_recv_bytes_per_s > 0) {
        x_ = std::max(std::min(x_, static_cast<double>(fb.x_recv_bytes_per_s)), min_rate());
      }
      break;
    case NetworkState::kRouteChange:
      x_ = previous;
      break;
    case NetworkState::kChannelError:
    case NetworkState::kNormal:
      break;  // min(T_calc, 2*X_recv), as TFRC computed it
  }
}

void AdtfrcSender::send_probe_next(Time now) {
  probe_due_ = true;
  nofeedback_deadline_ = now + probing_period_;
}

void AdtfrcSender::on_nofeedback(Time now) {
  if (closed_) return;
  if (probing_) {  // Algorithm 2: another probe, or give up
    if (++probes_in_spell_ >= max_probing_limit_) {
      closed_ = true;
      probing_ = false;
      probe_due_ = false;
      nofeedback_deadline_.reset();
      return;
    }
    send_probe_next(now);
    return;
  }
  if (reported_ && *reported_ != NetworkState::kCongestion) {
    // DISCONNECTION: freeze X and the TFRC timers, stop data, probe.
    probing_ = true;
    ++probing_spells_;
    probes_in_spell_ = 0;
    send_probe_next(now);
    return;
  }
  tfrc::TfrcSender::on_nofeedback(now);  // CONG, or no state known: TFRC's back-off
}

std::optional<Datagram> AdtfrcSender::poll_transmit(Time now) {
  if (closed_) return std::nullopt;
  if (!probing_) return tfrc::TfrcSender::poll_transmit(now);
  if (!probe_due_) return std::nullopt;
  probe_due_ = false;
  Probe p;
  p.number = static_cast<uint32_t>(probes_in_spell_ + 1);
  p.timestamp = now;
  p.sender_rtt = has_rtt() ? rtt() : Duration::zero();
  Datagram d;
  d.bytes = encode_probe(p);
  d.kind = DatagramKind::kProbe;
  ++probes_sent_;
  stats_.count_sent(d.bytes.size());
  return d;
}

std::optional<Time> AdtfrcSender::poll_timeout() const {
  if (closed_) return std::nullopt;
  if (probing_) return nofeedback_deadline_;
  return tfrc::TfrcSender::poll_timeout();
}

EndpointStats AdtfrcSender::stats() const {
  EndpointStats s = tfrc::TfrcSender::stats();
  s.diagnostics.emplace_back("probing_spells", static_cast<double>(probing_spells_));
  s.diagnostics.emplace_back("probes_sent", static_cast<double>(probes_sent_));
  s.diagnostics.emplace_back("closed", closed_ ? 1.0 : 0.0);
  for (int i = 0; i < 4; ++i) {
    s.diagnostics.emplace_back("reports_" + std::string(state_name(static_cast<NetworkState>(i))),
                               static_cast<double>(reports_by_state_[i]));
  }
  return s;
}

}  // namespace mantra::adtfrc
