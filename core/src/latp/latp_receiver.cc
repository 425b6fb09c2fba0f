#include "latp/latp_receiver.h"

#include <algorithm>
#include <cmath>

#include "common/floor_report.h"
#include "common/throughput_equation.h"

namespace mantra::latp {
namespace {

// Extends a 24-bit sequence number to the one nearest `highest`.
int64_t extend_seq(uint32_t wire, int64_t highest) {
  if (highest < 0) return wire;
  constexpr int64_t kSpan = int64_t{1} << 24;
  const int64_t base = highest & ~(kSpan - 1);
  int64_t best = base + wire;
  for (int64_t candidate : {base - kSpan + wire, base + kSpan + wire}) {
    if (candidate >= 0 && std::llabs(candidate - highest) < std::llabs(best - highest)) best = candidate;
  }
  return best;
}

int32_t clamp_i32(double v) {
  return static_cast<int32_t>(
      std::clamp(std::round(v), static_cast<double>(INT32_MIN), static_cast<double>(INT32_MAX)));
}

}  // namespace

std::string LatpReceiver::parse(const Params& params, ReceiverConfig& out) {
  ParamReader r(params);
  out.eta = r.get("eta", out.eta);
  out.omega = r.get("omega", out.omega);
  r.require(out.eta >= 0 && out.eta < 1, "eta must be in [0, 1)");
  r.require(out.omega >= 0 && out.omega < 1, "omega must be in [0, 1)");
  out.floor_report = read_floor_report(r);
  return r.finish();
}

void LatpReceiver::handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) {
  const auto h = decode_data(bytes);
  if (!h || (ports_ && *ports_ != std::make_pair(h->src_port, h->dst_port))) {
    ++stats_.datagrams_rejected;
    return;
  }
  ports_ = std::make_pair(h->src_port, h->dst_port);
  stats_.count_received(bytes.size(), ecn);

  const int64_t seq = extend_seq(h->seq, detector_.highest_seq());
  const auto arrival = detector_.on_packet(static_cast<uint32_t>(seq), now);
  sender_rtt_ = Duration::millis(h->rtt_ms);
  if (h->rate_feedback_Bps == kNoRateLimit) {
    ++unbounded_r_;  // no node on the path had an estimate yet: no measurement
  } else {
    filter_.add(now, h->rate_feedback_Bps, sender_rtt_);
  }
  arrivals_.add(now, static_cast<int64_t>(bytes.size()));
  if (!arrival.late) {
    last_timestamp_ms_ = h->timestamp_ms;
    last_arrival_ = now;
  }
  if (floor_report_) {
    mean_packet_bytes_ +=
        (static_cast<double>(bytes.size()) - mean_packet_bytes_) / static_cast<double>(stats_.datagrams_received);
    if (arrival.bulk_losses > 0) add_floor_loss(now, arrival.bulk_first.seq, arrival.bulk_first.nominal_arrival);
    for (const auto& loss : arrival.losses) add_floor_loss(now, loss.seq, loss.nominal_arrival);
    all_losses_.on_highest_seq(detector_.highest_seq());
  }
  if (arrival.loss_count() > 0) {
    losses_ += arrival.loss_count();
    loss_pending_ = true;
    clock_.report_now();
  }
  if (h->urgent) {
    ++urgent_;
    clock_.report_now();
  }
  clock_.on_data();  // the first data, or data after an idle spell, is answered at once
}

void LatpReceiver::add_floor_loss(Time now, int64_t seq, Time nominal_arrival) {
  if (!all_losses_.on_loss(seq, nominal_arrival, sender_rtt_) || all_losses_.loss_events() != 1) return;
  const double rtt_s = sender_rtt_ > Duration::zero() ? sender_rtt_.secs() : 0.5;
  all_losses_.set_first_interval(synthetic_first_interval(std::max(1.0, mean_packet_bytes_), rtt_s,
                                                          arrivals_.rate_Bps(now, Duration::from_seconds(rtt_s))));
}

double LatpReceiver::receive_rate_Bps(Time now) const {
  Duration window = sender_rtt_;
  if (last_feedback_) window = std::max(window, now - *last_feedback_);
  return arrivals_.rate_Bps(now, window);
}

std::optional<Datagram> LatpReceiver::poll_transmit(Time now) {
  if (!clock_.due() || !ports_) return std::nullopt;
  Feedback f;
  f.src_port = ports_->second;
  f.dst_port = ports_->first;
  f.feedback_id = static_cast<uint32_t>(detector_.highest_seq()) & kSeqMask;
  f.loss_detected = loss_pending_;
  f.timestamp_echo_ms = last_timestamp_ms_;
  f.elapsed_ms = static_cast<uint16_t>(std::min<int64_t>((now - last_arrival_).us() / 1000, UINT16_MAX));
  f.rate_feedback_Bps = filter_.has_value() ? clamp_i32(filter_.value()) : kNoRateLimit;
  f.receive_rate_Bps = static_cast<uint32_t>(std::min(receive_rate_Bps(now), static_cast<double>(UINT32_MAX)));
  if (floor_report_) f.floor_loss_ppb = floor_loss_ppb(all_losses_.loss_event_rate());

  // Keep the arrivals that a later window (at most max(RTT, 1 s)) may need.
  const Duration keep = std::max(sender_rtt_, Duration::seconds(1));
  arrivals_.forget_through(now - keep);
  loss_pending_ = false;
  last_feedback_ = now;
  clock_.reported(now, sender_rtt_);  // no RTT yet: every packet asks for feedback itself
  return report_datagram(encode_feedback(f), stats_);
}

EndpointStats LatpReceiver::stats() const {
  EndpointStats s = stats_;
  s.diagnostics = {{"losses", static_cast<double>(losses_)},
                   {"urgent_requests", static_cast<double>(urgent_)},
                   {"unbounded_r", static_cast<double>(unbounded_r_)},
                   {"suspect_changes", static_cast<double>(filter_.changes_accepted())}};
  if (filter_.has_value()) s.diagnostics.emplace_back("r_avg_Bps", filter_.value());
  return s;
}

}  // namespace mantra::latp
