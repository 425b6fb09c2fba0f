#include "link_model.h"

#include <algorithm>

#include "seeded_draw.h"

namespace mantra::udp {

const char* verdict_name(LinkVerdict v) {
  switch (v) {
    case LinkVerdict::kForward:
      return "forward";
    case LinkVerdict::kOutage:
      return "outage";
    case LinkVerdict::kQueueFull:
      return "queue_full";
    case LinkVerdict::kRedEarly:
      return "red_early";
    case LinkVerdict::kRedForced:
      return "red_forced";
    case LinkVerdict::kLoss:
      return "loss";
  }
  return "?";
}

LinkModel::LinkModel(LinkConfig config, uint64_t seed, uint64_t direction, Time start)
    : c_(std::move(config)),
      seed_(seed),
      direction_(direction),
      start_(start),
      last_tx_start_(start),
      last_tx_end_(start),
      last_release_(start) {
  if (c_.red) red_.emplace(*c_.red, start);
}

int64_t LinkModel::waiting(Time now) {
  while (!in_link_.empty() && in_link_.front().tx_end <= now) in_link_.pop_front();
  int64_t n = 0;
  for (auto it = in_link_.rbegin(); it != in_link_.rend() && it->enters_device > now; ++it) ++n;
  return n;
}

bool LinkModel::in_outage(Time now) const {
  const double t = (now - start_).secs();
  return std::any_of(c_.outages.begin(), c_.outages.end(),
                     [t](const Outage& o) { return t >= o.start_s && t < o.start_s + o.duration_s; });
}

bool LinkModel::lost(uint64_t number) {
  if (c_.gilbert) {
    const Gilbert& g = *c_.gilbert;
    const double flip = seeded_draw(seed_, direction_, number, Draw::kGilbertState);
    gilbert_bad_ = gilbert_bad_ ? flip >= g.p_bad_to_good : flip < g.p_good_to_bad;
    return seeded_draw(seed_, direction_, number, Draw::kLoss) < (gilbert_bad_ ? g.loss_bad : g.loss_good);
  }
  return c_.loss > 0 && seeded_draw(seed_, direction_, number, Draw::kLoss) < c_.loss;
}

LinkDecision LinkModel::on_arrival(Time now, size_t payload_bytes, Ecn ecn) {
  LinkDecision d;
  d.number = next_number_++;
  d.ecn = ecn;
  // Draws are made for every packet, whatever happens to it, so a packet's
  // draws depend only on its number.
  const bool lose = lost(d.number);
  if (in_outage(now)) {
    d.verdict = LinkVerdict::kOutage;
    return d;
  }
  const bool limited = c_.rate_bps > 0;
  d.queued = limited ? waiting(now) : 0;
  if (red_) {
    // ns-3's queue disc is asked for a packet only when a transmission starts:
    // it is idle from the start of the last packet's transmission, and not
    // while that packet still waits in the device's 1-packet queue.
    if (d.queued == 0 && now >= last_tx_start_) red_->on_empty(last_tx_start_);
    const bool ect = ecn == Ecn::kEct0 || ecn == Ecn::kEct1 || ecn == Ecn::kCe;
    switch (red_->on_arrival(now, d.queued, ect, seeded_draw(seed_, direction_, d.number, Draw::kRed))) {
      case RedVerdict::kEnqueue:
        break;
      case RedVerdict::kMarkEarly:
      case RedVerdict::kMarkForced:
        d.marked = true;
        d.ecn = Ecn::kCe;
        break;
      case RedVerdict::kDropEarly:
        d.verdict = LinkVerdict::kRedEarly;
        return d;
      case RedVerdict::kDropForced:
        d.verdict = LinkVerdict::kRedForced;
        return d;
      case RedVerdict::kDropFull:
        d.verdict = LinkVerdict::kQueueFull;
        return d;
    }
  } else if (limited && d.queued >= c_.queue_packets) {
    d.verdict = LinkVerdict::kQueueFull;
    return d;
  }
  Time tx_end = now;
  if (limited) {
    // It enters the device when the one before it starts transmitting (the
    // device holds one waiting packet), and transmits after that one.
    const Time enters = std::max(now, last_tx_start_);
    const Time tx_start = std::max(enters, last_tx_end_);
    const auto bits = static_cast<double>((static_cast<int64_t>(payload_bytes) + c_.overhead_bytes) * 8);
    tx_end = tx_start + Duration::from_seconds(bits / c_.rate_bps);
    in_link_.push_back({enters, tx_start, tx_end});
    last_tx_start_ = tx_start;
    last_tx_end_ = tx_end;
  }
  if (lose) {
    d.verdict = LinkVerdict::kLoss;
    return d;
  }
  const double jitter_s = c_.jitter.secs() * seeded_draw(seed_, direction_, d.number, Draw::kJitter);
  d.release = std::max(last_release_, tx_end + c_.delay + Duration::from_seconds(jitter_s));
  last_release_ = d.release;
  return d;
}

}  // namespace mantra::udp
