#include "latp/latp_sender.h"

#include <algorithm>
#include <cmath>

namespace mantra::latp {
namespace {

constexpr int64_t kTimestampSpanMs = 1 << 16;
uint16_t wire_ms(Time t) { return static_cast<uint16_t>((t.us() / 1000) % kTimestampSpanMs); }

}  // namespace

LatpSender::LatpSender(SenderConfig config)
    : config_(config), rate_Bps_(static_cast<double>(config.packet_bytes) / kInitialInterval.secs()) {}

std::string LatpSender::parse(const Params& params, SenderConfig& out) {
  ParamReader r(params);
  out.packet_bytes = static_cast<int64_t>(r.get("packet_size", static_cast<double>(out.packet_bytes)));
  out.delta = r.get("delta", out.delta);
  out.decrease_fraction = r.get("decrease_fraction", out.decrease_fraction);
  out.nofeedback_rtts = static_cast<int>(r.get("nofeedback_rtts", out.nofeedback_rtts));
  out.source_rate = Rate::bps(static_cast<int64_t>(r.get("source_rate_bps", 0)));
  const double src = r.get("src_port", out.src_port), dst = r.get("dst_port", out.dst_port);
  r.require(out.packet_bytes >= static_cast<int64_t>(kDataHeaderBytes) && out.packet_bytes <= 65507,
            "packet_size must be between 16 and 65507 bytes");
  r.require(out.delta >= 0, "delta must not be negative");
  r.require(out.decrease_fraction > 0 && out.decrease_fraction < 1, "decrease_fraction must be in (0, 1)");
  r.require(out.nofeedback_rtts >= 1, "nofeedback_rtts must be at least 1");
  r.require(out.source_rate >= Rate::zero(), "source_rate_bps must not be negative");
  r.require(src >= 0 && src <= 65535 && dst >= 0 && dst <= 65535, "src_port and dst_port must be 16-bit");
  out.src_port = static_cast<uint16_t>(src);
  out.dst_port = static_cast<uint16_t>(dst);
  return r.finish();
}

double LatpSender::one_packet_per_rtt_Bps() const {
  if (!rtt_.has_sample()) return 0.0;
  return static_cast<double>(config_.packet_bytes) / rtt_.smoothed_s();
}

Duration LatpSender::nofeedback_interval() const {
  return rtt_.has_sample() ? rtt_.smoothed() * config_.nofeedback_rtts : kInitialNofeedback;
}

void LatpSender::set_rate(Time now, double rate_Bps) {
  rate_Bps_ = std::max(rate_Bps, one_packet_per_rtt_Bps());
  last_change_ = now;
  // A faster rate applies to the next packet, not only after the old gap.
  next_send_ = std::min(next_send_, last_sent_ + Bytes(config_.packet_bytes) / allowed_rate());
}

void LatpSender::decrease(Time now) {
  if (last_decrease_ && now - *last_decrease_ < rtt_.smoothed()) return;  // once per rtt
  ++decreases_;
  last_decrease_ = now;
  set_rate(now, rate_Bps_ * (1.0 - config_.decrease_fraction));
}

void LatpSender::handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) {
  const auto f = decode_feedback(bytes);
  if (!f || f->src_port != config_.dst_port || f->dst_port != config_.src_port) {
    ++stats_.datagrams_rejected;
    return;
  }
  stats_.count_received(bytes.size(), ecn);
  const int64_t sample_ms =
      ((now.us() / 1000 - f->timestamp_echo_ms - f->elapsed_ms) % kTimestampSpanMs + kTimestampSpanMs) %
      kTimestampSpanMs;
  rtt_.add_sample(Duration::millis(std::max<int64_t>(sample_ms, 1)));
  on_report(now, *f);
  nofeedback_deadline_ = now + nofeedback_interval();
}

void LatpSender::on_report(Time now, const Feedback& f) {
  const double s = f.receive_rate_Bps;
  const double r_avg = f.rate_feedback_Bps;
  const double x_per_rtt = one_packet_per_rtt_Bps();
  last_r_avg_Bps_ = r_avg;
  if (!have_report_) {
    have_report_ = true;
    set_rate(now, std::max(2 * s, x_per_rtt));
    return;
  }
  if (slow_start_ && r_avg >= 0) {
    if (now - last_change_ >= rtt_.smoothed()) set_rate(now, std::max(2 * s, x_per_rtt));
    return;
  }
  slow_start_ = false;
  if (r_avg < 0) {
    decrease(now);
  } else if (r_avg > config_.delta * rate_Bps_) {
    ++increases_;
    const double n_rtts = (now - last_change_) / rtt_.smoothed();
    set_rate(now, std::max(std::min({2 * s, rate_Bps_ + r_avg, rate_Bps_ + n_rtts * x_per_rtt}), x_per_rtt));
  } else {
    ++holds_;
  }
}

void LatpSender::handle_timeout(Time now) {
  if (!started_ || now < nofeedback_deadline_) return;
  ++nofeedback_expiries_;
  urgent_next_ = true;
  if (have_report_) {
    slow_start_ = false;
    set_rate(now, rate_Bps_ / 2);
  }
  nofeedback_deadline_ = now + nofeedback_interval();
}

Rate LatpSender::allowed_rate() const {
  const Rate r = Rate::bytes_per_sec(rate_Bps_);
  return config_.source_rate > Rate::zero() ? std::min(r, config_.source_rate) : r;
}

std::optional<Datagram> LatpSender::poll_transmit(Time now) {
  if (!started_) {
    started_ = true;
    next_send_ = now;
    last_change_ = now;
    nofeedback_deadline_ = now + kInitialNofeedback;
  }
  if (now < next_send_) return std::nullopt;
  DataHeader h;
  h.src_port = config_.src_port;
  h.dst_port = config_.dst_port;
  h.seq = next_seq_ & kSeqMask;
  h.urgent = urgent_next_ || !rtt_.has_sample();
  h.timestamp_ms = wire_ms(now);
  h.rtt_ms = rtt_.has_sample()
                 ? static_cast<uint16_t>(std::clamp<int64_t>(std::llround(rtt_.smoothed().ms()), 1, UINT16_MAX))
                 : 0;
  urgent_next_ = false;

  Datagram d;
  d.seq = next_seq_++;
  encode_data(h, static_cast<size_t>(config_.packet_bytes), d.bytes);
  stats_.count_sent(d.bytes.size());

  last_sent_ = now;
  const Duration ipi = Bytes(config_.packet_bytes) / allowed_rate();
  if (next_send_ + ipi < now) next_send_ = now;  // no burst credit after an idle spell
  next_send_ += ipi;
  return d;
}

std::optional<Time> LatpSender::poll_timeout() const {
  if (!started_) return std::nullopt;
  return std::min(next_send_, nofeedback_deadline_);
}

EndpointStats LatpSender::stats() const {
  EndpointStats s = stats_;
  s.diagnostics = {{"rate_bps", rate_Bps_ * 8.0},
                   {"slow_start", slow_start_ ? 1.0 : 0.0},
                   {"increases", static_cast<double>(increases_)},
                   {"holds", static_cast<double>(holds_)},
                   {"decreases", static_cast<double>(decreases_)},
                   {"nofeedback_expiries", static_cast<double>(nofeedback_expiries_)},
                   {"last_r_avg_Bps", last_r_avg_Bps_}};
  if (rtt_.has_sample()) s.diagnostics.emplace_back("rtt_ms", rtt_.smoothed().ms());
  return s;
}

}  // namespace mantra::latp
