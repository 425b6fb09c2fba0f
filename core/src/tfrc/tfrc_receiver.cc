#include "tfrc/tfrc_receiver.h"

#include <algorithm>

#include "common/floor_report.h"
#include "common/throughput_equation.h"

namespace mantra::tfrc {

TfrcReceiver::TfrcReceiver(ReceiverConfig config, ReceiverExtension* extension)
    : config_(config),
      extension_(extension),
      intervals_(config.history_discounting),
      all_losses_(config.history_discounting) {}

void TfrcReceiver::read(ParamReader& r, ReceiverConfig& out) {
  const double discounting = r.get("history_discounting", out.history_discounting ? 1 : 0);
  r.require(discounting == 0 || discounting == 1, "history_discounting must be 0 or 1");
  out.history_discounting = discounting == 1;
  out.floor_report = read_floor_report(r);
}

std::string TfrcReceiver::parse(const Params& params, ReceiverConfig& out) {
  ParamReader r(params);
  read(r, out);
  return r.finish();
}

void TfrcReceiver::add_loss(int64_t seq, Time nominal_arrival) {
  using LossUse = ReceiverExtension::LossUse;
  if (config_.floor_report && all_losses_.on_loss(seq, nominal_arrival, sender_rtt_)) {
    if (all_losses_.loss_events() == 1) synthesize_first_interval(last_arrival_, all_losses_);
    clock_.report_now();  // the floor's p increased: report at once, as §6.1 does for p
  }
  const LossUse use = extension_ ? extension_->on_loss(seq) : LossUse::kCount;
  if (use == LossUse::kIgnore) return;
  if (use == LossUse::kCountAndReportNow) clock_.report_now();
  if (intervals_.on_loss(seq, nominal_arrival, sender_rtt_)) {
    if (intervals_.loss_events() == 1) synthesize_first_interval(last_arrival_, intervals_);
    clock_.report_now();  // p increased: report at once (§6.1)
  }
}

void TfrcReceiver::synthesize_first_interval(Time now, LossIntervals& intervals) const {
  const double s = std::max(1.0, mean_packet_bytes_);
  const double rtt_s = sender_rtt_ > Duration::zero() ? sender_rtt_.secs() : 0.5;
  intervals.set_first_interval(
      synthetic_first_interval(s, rtt_s, arrivals_.rate_Bps(now, Duration::from_seconds(rtt_s))));
}

void TfrcReceiver::handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) {
  auto data = decode_data(bytes);
  if (!data) {
    ++stats_.datagrams_rejected;
    return;
  }
  stats_.count_received(bytes.size(), ecn);
  last_timestamp_ = data->timestamp;
  last_arrival_ = now;
  if (data->sender_rtt > Duration::zero()) sender_rtt_ = data->sender_rtt;
  arrivals_.add(now, static_cast<int64_t>(bytes.size()));
  const double n = static_cast<double>(stats_.datagrams_received);
  mean_packet_bytes_ += (static_cast<double>(bytes.size()) - mean_packet_bytes_) / n;

  auto arrival = detector_.on_packet(data->seq, now);
  if (extension_) extension_->on_data(now, *data, arrival, sender_rtt_);
  // A bulk (a gap beyond LossDetector::kMaxRecordedGap) is one loss at its
  // first number: it opens a loss event, as its first record would.
  if (arrival.bulk_losses > 0) add_loss(arrival.bulk_first.seq, arrival.bulk_first.nominal_arrival);
  for (const auto& loss : arrival.losses) add_loss(loss.seq, loss.nominal_arrival);
  if (ecn == Ecn::kCe && !arrival.late) {  // a CE mark counts as a loss (§5.1)
    ++ecn_marks_;
    add_loss(arrival.seq, now);
  }
  intervals_.on_highest_seq(detector_.highest_seq());
  if (config_.floor_report) all_losses_.on_highest_seq(detector_.highest_seq());

  // Report at once on the first packet, after an idle spell, and per packet
  // while the sender has no RTT estimate (no clock then).
  clock_.on_data();
}

void TfrcReceiver::answer(Time timestamp, Time arrival, Duration sender_rtt) {
  if (sender_rtt > Duration::zero()) sender_rtt_ = sender_rtt;
  last_timestamp_ = timestamp;
  last_arrival_ = arrival;
  clock_.report_now();
}

std::optional<Datagram> TfrcReceiver::poll_transmit(Time now) {
  if (!clock_.due()) return std::nullopt;
  Feedback f;
  f.t_recvdata = last_timestamp_;
  f.t_delay = now - last_arrival_;
  if (last_feedback_) {  // the first report carries X_recv = 0 (§6.3)
    const Duration window = std::max(sender_rtt_, now - *last_feedback_);
    f.x_recv_bytes_per_s = static_cast<uint32_t>(std::min(arrivals_.rate_Bps(now, window), 4.0e9));
  }
  f.p = intervals_.loss_event_rate();
  f.highest_seq = static_cast<uint32_t>(std::max<int64_t>(detector_.highest_seq(), 0));
  if (extension_) extension_->add_feedback_options(now, f.options);
  if (config_.floor_report) f.options.push_back(encode_floor_loss_option(all_losses_.loss_event_rate()));

  last_feedback_ = now;
  clock_.reported(now, sender_rtt_);
  if (sender_rtt_ > Duration::zero()) arrivals_.forget_through(now - sender_rtt_ * 4);
  return report_datagram(encode_feedback(f), stats_);
}

EndpointStats TfrcReceiver::stats() const {
  EndpointStats s = stats_;
  s.diagnostics = {{"loss_event_rate", intervals_.loss_event_rate()},
                   {"loss_events", static_cast<double>(intervals_.loss_events())},
                   {"ecn_ce_marks", static_cast<double>(ecn_marks_)}};
  return s;
}

}  // namespace mantra::tfrc
