#include "common/every_loss_history.h"

#include <algorithm>

#include "common/throughput_equation.h"

namespace mantra {

bool EveryLossHistory::on_arrival(Time now, const LossDetector::Arrival& arrival, int64_t bytes, int64_t highest_seq,
                                  Duration rtt, const ReceiveRateMeter& arrivals) {
  ++packets_;
  mean_packet_bytes_ += (static_cast<double>(bytes) - mean_packet_bytes_) / static_cast<double>(packets_);
  bool new_event = false;
  if (arrival.bulk_losses > 0)
    new_event |= add(now, arrival.bulk_first.seq, arrival.bulk_first.nominal_arrival, rtt, arrivals);
  for (const auto& loss : arrival.losses) new_event |= add(now, loss.seq, loss.nominal_arrival, rtt, arrivals);
  intervals_.on_highest_seq(highest_seq);
  return new_event;
}

bool EveryLossHistory::add(Time now, int64_t seq, Time nominal_arrival, Duration rtt,
                           const ReceiveRateMeter& arrivals) {
  if (!intervals_.on_loss(seq, nominal_arrival, rtt)) return false;
  if (intervals_.loss_events() == 1) {
    const double rtt_s = rtt > Duration::zero() ? rtt.secs() : 0.5;
    intervals_.set_first_interval(synthetic_first_interval(std::max(1.0, mean_packet_bytes_), rtt_s,
                                                           arrivals.rate_Bps(now, Duration::from_seconds(rtt_s))));
  }
  return true;
}

}  // namespace mantra
