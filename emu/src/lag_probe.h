// How far the simulation runs behind the wall clock in real time: an event
// every `interval` of simulated time compares ns-3's real-time clock (wall
// time since the run began) with the simulated time of that event. ns-3's
// real-time scheduler (BestEffort) runs an event late when the one before
// took too long, then catches up; the lag is that lateness, and everything
// the simulator hands a real program (a packet to a TAP) is late by it.
#pragma once

#include <ns3/nstime.h>

#include <atomic>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace mantra::emu {

// median, p99, max (ms) and the sample count of `lags_us`; the nearest-rank
// percentile, so every figure is a lag that was seen. Empty: nulls.
nlohmann::json lag_summary(std::vector<int64_t> lags_us);

// Also where a stop asked for from outside (a signal) reaches the run: at
// the next sample, the simulation stops.
class LagProbe {
 public:
  // Starts sampling at simulated time 0; needs ns-3's RealtimeSimulatorImpl.
  LagProbe(ns3::Time interval, const std::atomic<bool>& stop_requested);
  const std::vector<int64_t>& lags_us() const { return lags_us_; }
  // The simulated time at which a requested stop ended the run, if one did.
  std::optional<double> stopped_at_s() const { return stopped_at_s_; }

 private:
  void sample();

  ns3::Time interval_;
  const std::atomic<bool>& stop_requested_;
  std::vector<int64_t> lags_us_;
  std::optional<double> stopped_at_s_;
};

}  // namespace mantra::emu
