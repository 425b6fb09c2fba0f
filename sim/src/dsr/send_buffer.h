// DSR's send buffer as ns-2 had it (dsragent.cc, SEND_BUF_SIZE, SEND_TIMEOUT,
// BUFFER_CHECK): 64 slots of packets waiting for a route, each kept at most
// 30 s. A packet takes the first free slot; when none is free, the packet
// that has waited longest is dropped for it. The agent goes through the
// slots in slot order every 30-60 ms (dsr_agent.h).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "dsr/dsr_packet.h"

namespace mantra::sim::dsr {

class SendBuffer {
 public:
  static constexpr size_t kSlots = 64;
  static constexpr double kTimeoutS = 30.0;

  // Stores `p`; returns the packet pushed out to make room, if any.
  std::optional<Packet> put(Packet p, double now_s);

  // Calls `visit` on each waiting packet in slot order; a packet for which
  // it returns true leaves the buffer. Packets older than kTimeoutS leave
  // first, through `expired`.
  void sweep(double now_s, const std::function<void(Packet&&)>& expired, const std::function<bool(Packet&)>& visit);

  size_t size() const;

 private:
  struct Slot {
    std::optional<Packet> packet;
    double since_s = 0;
  };
  std::vector<Slot> slots_ = std::vector<Slot>(kSlots);
};

}  // namespace mantra::sim::dsr
