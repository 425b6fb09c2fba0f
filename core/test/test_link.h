// A seeded in-memory network for testing endpoints in milliseconds, without
// ns-3: flows share one forward bottleneck (delay, bandwidth, drop-tail queue,
// Bernoulli loss) and one reverse path for feedback.
//
//   sender_i ──► [drop-tail queue] ──bandwidth, delay, loss, CE marks──► receiver_i
//   sender_i ◄──────────── reverse: delay, loss ──────────────── receiver_i
//
// The event loop follows the endpoint contract: deliver packets that are
// due, fire due timeouts, then drain poll_transmit, then sleep until the
// earliest deadline.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include "mantra/endpoint.h"

namespace mantra::testlink {

struct LinkConfig {
  Rate bandwidth = Rate::bps(10'000'000);
  Duration delay = Duration::millis(50);  // one way, each direction
  int queue_packets = 50;
  double loss = 0.0;  // forward, per packet
  double reverse_loss = 0.0;
  // Forward, per ECN-capable packet (ECT(0) or ECT(1)): the probability that
  // the link marks it CE instead of passing it as sent (RFC 3168 §5; a
  // Not-ECT packet is never marked).
  double ce_mark = 0.0;
  uint64_t seed = 1;
};

struct FlowCounters {
  int64_t data_sent = 0;
  int64_t data_delivered = 0;
  int64_t bytes_delivered = 0;
  int64_t queue_drops = 0;
  int64_t random_drops = 0;
  int64_t ce_marked = 0;
};

class TestLink {
 public:
  explicit TestLink(LinkConfig config);

  // Adds a flow; returns its index. The endpoints start at `start`.
  size_t add_flow(std::unique_ptr<Sender> sender, std::unique_ptr<Receiver> receiver, Time start = Time::zero());

  // Runs until `until`. Bytes delivered before `measure_from` are not counted.
  void run(Time until);

  Sender& sender(size_t i) { return *flows_[i].sender; }
  Receiver& receiver(size_t i) { return *flows_[i].receiver; }
  const FlowCounters& counters(size_t i) const { return flows_[i].counters; }
  // Bytes delivered to flow i's receiver within [from, to), as a rate.
  Rate delivered_rate(size_t i, Time from, Time to) const;
  Time now() const { return now_; }

 private:
  struct Flow {
    std::unique_ptr<Sender> sender;
    std::unique_ptr<Receiver> receiver;
    Time start;
    bool started = false;
    FlowCounters counters;
    std::vector<std::pair<Time, int64_t>> deliveries;  // (time, bytes) at the receiver
  };
  struct InFlight {
    Time at;
    size_t flow;
    bool to_receiver;
    Datagram datagram;
    uint64_t order;  // ties broken by send order
    bool operator>(const InFlight& o) const { return at != o.at ? at > o.at : order > o.order; }
  };

  void send_forward(size_t flow, Datagram d);
  void send_reverse(size_t flow, Datagram d);
  void drain(size_t flow);
  Time next_event() const;

  LinkConfig config_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> uniform_{0.0, 1.0};
  std::vector<Flow> flows_;
  std::priority_queue<InFlight, std::vector<InFlight>, std::greater<>> in_flight_;
  std::deque<Time> departures_;  // departure times of packets queued or in service
  Time link_free_;
  Time now_;
  uint64_t order_ = 0;
};

}  // namespace mantra::testlink
