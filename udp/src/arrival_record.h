// What the receiver measures of a flow, kept until the flow ends and then
// replayed into mantra-sim's FlowMetrics (sim/src/measurement/flow_metrics.h),
// so that a real flow's summary is computed by the same code as a simulated
// one's: throughput, delay, jitter, PLR, smoothness, stalls, series.
//
// Times are seconds on the receiver's monotonic clock since the flow's
// origin (the sender's hello, on the receiver's clock). The sender's clock is
// the receiver's on one host; across hosts its stamps are shifted by the
// offset the hello/accept exchange measured (session_wire.h).
//
// A data datagram that never arrived counts as sent (the bye gives how many
// were sent): its send time is interpolated between the frames numbered
// around it and its size is the mean of the bytes that never arrived.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "mantra/params.h"
#include "session_wire.h"

namespace mantra::udp {

class ArrivalRecord {
 public:
  // Data frames are numbered from 0; one numbered beyond kMaxNumbers is counted
  // but not followed (no duplicate check, no interpolation): 2^26 packets.
  static constexpr uint64_t kMaxNumbers = uint64_t{1} << 26;

  // A data datagram of `bytes` (the core's, trailer excluded) numbered
  // `number`, sent at `sent_s` and received at `received_s`. False for a copy.
  bool on_data(uint64_t number, double sent_s, double received_s, int64_t bytes);

  // The flow's summary in mantra-sim's per-flow form over [measure_from_s,
  // end_s], with the bye's counts of what was sent (none: only arrivals).
  nlohmann::json summary(const std::string& protocol, int64_t packet_size, double measure_from_s, double end_s,
                         const Bye* bye, std::vector<std::pair<std::string, double>> receiver_diagnostics) const;

  int64_t unique_arrivals() const { return static_cast<int64_t>(arrivals_.size()); }
  int64_t duplicates() const { return duplicates_; }

 private:
  struct Arrival {
    uint64_t number;
    double sent_s, received_s;
    int64_t bytes;
  };
  std::vector<Arrival> arrivals_;
  std::vector<bool> seen_;
  std::vector<double> duplicate_times_;
  int64_t duplicates_ = 0;
};

}  // namespace mantra::udp
