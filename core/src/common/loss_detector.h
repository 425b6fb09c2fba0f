// Packet loss detection at a receiver (RFC 5348 §5.1), independent of what
// the losses are then used for.
//
// A packet is declared lost once kNdupack = 3 packets with higher sequence
// numbers have arrived. Its nominal arrival time is interpolated between the
// last packet received before it and the first received after it (§5.2):
//   T_loss = T_before + (T_after - T_before) * (S_loss - S_before) / (S_after - S_before)
// Packets that arrive after being declared lost, and duplicates, are reported
// as late and otherwise ignored (a hole is not "un-lost").
//
// Sequence numbers on the wire are 32 bits; the detector extends them to 64
// bits using the highest number seen, so wrap-around is handled.
//
// Records are bounded: a packet more than kMaxRecordedGap numbers beyond the
// lowest unresolved one (an outage no rate sender reaches, or a forged or
// corrupt number) first passes over all but the last kMaxRecordedGap of the
// gap at once. The missing numbers among them are declared lost as one bulk
// (a count, its first number and that number's nominal arrival), not one
// record each, so one datagram cannot make the receiver allocate gigabytes.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "mantra/units.h"

namespace mantra {

struct DetectedLoss {
  int64_t seq = 0;
  Time nominal_arrival;
};

class LossDetector {
 public:
  static constexpr int kNdupack = 3;
  static constexpr int64_t kMaxRecordedGap = int64_t{1} << 16;  // packets

  struct Arrival {
    int64_t seq = 0;                   // extended sequence number
    bool late = false;                 // duplicate, or already declared lost
    int64_t bulk_losses = 0;           // declared lost as one bulk, before `losses`
    DetectedLoss bulk_first;           // the bulk's first number, when bulk_losses > 0
    std::vector<DetectedLoss> losses;  // newly declared lost one record each, in order

    int64_t loss_count() const { return bulk_losses + static_cast<int64_t>(losses.size()); }
  };

  Arrival on_packet(uint32_t wire_seq, Time arrival);

  // Highest extended sequence number received so far; -1 before the first.
  int64_t highest_seq() const { return highest_; }

 private:
  int64_t extend(uint32_t wire_seq) const;
  Time nominal_arrival(int64_t lost_seq, int64_t after_seq, Time after_time) const;
  void pass_over_bulk(int64_t seq, Time arrival, Arrival& result);

  int64_t highest_ = -1;
  int64_t next_unresolved_ = 0;      // lowest seq neither passed nor declared lost
  std::map<int64_t, Time> pending_;  // received, with seq >= next_unresolved_
  bool have_before_ = false;         // last packet received below next_unresolved_
  int64_t before_seq_ = 0;
  Time before_time_;
};

}  // namespace mantra
