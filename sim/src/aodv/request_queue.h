// The packets waiting for a route, as ns-2's AODV held them (aodv/aodv_rqueue.cc:
// AODV_RTQ_MAX_LEN 64, AODV_RTQ_TIMEOUT 30 s): one FIFO for every
// destination; a packet that finds it full pushes out the oldest; packets
// past 30 s leave whenever the queue is touched (ns-2 removed them without a
// trace; here they are reported, so that the result counts them); a
// destination's packets leave oldest first.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <optional>

#include "aodv/data_packet.h"

namespace mantra::sim::aodv {

class RequestQueue {
 public:
  static constexpr size_t kCapacity = 64;
  static constexpr double kTimeoutS = 30.0;
  using Dropped = std::function<void(DataPacket&&, bool timed_out)>;

  void put(DataPacket p, double now_s, const Dropped& dropped);
  // The oldest packet for `destination`, taken out.
  std::optional<DataPacket> take(Address destination, double now_s, const Dropped& dropped);
  // Whether a packet for `destination` waits (aged ones included, as ns-2's find).
  bool holds(Address destination) const;
  size_t size() const { return queue_.size(); }

 private:
  void expire(double now_s, const Dropped& dropped);
  struct Waiting {
    DataPacket packet;
    double deadline_s;
  };
  std::deque<Waiting> queue_;
};

}  // namespace mantra::sim::aodv
