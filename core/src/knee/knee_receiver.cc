#include "knee/knee_receiver.h"

#include <algorithm>
#include <cmath>

#include "common/floor_report.h"

namespace mantra::knee {
namespace {

uint32_t saturated_u32(int64_t v) { return static_cast<uint32_t>(std::clamp<int64_t>(v, 0, UINT32_MAX)); }

}  // namespace

std::string KneeReceiver::parse(const Params& params, ReceiverConfig& out) {
  ParamReader r(params);
  read_floor_report(r);
  const double ms = r.get("report_interval_ms", static_cast<double>(out.report_interval.us()) / 1000);
  r.require(ms >= 10 && ms <= 10000, "report_interval_ms must be in [10, 10000]");
  out.report_interval = Duration::from_seconds(ms / 1000);
  return r.finish();
}

void KneeReceiver::handle_datagram_with_ttl(Time now, std::span<const uint8_t> bytes, Ecn ecn, uint8_t ttl) {
  const auto h = decode_data(bytes);
  if (!h || (ports_ && *ports_ != std::make_pair(h->latp.src_port, h->latp.dst_port))) {
    ++stats_.datagrams_rejected;
    return;
  }
  ports_ = std::make_pair(h->latp.src_port, h->latp.dst_port);
  stats_.count_received(bytes.size(), ecn);
  sender_rtt_ = Duration::millis(h->latp.rtt_ms);
  arrivals_.add(now, static_cast<int64_t>(bytes.size()));
  arrivals_.forget_through(now - std::max(sender_rtt_, Duration::seconds(1)));

  const int64_t seq = latp::extend_sequence(h->latp.seq, detector_.highest_seq());
  const auto arrival = detector_.on_packet(static_cast<uint32_t>(seq), now);
  losses_.on_arrival(now, arrival, static_cast<int64_t>(bytes.size()), detector_.highest_seq(), sender_rtt_, arrivals_);

  Interval& in = interval_;
  if (!in.began) in.began = now;
  // Any 64-bit send time may come off the wire: the difference saturates.
  int64_t owd_us = 0;
  if (__builtin_sub_overflow(now.us(), h->send_time_us, &owd_us)) owd_us = h->send_time_us < 0 ? INT64_MAX : INT64_MIN;
  // The delay of full-size packets only: on a multi-hop radio a packet's
  // floor grows with its size (each hop sends every byte), so a mix of sizes
  // would read the large ones' longer floor as a queue.
  const auto size = static_cast<int64_t>(bytes.size());
  largest_bytes_.add(now, size);
  const int64_t largest = *largest_bytes_.extreme();  // this packet is in the window
  if (largest != timed_reference_) {
    timed_reference_ = largest;
    in.timed = 0;  // the interval's earlier packets were timed against another size: not comparable
  }
  if (static_cast<double>(size) >= kFullSizeShare * static_cast<double>(largest)) {
    in.owd_min_us = in.timed == 0 ? owd_us : std::min(in.owd_min_us, owd_us);
    in.owd_sum_us = (in.timed == 0 ? 0 : in.owd_sum_us) + static_cast<double>(owd_us);
    ++in.timed;
  }
  ++in.packets;
  in.bytes = saturated_u32(int64_t{in.bytes} + static_cast<int64_t>(bytes.size()));
  if (ecn == Ecn::kCe) ++in.ce;
  if (h->latp.rate_feedback_Bps != latp::kNoRateLimit) in.r_min_Bps = std::min(in.r_min_Bps, h->latp.rate_feedback_Bps);
  if (ttl != 0) {
    if (last_ttl_ != 0 && ttl != last_ttl_) {
      in.ttl_changed = true;
      ++ttl_changes_;
    }
    last_ttl_ = ttl;
  }
  if (!arrival.late && seq == detector_.highest_seq()) {
    echo_send_time_us_ = h->send_time_us;
    last_arrival_ = now;
  }
  if (arrival.loss_count() > 0) {
    loss_count_ += arrival.loss_count();
    in.losses = saturated_u32(int64_t{in.losses} + arrival.loss_count());
    loss_pending_ = true;
    report_at_once_ = true;
    clock_.report_now();
  }
  if (h->latp.urgent) {
    report_at_once_ = true;
    clock_.report_now();
  }
  if (!clock_.deadline()) report_at_once_ = true;  // no clock runs: the first packet, or after an idle spell
  clock_.on_data();
}

std::optional<Datagram> KneeReceiver::poll_transmit(Time now) {
  if (!clock_.due() || !ports_) return std::nullopt;
  Report r;
  r.src_port = ports_->second;
  r.dst_port = ports_->first;
  r.highest_seq = static_cast<uint32_t>(detector_.highest_seq()) & latp::kSeqMask;
  r.loss_detected = loss_pending_;
  r.periodic = !report_at_once_;
  r.echo_send_time_us = echo_send_time_us_;
  r.elapsed_us = saturated_u32((now - last_arrival_).us());
  r.interval_us = interval_.began ? saturated_u32((now - *interval_.began).us()) : 0;
  r.packets = interval_.packets;
  r.bytes = interval_.bytes;
  r.ce_packets = interval_.ce;
  r.losses = interval_.losses;
  if (interval_.timed > 0) {
    r.owd_min_us = interval_.owd_min_us;
    r.owd_mean_us =
        std::max(r.owd_min_us,
                 static_cast<int64_t>(std::llround(std::clamp(interval_.owd_sum_us / interval_.timed, -9e18, 9e18))));
  }
  r.no_delay = interval_.packets > 0 && interval_.timed == 0;
  if (interval_.timed > 0) r.timed_bytes = static_cast<uint16_t>(std::min<int64_t>(timed_reference_, UINT16_MAX));
  r.r_min_Bps = interval_.r_min_Bps;
  r.loss_event_rate_ppb = floor_loss_ppb(losses_.loss_event_rate());
  r.ttl = last_ttl_;
  r.ttl_changed = interval_.ttl_changed;

  interval_ = Interval{};
  interval_.began = now;
  loss_pending_ = false;
  report_at_once_ = false;
  ++reports_;
  // No RTT yet: no clock, every packet asks for a report itself.
  clock_.reported(now, sender_rtt_ > Duration::zero() ? std::max(sender_rtt_, report_interval_) : Duration::zero());
  return report_datagram(encode_report(r), stats_);
}

EndpointStats KneeReceiver::stats() const {
  EndpointStats s = stats_;
  s.diagnostics = {{"losses", static_cast<double>(loss_count_)},
                   {"reports", static_cast<double>(reports_)},
                   {"loss_event_rate", losses_.loss_event_rate()},
                   {"ttl", static_cast<double>(last_ttl_)},
                   {"ttl_changes", static_cast<double>(ttl_changes_)}};
  return s;
}

}  // namespace mantra::knee
