#include "tfrc/tfrc_sender.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/throughput_equation.h"

namespace mantra::tfrc {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr Duration kInitialNofeedback = Duration::seconds(2);  // §4.2, before any RTT sample
constexpr double kDataLimitedDecay = 0.85;                     // §4.3 step 4, loss while data-limited

}  // namespace

TfrcSender::TfrcSender(SenderConfig config)
    : config_(config), x_(static_cast<double>(config.packet_bytes)) {}  // 1 packet/s (§4.2)

std::string TfrcSender::parse(const Params& params, SenderConfig& out) {
  ParamReader r(params);
  out.packet_bytes = static_cast<int64_t>(r.get("packet_size", 1000));
  out.t_mbi = Duration::from_seconds(r.get("t_mbi_s", 64));
  out.oscillation_reduction = r.get("oscillation_reduction", 1) != 0;
  out.source_rate = Rate::bps(static_cast<int64_t>(r.get("source_rate_bps", 0)));
  out.source_buffer_packets = static_cast<int64_t>(r.get("source_buffer_packets", 100));
  r.require(out.packet_bytes >= static_cast<int64_t>(kDataHeaderBytes) && out.packet_bytes <= 65507,
            "packet_size must be between 20 and 65507 bytes");
  r.require(out.t_mbi > Duration::zero(), "t_mbi_s must be positive");
  r.require(out.source_rate >= Rate::zero(), "source_rate_bps must not be negative");
  r.require(out.source_buffer_packets >= 1, "source_buffer_packets must be at least 1");
  return r.finish();
}

double TfrcSender::equation_rate() const {
  return tfrc_rate(static_cast<double>(config_.packet_bytes), rtt_.smoothed_s(), p_);
}

double TfrcSender::initial_rate() const {
  // W_init = min(4s, max(2s, 4380 bytes)) per RTT (RFC 3390, RFC 5348 §4.2).
  const double s = static_cast<double>(config_.packet_bytes);
  const double w_init = std::min(4.0 * s, std::max(2.0 * s, 4380.0));
  return w_init / rtt_.smoothed_s();
}

double TfrcSender::max_x_recv_set() const {
  double m = 0.0;
  for (const auto& e : x_recv_set_) m = std::max(m, e.bytes_per_s);
  return m;
}

double TfrcSender::receive_limit() const { return 2.0 * max_x_recv_set(); }

void TfrcSender::update_x_recv_set(Time now, double x_recv) {
  // Add X_recv; drop entries older than two RTTs (§4.3, Update X_recv_set).
  x_recv_set_.push_back({now, x_recv});
  const Duration horizon = rtt_.smoothed() * 2;
  std::erase_if(x_recv_set_, [&](const RecvSample& e) { return now - e.at > horizon; });
  if (x_recv_set_.empty()) x_recv_set_.push_back({now, x_recv});
}

void TfrcSender::maximize_x_recv_set(Time now, double x_recv) {
  // Add X_recv, drop the initial infinity, keep only the maximum, stamped now.
  double m = x_recv;
  for (const auto& e : x_recv_set_) {
    if (e.bytes_per_s != kInfinity) m = std::max(m, e.bytes_per_s);
  }
  x_recv_set_ = {{now, m}};
}

void TfrcSender::recompute_rate(Time now, double recv_limit) {
  // §4.3 step 4, after recv_limit is known.
  if (p_ > 0) {
    x_ = std::max(std::min(equation_rate(), recv_limit), min_rate());
  } else if (!tld_set_ || now - tld_ >= rtt_.smoothed()) {
    x_ = std::max(std::min(2.0 * x_, recv_limit), initial_rate());
    tld_ = now;
    tld_set_ = true;
  }
}

