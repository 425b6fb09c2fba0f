#include "tfwmfc/tfwmfc_sender.h"

#include <algorithm>
#include <cmath>

#include "common/throughput_equation.h"

namespace mantra::tfwmfc {
namespace {

// Reads every parameter over `out`, whose values are the defaults.
std::string read_config(const Params& params, SenderConfig& out) {
  ParamReader r(params);
  SendingConfig::parse(r, kDataHeaderBytes, out.sending);
  out.alpha = r.get("alpha", out.alpha);
  out.beta = r.get("beta", out.beta);
  const double delta_s = r.get("delta_s", out.delta.secs());
  const double t_s = r.get("report_interval_s", out.report_interval.secs());
  out.w_th_bytes = r.get("w_th_bytes", out.w_th_bytes);
  const double model = r.get("model", 0);
  const double start = r.get("pm_start", 0);
  const double per_report = r.get("ewma_per_report", out.ewma_per_report ? 1 : 0);
  const double bound = r.get("bound", out.bound ? 1 : 0);
  const double ect = r.get("ect", out.ect ? 1 : 0);
  out.max_rate_bps = r.get("max_rate_bps", out.max_rate_bps);
  r.require(out.alpha > 0 && out.alpha < 1, "alpha must be in (0, 1)");
  r.require(out.beta > 0 && out.beta < 1, "beta must be in (0, 1)");
  r.require(delta_s >= 0.001 && delta_s <= 3600, "delta_s must be between 0.001 and 3600");
  r.require(t_s >= 0.001 && t_s <= 3600, "report_interval_s must be between 0.001 and 3600");
  r.require(out.w_th_bytes >= 1 && out.w_th_bytes <= 1e12, "w_th_bytes must be between 1 and 1e12");
  r.require(model == 0 || model == 1, "model must be 0 (refined, eq. 3) or 1 (Floyd, eq. 2)");
  r.require(start == 0 || start == 1 || start == 2, "pm_start must be 0 (continue), 1 (first sample) or 2 (zero)");
  r.require(per_report == 0 || per_report == 1, "ewma_per_report must be 0 or 1");
  r.require(bound == 0 || bound == 1, "bound must be 0 or 1");
  r.require(ect == 0 || ect == 1, "ect must be 0 or 1");
  r.require(out.max_rate_bps >= 8000 && out.max_rate_bps <= 1e12, "max_rate_bps must be between 8000 and 1e12");
  out.delta = Duration::from_seconds(delta_s);
  out.report_interval = Duration::from_seconds(t_s);
  out.model = model == 1 ? Model::kFloyd : Model::kRefined;
  out.pm_start = start == 1 ? PmStart::kFirstSample : start == 2 ? PmStart::kZero : PmStart::kContinue;
  out.ewma_per_report = per_report == 1;
  out.bound = bound == 1;
  out.ect = ect == 1;
  return r.finish();
}

}  // namespace

std::string TfwmfcLaw::parse(const Params& params, SenderConfig& out) {
  out = {};
  return read_config(params, out);
}

std::string TfrcLossLaw::parse(const Params& params, SenderConfig& out) {
  out = {};
  out.signal = Signal::kLosses;
  out.ect = false;
  return read_config(params, out);
}

TfwmfcLaw::TfwmfcLaw(const SenderConfig& config)
    : config_(config), y_(static_cast<double>(config.sending.packet_bytes)) {}  // 1 packet/s

double TfwmfcLaw::model_rate(double s_bytes, double rtt_s, double p) const {
  return config_.model == Model::kFloyd ? floyd_rate(s_bytes, rtt_s, p) : refined_ecn_rate(s_bytes, rtt_s, p);
}

double TfwmfcLaw::model_p_for(double s_bytes, double rtt_s, double y_bytes_per_s) const {
  return loss_rate_for([&](double p) { return model_rate(s_bytes, rtt_s, p); }, y_bytes_per_s);
}

void TfwmfcLaw::set_rate(double y) { y_ = std::min(y, config_.max_rate_bps / 8.0); }

void TfwmfcLaw::on_start(Time now, const SendState&) {
  t_prev_report_ = now;
  next_delta_ = now + config_.delta;
  next_sender_report_ = now;  // the first sender report goes out with the first data
}

void TfwmfcLaw::write_data(const DataStamp& stamp, const SendState&, std::vector<uint8_t>& out) {
  out = encode_data({stamp.seq, stamp.now}, static_cast<size_t>(stamp.bytes));
}

std::optional<Datagram> TfwmfcLaw::make_control(Time now, const SendState&) {
  next_sender_report_ = now + config_.report_interval;
  ++sender_reports_;
  Datagram d;
  d.kind = DatagramKind::kFeedback;
  d.bytes = encode_sender_report({now});
  return d;
}

ReportOutcome TfwmfcLaw::on_datagram(Time now, std::span<const uint8_t> bytes, SendState& state) {
  const auto rr = decode_receiver_report(bytes);
  if (!rr) return ReportOutcome::kRejected;
  take_report(now, *rr, state);
  return ReportOutcome::kTaken;
}

void TfwmfcLaw::take_report(Time now, const ReceiverReport& rr, SendState& state) {
  ++receiver_reports_;
  if (rr.t_s) {
    const Duration r_s = (now - *rr.t_s) - rr.t_d;  // eq. 8
    if (r_s > Duration::zero()) {
      r_sample_ = r_s.secs();
      new_r_sample_ = true;
      state.add_rtt_sample(r_s);
      if (!r_) {  // the first sample starts R[k] and the ramp from one packet per RTT
        r_ = r_sample_;
        set_rate(static_cast<double>(state.packet_bytes()) / *r_);
        next_ramp_ = now + Duration::from_seconds(*r_);
      }
    }
  }
  const bool marks = config_.signal == Signal::kMarks;
  const uint32_t n = marks ? rr.n_marked : rr.n_lost;
  const double packets = marks ? rr.n_pkt : static_cast<double>(rr.n_pkt) + rr.n_lost;
  if (packets > 0) {
    double counted = n;
    if (config_.bound && r_) counted = std::min(counted, (now - t_prev_report_).secs() / *r_);  // eq. 7
    p_sample_ = counted / packets;
    new_p_sample_ = true;
    signals_ += n;
    signals_counted_ += counted;
  }
  // The safety floor's input: the report's loss fraction (at least its loss
  // event rate) and receive rate over the time since the previous report.
  const double period_s = (now - t_prev_report_).secs();
  if (receiver_reports_ > 1 && period_s > 0 && rr.n_pkt > 0) {
    const double lost = rr.n_lost;
    floor_ = FloorSignal{lost / (rr.n_pkt + lost),
                         static_cast<double>(rr.n_pkt) * static_cast<double>(state.packet_bytes()) / period_s};
  }
  t_prev_report_ = now;
  if (initial_ && n > 0 && r_) end_initial_phase(now, state);
}

void TfwmfcLaw::end_initial_phase(Time now, const SendState& state) {
  initial_ = false;
  initial_phase_end_ = now;
  next_ramp_.reset();
  const auto s = static_cast<double>(state.packet_bytes());
  switch (config_.pm_start) {
    case PmStart::kContinue:
      p_ = model_p_for(s, *r_, y_);
      break;
    case PmStart::kFirstSample:
      p_ = p_sample_;
      break;
    case PmStart::kZero:
      p_ = 0.0;
      break;
  }
}

void TfwmfcLaw::ramp(Time now, const SendState& state) {
  const auto s = static_cast<double>(state.packet_bytes());
  if (y_ < config_.w_th_bytes / *r_)
    set_rate(2 * y_);
  else
    set_rate(y_ + s / *r_);
  next_ramp_ = now + Duration::from_seconds(*r_);
}

std::optional<Time> TfwmfcLaw::rate_update_due() const {
  if (next_ramp_ && *next_ramp_ < next_delta_) return next_ramp_;
  return next_delta_;
}

void TfwmfcLaw::on_rate_update(Time now, const SendState& state) {
  if (now >= next_delta_) {
    while (next_delta_ <= now) next_delta_ += config_.delta;
    if (r_ && r_sample_ && (new_r_sample_ || !config_.ewma_per_report)) {
      r_ = (1 - config_.beta) * *r_ + config_.beta * *r_sample_;  // eq. 6
    }
    if (!initial_ && p_sample_ && (new_p_sample_ || !config_.ewma_per_report)) {
      p_ = (1 - config_.alpha) * *p_ + config_.alpha * *p_sample_;  // eq. 5
    }
    new_r_sample_ = new_p_sample_ = false;
    if (!initial_ && *p_ > 0) set_rate(model_rate(static_cast<double>(state.packet_bytes()), *r_, *p_));  // eq. 4
  }
  if (initial_ && next_ramp_ && now >= *next_ramp_) ramp(now, state);
}

std::vector<std::pair<std::string, double>> TfwmfcLaw::diagnostics(const SendState&) const {
  std::vector<std::pair<std::string, double>> d{{"rate_bps", y_ * 8},
                                                {"initial_phase", initial_ ? 1.0 : 0.0},
                                                {"sender_reports", static_cast<double>(sender_reports_)},
                                                {"receiver_reports", static_cast<double>(receiver_reports_)},
                                                {"signals", static_cast<double>(signals_)},
                                                {"signals_counted", signals_counted_}};
  if (r_) d.emplace_back("rtt_ms", *r_ * 1e3);
  if (p_) d.emplace_back(config_.signal == Signal::kMarks ? "p_m" : "p_l", *p_);
  if (initial_phase_end_) d.emplace_back("initial_phase_end_s", initial_phase_end_->secs());
  return d;
}

}  // namespace mantra::tfwmfc
