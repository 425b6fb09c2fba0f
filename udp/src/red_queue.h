// RED as ns-3.44's RedQueueDisc computes it in packet mode, for the relay
// (mantra-sim's marking queues are that queue disc, sim/src/network/queues.cc):
// the average queue by the EWMA estimator with w_q, aged over idle time at
// the link's packet rate; no action below min_th; between min_th and max_th
// (2 max_th when gentle) a probability that grows linearly to max_p (and on
// to 1 in the gentle region), raised by the packets counted since the last
// early action ("wait" on: none before 1/p packets); above it a forced drop
// (a mark instead when ECN is on and hard drop is off); at the limit a drop.
// An ECN-capable packet is marked CE where a drop would be early (ECN on).
// Its uniform draw comes from the caller (the relay's seeded draws). Rules
// checked against ns-3.44's red-queue-disc.cc (DoEnqueue, DropEarly,
// CalculatePNew, ModifyP with Wait, DoDequeue's idle time); Cautious, ARED,
// NLRED and byte mode are not modelled.
#pragma once

#include <cstdint>

#include "mantra/units.h"

namespace mantra::udp {

struct RedConfig {
  int64_t limit = 25;              // packets (MaxSize)
  double min_th = 5;               // packets
  double max_th = 15;              // packets
  double max_p = 0.02;             // 1 / LInterm
  double w_q = 0.002;              // QW
  bool ecn = false;                // UseEcn
  bool hard_drop = true;           // UseHardDrop
  bool gentle = true;              // Gentle
  double link_bps = 1.5e6;         // LinkBandwidth, for the idle time's packet count
  double mean_packet_bytes = 500;  // MeanPktSize
};

enum class RedVerdict : uint8_t { kEnqueue, kMarkEarly, kMarkForced, kDropEarly, kDropForced, kDropFull };

class RedQueue {
 public:
  // Idle from `start` until the first packet (ns-3's idle time 0).
  RedQueue(RedConfig config, Time start);

  // A packet arrives with `queued` packets waiting in the queue (before it)
  // at time `now`; `ect`: it may be marked instead of dropped; `u` a uniform
  // draw in [0, 1). A kMark* verdict enqueues it marked.
  RedVerdict on_arrival(Time now, int64_t queued, bool ect, double u);
  // The queue is idle since `now` (ns-3: since the transmission start of the
  // last packet that left it; link_model.cc decides when).
  void on_empty(Time now);

  double average() const { return q_avg_; }

 private:
  double drop_probability() const;

  RedConfig c_;
  double packets_per_s_;
  double q_avg_ = 0;
  int64_t count_ = 0;  // packets since the last early drop or mark
  bool old_ = false;   // was above min_th at the previous arrival
  bool idle_ = true;
  Time idle_since_;
};

}  // namespace mantra::udp