bool TfrcSender::interval_was_data_limited(Time t_recvdata) const {
  // §8.2.1 reading: the report covers the packets sent in the RTT before the
  // echoed timestamp. The interval was data-limited if no packet in it was
  // sent with more data waiting behind it.
  const Time from = t_recvdata - rtt_.smoothed();
  for (const auto& [at, not_limited] : sends_) {
    if (at >= from && at <= t_recvdata && not_limited) return false;
  }
  return true;
}

void TfrcSender::on_feedback(Time now, const Feedback& fb) {
  const Duration sample = (now - fb.t_recvdata) - fb.t_delay;  // §4.3 step 1
  const bool first_rtt = !rtt_.has_sample();
  rtt_.add_sample(std::max(sample, Duration::micros(1)));
  if (first_rtt) {
    x_ = initial_rate();  // §4.2: the first RTT sample sets the initial rate
    tld_ = now;
    tld_set_ = true;
    x_recv_set_ = {{start_, kInfinity}};
  }
  const double previous_p = p_;
  p_ = fb.p;
  const double x_recv = fb.x_recv_bytes_per_s;

  double recv_limit;
  if (interval_was_data_limited(fb.t_recvdata)) {
    if (p_ > previous_p) {
      for (auto& e : x_recv_set_) e.bytes_per_s /= 2.0;
      maximize_x_recv_set(now, kDataLimitedDecay * x_recv);
      recv_limit = max_x_recv_set();
    } else {
      maximize_x_recv_set(now, x_recv);
      recv_limit = 2.0 * max_x_recv_set();
    }
  } else {
    update_x_recv_set(now, x_recv);
    recv_limit = 2.0 * max_x_recv_set();
  }
  recompute_rate(now, recv_limit);
  // A higher rate applies from the last packet on, not after the old, longer
  // inter-packet interval (the first report lifts 1 packet/s to W_init/R).
  t_nom_ = std::min(t_nom_, last_send_ + Bytes(config_.packet_bytes) / Rate::bytes_per_sec(x_));
  restart_nofeedback_timer(now);  // §4.3 step 6
  // Forget send records the next report cannot cover.
  const Time keep_from = fb.t_recvdata - rtt_.smoothed() * 2;
  while (!sends_.empty() && sends_.front().first < keep_from) sends_.pop_front();
}

void TfrcSender::on_nofeedback(Time now) {
  ++nofeedback_expiries_;
  const double s_over_tmbi = min_rate();
  const bool idle = last_send_ < timer_set_at_;
  const double xr = max_x_recv_set();
  if (!rtt_.has_sample()) {
    if (!idle) x_ = std::max(x_ / 2.0, s_over_tmbi);  // never heard back
  } else {
    const double recover = initial_rate();
    if (((p_ == 0 && x_ < 2.0 * recover) || (p_ > 0 && xr < recover)) && idle) {
      // An idle sender keeps at least the rate it may restart with.
    } else if (p_ == 0) {
      x_ = std::max(x_ / 2.0, s_over_tmbi);
    } else {
      double limit = equation_rate() > 2.0 * xr ? xr : equation_rate() / 2.0;  // Update_Limits
      limit = std::max(limit, s_over_tmbi);
      x_recv_set_ = {{now, limit / 2.0}};
      recompute_rate(now, 2.0 * max_x_recv_set());
    }
  }
  restart_nofeedback_timer(now);
}

Duration TfrcSender::nofeedback_interval() const {
  const Duration two_packets = Bytes(2 * config_.packet_bytes) / Rate::bytes_per_sec(x_);
  const Duration base = rtt_.has_sample() ? rtt_.smoothed() * 4 : kInitialNofeedback;
  return std::max(base, two_packets);
}

void TfrcSender::restart_nofeedback_timer(Time now) {
  timer_set_at_ = now;
  nofeedback_deadline_ = now + nofeedback_interval();
}

void TfrcSender::handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) {
  auto fb = decode_feedback(bytes);
  if (!fb || !started_) {
    ++stats_.datagrams_rejected;
    return;
  }
  stats_.count_received(bytes.size(), ecn);
  on_feedback(now, *fb);
}

