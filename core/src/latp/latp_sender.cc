#include "latp/latp_sender.h"

#include <algorithm>
#include <cmath>

#include "common/floor_report.h"

namespace mantra::latp {
namespace {

constexpr int64_t kTimestampSpanMs = 1 << 16;
uint16_t wire_ms(Time t) { return static_cast<uint16_t>((t.us() / 1000) % kTimestampSpanMs); }

}  // namespace

LatpLaw::LatpLaw(const SenderConfig& config)
    : config_(config), rate_Bps_(static_cast<double>(config.sending.packet_bytes) / kInitialInterval.secs()) {}

std::string LatpLaw::parse(const Params& params, SenderConfig& out) {
  out = {};  // every parameter not given takes its default
  ParamReader r(params);
  SendingConfig::parse(r, kDataHeaderBytes, out.sending);
  out.delta = r.get("delta", out.delta);
  out.decrease_fraction = r.get("decrease_fraction", out.decrease_fraction);
  out.nofeedback_rtts = static_cast<int>(r.get("nofeedback_rtts", out.nofeedback_rtts));
  const double src = r.get("src_port", out.src_port), dst = r.get("dst_port", out.dst_port);
  r.require(out.delta >= 0, "delta must not be negative");
  r.require(out.decrease_fraction > 0 && out.decrease_fraction < 1, "decrease_fraction must be in (0, 1)");
  r.require(out.nofeedback_rtts >= 1, "nofeedback_rtts must be at least 1");
  r.require(src >= 0 && src <= 65535 && dst >= 0 && dst <= 65535, "src_port and dst_port must be 16-bit");
  out.src_port = static_cast<uint16_t>(src);
  out.dst_port = static_cast<uint16_t>(dst);
  return r.finish();
}

double LatpLaw::one_packet_per_rtt_Bps(const SendState& state) const {
  if (!state.has_rtt()) return 0.0;
  return static_cast<double>(state.packet_bytes()) / state.rtt().smoothed_s();
}

std::optional<Duration> LatpLaw::nofeedback_interval(const SendState& state) const {
  return state.has_rtt() ? state.rtt().smoothed() * config_.nofeedback_rtts : kInitialNofeedback;
}

void LatpLaw::set_rate(Time now, double rate_Bps, const SendState& state) {
  rate_Bps_ = std::max(rate_Bps, one_packet_per_rtt_Bps(state));
  last_change_ = now;
}

void LatpLaw::decrease(Time now, const SendState& state) {
  if (last_decrease_ && now - *last_decrease_ < state.rtt().smoothed()) return;  // once per rtt
  ++decreases_;
  last_decrease_ = now;
  set_rate(now, rate_Bps_ * (1.0 - config_.decrease_fraction), state);
}

ReportOutcome LatpLaw::on_datagram(Time now, std::span<const uint8_t> bytes, SendState& state) {
  const auto f = decode_feedback(bytes);
  if (!f || f->src_port != config_.dst_port || f->dst_port != config_.src_port) return ReportOutcome::kRejected;
  const int64_t sample_ms =
      ((now.us() / 1000 - f->timestamp_echo_ms - f->elapsed_ms) % kTimestampSpanMs + kTimestampSpanMs) %
      kTimestampSpanMs;
  state.add_rtt_sample(Duration::millis(std::max<int64_t>(sample_ms, 1)));
  if (f->floor_loss_ppb && f->receive_rate_Bps > 0)
    floor_ = FloorSignal{floor_loss_from_ppb(*f->floor_loss_ppb), static_cast<double>(f->receive_rate_Bps)};
  on_report(now, *f, state);
  return ReportOutcome::kTaken;
}

void LatpLaw::on_report(Time now, const Feedback& f, const SendState& state) {
  const double s = f.receive_rate_Bps;
  const double r_avg = f.rate_feedback_Bps;
  const double x_per_rtt = one_packet_per_rtt_Bps(state);
  last_r_avg_Bps_ = r_avg;
  if (!have_report_) {
    have_report_ = true;
    set_rate(now, std::max(2 * s, x_per_rtt), state);
    return;
  }
  if (slow_start_ && r_avg >= 0) {
    if (now - last_change_ >= state.rtt().smoothed()) set_rate(now, std::max(2 * s, x_per_rtt), state);
    return;
  }
  slow_start_ = false;
  if (r_avg < 0) {
    decrease(now, state);
  } else if (r_avg > config_.delta * rate_Bps_) {
    ++increases_;
    const double n_rtts = (now - last_change_) / state.rtt().smoothed();
    set_rate(now, std::max(std::min({2 * s, rate_Bps_ + r_avg, rate_Bps_ + n_rtts * x_per_rtt}), x_per_rtt), state);
  } else {
    ++holds_;
  }
}

NofeedbackNext LatpLaw::on_nofeedback(Time now, const SendState& state) {
  ++nofeedback_expiries_;
  urgent_next_ = true;
  if (have_report_) {
    slow_start_ = false;
    set_rate(now, rate_Bps_ / 2, state);
  }
  return NofeedbackNext::restart();
}

void LatpLaw::write_data(const DataStamp& stamp, const SendState& state, std::vector<uint8_t>& out) {
  DataHeader h;
  h.src_port = config_.src_port;
  h.dst_port = config_.dst_port;
  h.seq = stamp.seq & kSeqMask;
  h.urgent = urgent_next_ || !state.has_rtt();
  h.timestamp_ms = wire_ms(stamp.now);
  h.rtt_ms = state.has_rtt()
                 ? static_cast<uint16_t>(std::clamp<int64_t>(std::llround(state.rtt().smoothed().ms()), 1, UINT16_MAX))
                 : 0;
  urgent_next_ = false;
  encode_data(h, static_cast<size_t>(stamp.bytes), out);
}

std::vector<std::pair<std::string, double>> LatpLaw::diagnostics(const SendState& state) const {
  std::vector<std::pair<std::string, double>> d = {{"rate_bps", rate_Bps_ * 8.0},
                                                   {"slow_start", slow_start_ ? 1.0 : 0.0},
                                                   {"increases", static_cast<double>(increases_)},
                                                   {"holds", static_cast<double>(holds_)},
                                                   {"decreases", static_cast<double>(decreases_)},
                                                   {"nofeedback_expiries", static_cast<double>(nofeedback_expiries_)},
                                                   {"last_r_avg_Bps", last_r_avg_Bps_}};
  if (state.has_rtt()) d.emplace_back("rtt_ms", state.rtt().smoothed().ms());
  return d;
}

}  // namespace mantra::latp
