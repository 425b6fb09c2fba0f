// The application behind a rate sender: what it offers to send, and what
// happens to what it offers faster than the rate allows.
//
// Three sources, one policy:
//   greedy    always holds a packet of the nominal size (the papers' media
//             senders, and the default);
//   constant  `source_rate_bps`: packet k of the nominal size exists from
//             start + k*s/rate on;
//   offered   `source_offered` 1: the application offers each packet, with
//             its size, deadline and id (Sender::offer; a media trace).
// Packets wait in one FIFO. Beyond `source_buffer_packets` the oldest are
// dropped (a live source keeps the freshest data); a packet that can no
// longer arrive by its deadline (now + one-way delay > deadline, the one-way
// delay taken as half the sender's RTT, zero before a sample and after a
// whole RTT without sending: rate_sender.cc) is dropped when it reaches the
// head instead of being sent.
//
//   offer / generation ──► [FIFO ≤ bound] ──head, on time──► sent
//                              │ over the bound        │ too late
//                              ▼                       ▼
//                          dropped (oldest)       dropped (late)
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

#include "mantra/endpoint.h"
#include "mantra/params.h"
#include "mantra/units.h"

namespace mantra {

enum class SourceKind : uint8_t { kGreedy, kConstant, kOffered };

struct SourceConfig {
  SourceKind kind = SourceKind::kGreedy;
  Rate rate = Rate::zero();      // kConstant: the application's bit rate
  int64_t buffer_packets = 100;  // packets kept while the sender is rate-limited
};

class DataSource {
 public:
  DataSource(SourceConfig config, int64_t nominal_bytes);

  // Reads `source_rate_bps` (0: greedy), `source_offered` (1: the
  // application offers its packets; not with a rate) and `source_buffer_packets`.
  static void parse(ParamReader& r, SourceConfig& out);

  void start(Time now) { start_ = now; }
  // The application offers a packet; false (and nothing queued) unless this
  // is an offered source: a greedy or constant source makes its own data.
  bool offer(const AppPacket& packet);

  // Drops what is over the bound or too late; then the packet next in line,
  // if one exists at `now`.
  std::optional<AppPacket> head(Time now, Duration one_way_delay);
  // The head was sent.
  void pop();
  // When the next packet comes into existence, if the source knows
  // (constant sources); nullopt when one waits now or none is foreseen.
  std::optional<Time> next_arrival(Time now) const;
  bool has_packet(Time now) const;

  SourceKind kind() const { return config_.kind; }
  int64_t dropped_over_bound() const { return dropped_over_bound_; }
  int64_t dropped_late() const { return dropped_late_; }

 private:
  double interval_s() const;             // constant source: seconds between packets
  int64_t generated_by(Time now) const;  // constant source: packets made by now
  void drop_over_bound(Time now);

  SourceConfig config_;
  int64_t nominal_bytes_;
  Time start_;
  int64_t consumed_ = 0;         // constant source: packets sent or dropped
  std::deque<AppPacket> queue_;  // offered source
  int64_t dropped_over_bound_ = 0;
  int64_t dropped_late_ = 0;
};

}  // namespace mantra