void TfrcSender::handle_timeout(Time now) {
  if (nofeedback_deadline_ && now >= *nofeedback_deadline_) on_nofeedback(now);
}

double TfrcSender::source_packet_interval_s() const {
  return static_cast<double>(config_.packet_bytes * 8) / static_cast<double>(config_.source_rate.bits_per_sec());
}

bool TfrcSender::has_backlog(Time now) const {
  if (config_.source_rate == Rate::zero()) return true;
  // Packet k (from 0) of the source exists from start + k*interval on.
  const auto generated = 1 + static_cast<int64_t>((now - start_).secs() / source_packet_interval_s() + 1e-9);
  return generated > source_consumed_;
}

void TfrcSender::drop_stale_source_packets(Time now) {
  if (config_.source_rate == Rate::zero()) return;
  const auto generated = 1 + static_cast<int64_t>((now - start_).secs() / source_packet_interval_s() + 1e-9);
  const int64_t excess = generated - source_consumed_ - config_.source_buffer_packets;
  if (excess > 0) {
    source_dropped_ += excess;
    source_consumed_ += excess;
  }
}

Time TfrcSender::next_source_packet_time() const {
  return start_ + Duration::from_seconds(static_cast<double>(source_consumed_) * source_packet_interval_s());
}

std::optional<Datagram> TfrcSender::poll_transmit(Time now) {
  if (!started_) {
    started_ = true;
    start_ = now;
    t_nom_ = now;
    last_send_ = now;
    x_recv_set_ = {{now, kInfinity}};
    restart_nofeedback_timer(now);  // 2 s before any RTT sample (§4.2)
  }
  drop_stale_source_packets(now);
  if (now < t_nom_ || !has_backlog(now)) return std::nullopt;

  DataHeader h;
  h.seq = next_seq_++;
  h.timestamp = now;
  h.sender_rtt = rtt_.has_sample() ? rtt_.smoothed() : Duration::zero();
  add_data_options(now, h.options);
  Datagram d;
  d.bytes = encode_data(h, static_cast<size_t>(config_.packet_bytes));
  d.kind = DatagramKind::kData;
  d.seq = h.seq;
  ++source_consumed_;
  sends_.emplace_back(now, has_backlog(now));
  last_send_ = now;

  // Pacing (§4.6) with oscillation reduction (§4.5) once out of slow start.
  double x_inst = x_;
  if (config_.oscillation_reduction && p_ > 0) {  // p > 0 implies an RTT sample
    x_inst = std::max(x_ * rtt_.sqrt_mean_s() / std::sqrt(rtt_.latest().secs()), min_rate());
  }
  const Duration t_ipi = Bytes(config_.packet_bytes) / Rate::bytes_per_sec(x_inst);
  if (t_nom_ + t_ipi < now) t_nom_ = now;  // no burst credit after an idle spell
  t_nom_ += t_ipi;

  stats_.count_sent(d.bytes.size());
  return d;
}

std::optional<Time> TfrcSender::poll_timeout() const {
  if (!started_) return std::nullopt;
  Time next = t_nom_;
  if (!has_backlog(t_nom_)) {
    next = std::max(next, next_source_packet_time());
  }
  if (nofeedback_deadline_) next = std::min(next, *nofeedback_deadline_);
  return next;
}

EndpointStats TfrcSender::stats() const {
  EndpointStats s = stats_;
  s.diagnostics = {{"rate_bps", x_ * 8.0},
                   {"rtt_ms", rtt_.has_sample() ? rtt_.smoothed().ms() : 0.0},
                   {"loss_event_rate", p_},
                   {"nofeedback_expiries", static_cast<double>(nofeedback_expiries_)},
                   {"source_dropped", static_cast<double>(source_dropped_)}};
  return s;
}

}  // namespace mantra::tfrc
