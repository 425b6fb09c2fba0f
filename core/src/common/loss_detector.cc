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

Time LossDetector::nominal_arrival(int64_t lost_seq, int64_t after_seq, Time after_time) const {
  if (!have_before_) return after_time;
  const double frac = static_cast<double>(lost_seq - before_seq_) / static_cast<double>(after_seq - before_seq_);
  return before_time_ + (after_time - before_time_) * frac;
}

void LossDetector::pass_over_bulk(int64_t seq, Time arrival, Arrival& result) {
  // next_unresolved_ itself is never received (an in-order packet resolves
  // it at once): it is the bulk's first loss, interpolated before the packets
  // received inside the bulk become the "before" packet.
  result.bulk_first = {next_unresolved_, nominal_arrival(next_unresolved_, seq, arrival)};
  const int64_t bulk_end = seq - kMaxRecordedGap;  // numbers below it are resolved now
  int64_t received = 0;
  for (auto it = pending_.begin(); it != pending_.end() && it->first < bulk_end; it = pending_.erase(it)) {
    ++received;
    have_before_ = true;
    before_seq_ = it->first;
    before_time_ = it->second;
  }
  result.bulk_losses = bulk_end - next_unresolved_ - received;
  next_unresolved_ = bulk_end;
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
  if (seq - next_unresolved_ > kMaxRecordedGap) pass_over_bulk(seq, arrival, result);
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
    result.losses.push_back({next_unresolved_, nominal_arrival(next_unresolved_, after_seq, after_time)});
    ++next_unresolved_;
  }
  return result;
}

}  // namespace mantra
