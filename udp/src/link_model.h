// One direction of mantra-relay's emulated link, in the order a packet meets
// it:
//
//   arrival ─► outage? ─► queue (drop-tail or RED, may mark CE) ─► transmission at the rate
//          ─► random loss (Bernoulli or Gilbert-Elliott; it used its slot) ─► propagation delay + jitter ─► release
//
// The link is mantra-sim's point-to-point link: one packet in transmission,
// one in the device's 1-packet queue, the queue discipline holding the rest
// (sim/src/network/scenario.cc); each packet costs its UDP payload plus
// `overhead_bytes` (IPv4 + UDP + PPP: 30) at the rate. Releases keep their
// order (jitter never reorders). Random draws are seeded_draw()s indexed by
// the packet's number in this direction, so they repeat; what depends on
// real arrival times (the queue, its marks, the delays) does not.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "mantra/endpoint.h"
#include "red_queue.h"

namespace mantra::udp {

struct Gilbert {
  double p_good_to_bad = 0, p_bad_to_good = 1;
  double loss_good = 0, loss_bad = 1;
};

struct Outage {
  double start_s = 0, duration_s = 0;  // from the relay's start
};

struct LinkConfig {
  double rate_bps = 0;  // 0: no rate limit (and no queue)
  Duration delay;
  Duration jitter;  // uniform in [0, jitter)
  int64_t overhead_bytes = 30;
  int64_t queue_packets = 50;      // drop-tail limit, when red is none
  std::optional<RedConfig> red;    // RED instead of drop-tail
  double loss = 0;                 // Bernoulli, per packet
  std::optional<Gilbert> gilbert;  // instead of Bernoulli
  std::vector<Outage> outages;
};

enum class LinkVerdict : uint8_t { kForward, kOutage, kQueueFull, kRedEarly, kRedForced, kLoss };
const char* verdict_name(LinkVerdict v);

struct LinkDecision {
  uint64_t number = 0;  // the packet's number in this direction
  LinkVerdict verdict = LinkVerdict::kForward;
  bool marked = false;     // CE set by RED
  Ecn ecn = Ecn::kNotEct;  // what it leaves with
  Time release;            // kForward: when it reaches the far end
  int64_t queued = 0;      // waiting in the queue discipline on arrival
};

class LinkModel {
 public:
  LinkModel(LinkConfig config, uint64_t seed, uint64_t direction, Time start);
  LinkDecision on_arrival(Time now, size_t payload_bytes, Ecn ecn);
  const LinkConfig& config() const { return c_; }
  double red_average() const { return red_ ? red_->average() : 0; }

 private:
  int64_t waiting(Time now);  // in the queue discipline (not the device)
  bool in_outage(Time now) const;
  bool lost(uint64_t number);

  LinkConfig c_;
  uint64_t seed_, direction_;
  Time start_;
  std::optional<RedQueue> red_;
  uint64_t next_number_ = 0;
  struct InLink {
    Time enters_device, tx_start, tx_end;
  };
  std::deque<InLink> in_link_;  // accepted, transmission not finished
  Time last_tx_start_, last_tx_end_;
  Time last_release_;
  bool gilbert_bad_ = false;
};

}  // namespace mantra::udp
