#include "reassembly.h"

#include <algorithm>

namespace mantra::udp {

void Reassembly::add(Time now, uint64_t offset, std::span<const uint8_t> bytes) {
  if (bytes.empty()) return;
  const uint64_t end = offset + bytes.size();
  if (end <= next_ || waiting_.count(offset)) {  // all of it handed on already, or a copy
    late_bytes_ += bytes.size();
    return;
  }
  if (offset < next_) {  // overlaps what was handed on: keep the new part
    late_bytes_ += next_ - offset;
    bytes = bytes.subspan(next_ - offset);
    offset = next_;
  }
  if (waiting_.empty()) first_waiting_since_ = now;
  waiting_.emplace(offset, std::vector<uint8_t>(bytes.begin(), bytes.end()));
  waiting_bytes_ += bytes.size();
  flush();
  while (waiting_bytes_ > kReorderBytes) {
    skip_to(waiting_.begin()->first);
    flush();
  }
  tick(now);
}

void Reassembly::tick(Time now) {
  while (!waiting_.empty() && now - first_waiting_since_ >= kReorderTime) {
    skip_to(waiting_.begin()->first);
    flush();
    first_waiting_since_ = now;  // the next hole gets its own wait
  }
}

void Reassembly::finish(uint64_t total_bytes) {
  while (!waiting_.empty()) {
    skip_to(waiting_.begin()->first);
    flush();
  }
  if (total_bytes > next_) {  // lost at the tail: in the map, not written (the output ends at what arrived)
    holes_.push_back({next_, total_bytes - next_});
    next_ = total_bytes;
  }
}

void Reassembly::flush() {
  while (!waiting_.empty() && waiting_.begin()->first <= next_) {
    auto node = waiting_.extract(waiting_.begin());
    const std::vector<uint8_t>& b = node.mapped();
    waiting_bytes_ -= b.size();
    const uint64_t skip = next_ - node.key();  // an overlap with what was handed on
    if (skip < b.size()) {
      sink_(std::span<const uint8_t>(b).subspan(skip));
      next_ = node.key() + b.size();
    }
    late_bytes_ += std::min<uint64_t>(skip, b.size());
  }
}

void Reassembly::skip_to(uint64_t offset) {
  if (offset <= next_) return;
  holes_.push_back({next_, offset - next_});
  static const std::vector<uint8_t> zeros(size_t{64} * 1024, 0);
  for (uint64_t left = offset - next_; left > 0;) {
    const uint64_t n = std::min<uint64_t>(left, zeros.size());
    sink_(std::span<const uint8_t>(zeros).first(n));
    left -= n;
  }
  next_ = offset;
}

}  // namespace mantra::udp
