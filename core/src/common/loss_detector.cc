#include "common/loss_detector.h"

namespace mantra {

int64_t LossDetector::extend(uint32_t wire_seq) const {
  if (highest_ < 0) return wire_seq;
  // The extended value closest to the highest sequence seen.
  const int64_t base = highest_ & ~int64_t{0xFFFFFFFF};
  int64_t candidate = base | wire_seq;
  const int64_t half = int64_t{1} << 31;
  if (candidate - highest_ > half && candidate >= (int64_t{1} << 32))
    candidate -= int64_t{1} << 32;
  else if (highest_ - candidate > half)
    candidate += int64_t{1} << 32;
  return candidate;
}

LossDetector::Arrival LossDetector::on_packet(uint32_t wire_seq, Time arrival) {
  Arrival result;
  const int64_t seq = extend(wire_seq);
  result.seq = seq;
  if (highest_ < 0) next_unresolved_ = seq;  // the first packet defines the start
  if (seq < next_unresolved_ || pending_.count(seq)) {
    result.late = true;
    return result;
  }
  if (seq > highest_) highest_ = seq;
  pending_.emplace(seq, arrival);

  while (!pending_.empty()) {
    auto first = pending_.begin();
    if (first->first == next_unresolved_) {  // in order: it becomes the "before" packet
      have_before_ = true;
      before_seq_ = first->first;
      before_time_ = first->second;
      pending_.erase(first);
      ++next_unresolved_;
      continue;
    }
    if (static_cast<int>(pending_.size()) < kNdupack) break;
    // next_unresolved_ is missing and kNdupack later packets have arrived.
    const int64_t after_seq = first->first;
    const Time after_time = first->second;
    Time t = after_time;
    if (have_before_) {
      const double frac =
          static_cast<double>(next_unresolved_ - before_seq_) / static_cast<double>(after_seq - before_seq_);
      t = before_time_ + (after_time - before_time_) * frac;
    }
    result.losses.push_back({next_unresolved_, t});
    ++next_unresolved_;
  }
  return result;
}

}  // namespace mantra
