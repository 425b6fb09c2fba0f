#include "tfrc/tfrc_sender.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/floor_report.h"
#include "common/throughput_equation.h"

namespace mantra::tfrc {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr Duration kInitialNofeedback = Duration::seconds(2);  // §4.2, before any RTT sample
constexpr double kDataLimitedDecay = 0.85;                     // §4.3 step 4, loss while data-limited

}  // namespace

TfrcLaw::TfrcLaw(const SenderConfig& config)
    : config_(config), x_(static_cast<double>(config.sending.packet_bytes)) {}  // 1 packet/s (§4.2)

void TfrcLaw::read(ParamReader& r, SenderConfig& out) {
  SendingConfig::parse(r, kDataHeaderBytes, out.sending);
  const double t_mbi_s = r.get("t_mbi_s", out.t_mbi.secs());
  const double oscillation = r.get("oscillation_reduction", out.oscillation_reduction ? 1 : 0);
  r.require(t_mbi_s > 0 && t_mbi_s <= 3600, "t_mbi_s must be above 0 and at most 3600");
  r.require(oscillation == 0 || oscillation == 1, "oscillation_reduction must be 0 or 1");
  out.t_mbi = Duration::from_seconds(t_mbi_s);
  out.oscillation_reduction = oscillation == 1;
}

std::string TfrcLaw::parse(const Params& params, SenderConfig& out) {
  out = {};  // every parameter not given takes its default
  ParamReader r(params);
  read(r, out);
  return r.finish();
}

double TfrcLaw::min_rate(const SendState& state) const {
  return static_cast<double>(state.packet_bytes()) / config_.t_mbi.secs();
}

double TfrcLaw::equation_rate(const SendState& state) const {
  return tfrc_rate(static_cast<double>(state.packet_bytes()), state.rtt().smoothed_s(), p_);
}

double TfrcLaw::initial_rate(const SendState& state) const {
  // W_init = min(4s, max(2s, 4380 bytes)) per RTT (RFC 3390, RFC 5348 §4.2).
  const double s = static_cast<double>(state.packet_bytes());
  const double w_init = std::min(4.0 * s, std::max(2.0 * s, 4380.0));
  return w_init / state.rtt().smoothed_s();
}

double TfrcLaw::max_x_recv_set() const {
  double m = 0.0;
  for (const auto& e : x_recv_set_) m = std::max(m, e.bytes_per_s);
  return m;
}

double TfrcLaw::receive_limit() const { return 2.0 * max_x_recv_set(); }

void TfrcLaw::update_x_recv_set(Time now, double x_recv, const SendState& state) {
  // Add X_recv; drop entries older than two RTTs (§4.3, Update X_recv_set).
  x_recv_set_.push_back({now, x_recv});
  const Duration horizon = state.rtt().smoothed() * 2;
  std::erase_if(x_recv_set_, [&](const RecvSample& e) { return now - e.at > horizon; });
  if (x_recv_set_.empty()) x_recv_set_.push_back({now, x_recv});
}

void TfrcLaw::maximize_x_recv_set(Time now, double x_recv) {
  // Add X_recv, drop the initial infinity, keep only the maximum, stamped now.
  double m = x_recv;
  for (const auto& e : x_recv_set_) {
    if (e.bytes_per_s != kInfinity) m = std::max(m, e.bytes_per_s);
  }
  x_recv_set_ = {{now, m}};
}

void TfrcLaw::recompute_rate(Time now, double recv_limit, const SendState& state) {
  // §4.3 step 4, after recv_limit is known.
  if (p_ > 0) {
    x_ = std::max(std::min(equation_rate(state), recv_limit), min_rate(state));
  } else if (!tld_set_ || now - tld_ >= state.rtt().smoothed()) {
    x_ = std::max(std::min(2.0 * x_, recv_limit), initial_rate(state));
    tld_ = now;
    tld_set_ = true;
  }
}

void TfrcLaw::on_start(Time now, const SendState& /*state*/) { x_recv_set_ = {{now, kInfinity}}; }

void TfrcLaw::write_data(const DataStamp& stamp, const SendState& state, std::vector<uint8_t>& out) {
  DataHeader h;
  h.seq = stamp.seq;
  h.timestamp = stamp.now;
  h.sender_rtt = state.has_rtt() ? state.rtt().smoothed() : Duration::zero();
  out = encode_data(h, static_cast<size_t>(stamp.bytes));
}

