// DSR's route request table as ns-2 had it (dsr/requesttable.cc): one table
// of 128 nodes, the oldest line reused when full, holding for each node
//   - the last route request identification seen from it as initiator
//     (a request with an identification not newer is a copy: ignored), and
//   - this node's discovery state towards it as a target: requests sent in
//     this discovery, when the last one started, and whether the last one
//     was the non-propagating first try.
// Discovery backoff (dsragent.cc, BackOffTest): a new discovery may start
// 0.5 s x 4^n after the previous one, n the discoveries since the last reply,
// at most 10 s apart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dsr/dsr_header.h"

namespace mantra::sim::dsr {

class RequestTable {
 public:
  static constexpr size_t kLines = 128;
  static constexpr double kRequestPeriodS = 0.5;
  static constexpr double kMaxRequestPeriodS = 10.0;

  struct Line {
    Address node = 0;
    bool used = false;
    bool seen_request = false;
    uint16_t last_identification = 0;
    int discoveries = 0;  // since the last reply (ns-2's rt_reqs_outstanding, at most 15)
    double last_discovery_s = -(kRequestPeriodS + 1.0);
    double last_ring_zero_s = 0;
    bool last_was_ring_zero = false;
  };

  // The line of `node`, made (in place of the oldest) if there is none.
  Line& line(Address node);

  // True when a request from `initiator` with `identification` is no newer
  // than the last one recorded (16-bit serial-number order).
  bool seen(Address initiator, uint16_t identification) const;
  void record(Address initiator, uint16_t identification);

  // ns-2's BackOffTest: may a new discovery for `target` start at `now_s`?
  // If so, counts it.
  bool may_start_discovery(Address target, double now_s);
  // A reply from `target` arrived: the next discovery may start at once.
  void reset_backoff(Address target);

 private:
  const Line* find(Address node) const;
  std::vector<Line> lines_ = std::vector<Line>(kLines);
  size_t next_ = 0;
};

}  // namespace mantra::sim::dsr
