#include "red_queue.h"

#include <algorithm>
#include <cmath>

namespace mantra::udp {

RedQueue::RedQueue(RedConfig config, Time start)
    : c_(config), packets_per_s_(config.link_bps / (8.0 * config.mean_packet_bytes)), idle_since_(start) {}

void RedQueue::on_empty(Time now) {
  idle_ = true;
  idle_since_ = now;
}

double RedQueue::drop_probability() const {
  double p;
  if (c_.gentle && q_avg_ >= c_.max_th) {  // from max_p at max_th to 1 at 2 max_th
    p = (1 - c_.max_p) / c_.max_th * q_avg_ + 2 * c_.max_p - 1;
  } else if (!c_.gentle && q_avg_ >= c_.max_th) {
    p = 1.0;
  } else {
    p = (q_avg_ - c_.min_th) / (c_.max_th - c_.min_th) * c_.max_p;
  }
  p = std::min(p, 1.0);
  // "wait": spread the actions, none before 1/p packets since the last one.
  const double cp = static_cast<double>(count_) * p;
  if (cp < 1) return 0;
  if (cp < 2) return p / (2 - cp);
  return 1.0;
}

RedVerdict RedQueue::on_arrival(Time now, int64_t queued, bool ect, double u) {
  // The average, aged over the idle time as if m packets (a whole number,
  // truncated) had left an empty queue.
  double m = 0;
  if (idle_) {
    m = std::floor(std::max(0.0, packets_per_s_ * (now - idle_since_).secs()));
    idle_ = false;
  }
  q_avg_ = q_avg_ * std::pow(1 - c_.w_q, m + 1) + c_.w_q * static_cast<double>(queued);
  ++count_;

  enum class Region : uint8_t { kNone, kEarly, kForced } region = Region::kNone;
  if (q_avg_ >= c_.min_th && queued > 1) {
    if ((!c_.gentle && q_avg_ >= c_.max_th) || (c_.gentle && q_avg_ >= 2 * c_.max_th)) {
      region = Region::kForced;
    } else if (!old_) {  // the first arrival above min_th starts the count
      old_ = true;
      count_ = 1;
    } else if (u <= drop_probability()) {
      region = Region::kEarly;
      count_ = 0;
    }
  } else {
    old_ = false;
  }
  RedVerdict verdict = RedVerdict::kEnqueue;
  if (region == Region::kEarly) verdict = c_.ecn && ect ? RedVerdict::kMarkEarly : RedVerdict::kDropEarly;
  if (region == Region::kForced)
    verdict = c_.hard_drop || !c_.ecn || !ect ? RedVerdict::kDropForced : RedVerdict::kMarkForced;
  const bool enqueued =
      verdict == RedVerdict::kEnqueue || verdict == RedVerdict::kMarkEarly || verdict == RedVerdict::kMarkForced;
  if (enqueued && queued + 1 > c_.limit) return RedVerdict::kDropFull;  // marked or not, the limit drops it
  return verdict;
}

}  // namespace mantra::udp