ReportOutcome TfrcLaw::on_datagram(Time now, std::span<const uint8_t> bytes, SendState& state) {
  auto fb = decode_feedback(bytes);
  if (!fb) return ReportOutcome::kRejected;
  apply_feedback(now, *fb, state);
  return ReportOutcome::kTaken;
}

void TfrcLaw::apply_feedback(Time now, const Feedback& fb, SendState& state) {
  const Duration sample = (now - fb.t_recvdata) - fb.t_delay;  // §4.3 step 1
  const bool first_rtt = !state.has_rtt();
  state.add_rtt_sample(std::max(sample, Duration::micros(1)));
  if (first_rtt) {
    x_ = initial_rate(state);  // §4.2: the first RTT sample sets the initial rate
    tld_ = now;
    tld_set_ = true;
    x_recv_set_ = {{state.start(), kInfinity}};
  }
  const double previous_p = p_;
  p_ = fb.p;
  const double x_recv = fb.x_recv_bytes_per_s;
  if (x_recv > 0) floor_ = FloorSignal{find_floor_loss(fb.options).value_or(fb.p), x_recv};

  // §8.2.1 reading: the report covers the packets sent in the RTT before the
  // echoed timestamp.
  double recv_limit;
  if (state.interval_was_data_limited(fb.t_recvdata - state.rtt().smoothed(), fb.t_recvdata)) {
    if (p_ > previous_p) {
      for (auto& e : x_recv_set_) e.bytes_per_s /= 2.0;
      maximize_x_recv_set(now, kDataLimitedDecay * x_recv);
      recv_limit = max_x_recv_set();
    } else {
      maximize_x_recv_set(now, x_recv);
      recv_limit = 2.0 * max_x_recv_set();
    }
  } else {
    update_x_recv_set(now, x_recv, state);
    recv_limit = 2.0 * max_x_recv_set();
  }
  recompute_rate(now, recv_limit, state);
  // Forget send records the next report cannot cover.
  state.forget_sends_before(fb.t_recvdata - state.rtt().smoothed() * 2);
}

Rate TfrcLaw::pacing_rate(const SendState& state) const {
  // Oscillation reduction (§4.5) once out of slow start (p > 0 implies an RTT sample).
  double x_inst = x_;
  if (config_.oscillation_reduction && p_ > 0) {
    x_inst = std::max(x_ * state.rtt().sqrt_mean_s() / std::sqrt(state.rtt().latest().secs()), min_rate(state));
  }
  return Rate::bytes_per_sec(x_inst);
}

NofeedbackNext TfrcLaw::on_nofeedback(Time now, const SendState& state) {
  ++nofeedback_expiries_;
  const double s_over_tmbi = min_rate(state);
  const bool idle = !state.sent_since_timer_set();
  const double xr = max_x_recv_set();
  if (!state.has_rtt()) {
    if (!idle) x_ = std::max(x_ / 2.0, s_over_tmbi);  // never heard back
  } else {
    const double recover = initial_rate(state);
    if (((p_ == 0 && x_ < 2.0 * recover) || (p_ > 0 && xr < recover)) && idle) {
      // An idle sender keeps at least the rate it may restart with.
    } else if (p_ == 0) {
      x_ = std::max(x_ / 2.0, s_over_tmbi);
    } else {
      double limit = equation_rate(state) > 2.0 * xr ? xr : equation_rate(state) / 2.0;  // Update_Limits
      limit = std::max(limit, s_over_tmbi);
      x_recv_set_ = {{now, limit / 2.0}};
      recompute_rate(now, 2.0 * max_x_recv_set(), state);
    }
  }
  return NofeedbackNext::restart();
}

std::optional<Duration> TfrcLaw::nofeedback_interval(const SendState& state) const {
  const Duration two_packets = Bytes(2 * state.packet_bytes()) / Rate::bytes_per_sec(x_);
  const Duration base = state.has_rtt() ? state.rtt().smoothed() * 4 : kInitialNofeedback;
  return std::max(base, two_packets);
}

std::vector<std::pair<std::string, double>> TfrcLaw::diagnostics(const SendState& state) const {
  return {{"rate_bps", x_ * 8.0},
          {"rtt_ms", state.has_rtt() ? state.rtt().smoothed().ms() : 0.0},
          {"loss_event_rate", p_},
          {"nofeedback_expiries", static_cast<double>(nofeedback_expiries_)}};
}

}  // namespace mantra::tfrc
