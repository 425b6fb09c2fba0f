#include "tfrc/tfrc_receiver.h"

#include <algorithm>

#include "common/throughput_equation.h"

namespace mantra::tfrc {

TfrcReceiver::TfrcReceiver(ReceiverConfig config) : config_(config), intervals_(config.history_discounting) {}

std::string TfrcReceiver::parse(const Params& params, ReceiverConfig& out) {
  ParamReader r(params);
  out.history_discounting = r.get("history_discounting", 1.0) != 0.0;
  return r.finish();
}

bool TfrcReceiver::add_loss(int64_t seq, Time nominal_arrival) {
  const bool new_event = intervals_.on_loss(seq, nominal_arrival, sender_rtt_);
  if (new_event) {
    if (intervals_.loss_events() == 1) synthesize_first_interval(last_arrival_);
    feedback_now_ = true;  // p increased: report at once (§6.1)
  }
  return new_event;
}

void TfrcReceiver::synthesize_first_interval(Time now) {
  // §6.3.1: the interval for which the equation gives X_target, the receive
  // rate over the last RTT, no less than 0.5 packets per RTT.
  const double s = std::max(1.0, mean_packet_bytes_);
  const double rtt_s = sender_rtt_ > Duration::zero() ? sender_rtt_.secs() : 0.5;
  const double x_target = std::max(arrivals_.rate_Bps(now, Duration::from_seconds(rtt_s)), 0.5 * s / rtt_s);
  const double p = tfrc_loss_rate_for(s, rtt_s, x_target);
  intervals_.set_first_interval(1.0 / p);
}

void TfrcReceiver::handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) {
  auto data = decode_data(bytes);
  if (!data) {
    ++stats_.datagrams_rejected;
    return;
  }
  stats_.count_received(bytes.size(), ecn);
  const bool first = stats_.datagrams_received == 1;
  data_since_feedback_ = true;
  last_timestamp_ = data->timestamp;
  last_arrival_ = now;
  if (data->sender_rtt > Duration::zero()) sender_rtt_ = data->sender_rtt;
  arrivals_.add(now, static_cast<int64_t>(bytes.size()));
  const double n = static_cast<double>(stats_.datagrams_received);
  mean_packet_bytes_ += (static_cast<double>(bytes.size()) - mean_packet_bytes_) / n;

  auto arrival = detector_.on_packet(data->seq, now);
  on_data(now, *data, arrival);
  for (const auto& loss : arrival.losses) add_loss(loss.seq, loss.nominal_arrival);
  if (ecn == Ecn::kCe && !arrival.late) {  // a CE mark counts as a loss (§5.1)
    ++ecn_marks_;
    add_loss(arrival.seq, now);
  }
  intervals_.on_highest_seq(detector_.highest_seq());

  // Report at once on the first packet, after an idle spell, and per packet
  // while the sender has no RTT estimate (less than one packet per RTT).
  if (first || !feedback_deadline_ || sender_rtt_ == Duration::zero()) feedback_now_ = true;
}

void TfrcReceiver::report_now(Time timestamp, Time arrival) {
  last_timestamp_ = timestamp;
  last_arrival_ = arrival;
  feedback_now_ = true;
}

void TfrcReceiver::handle_timeout(Time now) {
  if (!feedback_deadline_ || now < *feedback_deadline_) return;
  if (data_since_feedback_) {
    feedback_now_ = true;
  } else {
    feedback_deadline_.reset();  // idle: the next data packet restarts the clock
  }
}

std::optional<Datagram> TfrcReceiver::poll_transmit(Time now) {
  if (!feedback_now_) return std::nullopt;
  feedback_now_ = false;
  Feedback f;
  f.t_recvdata = last_timestamp_;
  f.t_delay = now - last_arrival_;
  if (last_feedback_) {  // the first report carries X_recv = 0 (§6.3)
    const Duration window = std::max(sender_rtt_, now - *last_feedback_);
    f.x_recv_bytes_per_s = static_cast<uint32_t>(std::min(arrivals_.rate_Bps(now, window), 4.0e9));
  }
  f.p = intervals_.loss_event_rate();
  f.highest_seq = static_cast<uint32_t>(std::max<int64_t>(detector_.highest_seq(), 0));
  add_feedback_options(now, f.options);

  last_feedback_ = now;
  data_since_feedback_ = false;
  if (sender_rtt_ > Duration::zero()) {
    feedback_deadline_ = now + sender_rtt_;
    arrivals_.forget_through(now - sender_rtt_ * 4);
  } else {
    feedback_deadline_.reset();
  }
  Datagram d;
  d.bytes = encode_feedback(f);
  d.kind = DatagramKind::kFeedback;
  stats_.count_sent(d.bytes.size());
  return d;
}

EndpointStats TfrcReceiver::stats() const {
  EndpointStats s = stats_;
  s.diagnostics = {{"loss_event_rate", intervals_.loss_event_rate()},
                   {"loss_events", static_cast<double>(intervals_.loss_events())},
                   {"ecn_ce_marks", static_cast<double>(ecn_marks_)}};
  return s;
}

}  // namespace mantra::tfrc
