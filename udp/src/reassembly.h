// The receiver's application stream: chunks that arrive by offset are handed
// on in order of offset; a hole is given up (recorded in the loss map, and
// handed on as zeros so later offsets stay where they were) once more than
// kReorderBytes wait behind it or its first follower has waited kReorderTime,
// and at the end (a hole at the tail is only mapped: the output ends with the
// last byte that arrived). A chunk for a hole already given up, or a copy, is late
// and only counted.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <vector>

#include "mantra/units.h"

namespace mantra::udp {

struct Hole {
  uint64_t offset = 0;
  uint64_t length = 0;
};

class Reassembly {
 public:
  static constexpr uint64_t kReorderBytes = uint64_t{1} << 20;
  static constexpr Duration kReorderTime = Duration::seconds(1);

  // Receives the stream's bytes in order (holes as zeros).
  using Sink = std::function<void(std::span<const uint8_t>)>;
  explicit Reassembly(Sink sink) : sink_(std::move(sink)) {}

  void add(Time now, uint64_t offset, std::span<const uint8_t> bytes);
  // Gives up holes that have waited kReorderTime.
  void tick(Time now);
  // The stream ended at `total_bytes`: every hole up to it is given up.
  void finish(uint64_t total_bytes);

  uint64_t delivered() const { return next_; }  // offsets below this were handed on
  uint64_t late_bytes() const { return late_bytes_; }
  const std::vector<Hole>& loss_map() const { return holes_; }

 private:
  void flush();
  void skip_to(uint64_t offset);

  Sink sink_;
  uint64_t next_ = 0;
  std::map<uint64_t, std::vector<uint8_t>> waiting_;  // by offset, all >= next_
  uint64_t waiting_bytes_ = 0;
  Time first_waiting_since_ = Time::never();
  uint64_t late_bytes_ = 0;
  std::vector<Hole> holes_;
};

}  // namespace mantra::udp
