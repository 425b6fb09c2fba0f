#include "latp/latp_receiver.h"

#include <algorithm>
#include <cmath>

#include "common/floor_report.h"

namespace mantra::latp {
namespace {

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

  const int64_t seq = extend_sequence(h->seq, detector_.highest_seq());
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
    all_losses_.on_arrival(now, arrival, static_cast<int64_t>(bytes.size()), detector_.highest_seq(), sender_rtt_,
                           arrivals_);
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
