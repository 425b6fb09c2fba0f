// Per-flow measurements taken during a run, and their summary.
//
// Apps report three things: a data packet sent, a data packet arriving at
// the destination (with its one-way delay), and payload delivered to the
// application (goodput; for UDP the same packet, for TCP the in-order bytes).
// A second copy of a UDP data packet is counted apart, as a duplicate.
// Summaries follow docs/result-schema.md; smoothness is the LATP paper's:
// within each window of `smoothness_window`, the smallest ratio between the
// per-interval throughput samples (min/max), averaged over the windows.
// Every summary number counts only the measurement window [from, to] (the
// papers' "steady period"): packets sent in it for sent/received/delay/
// jitter/PLR, bytes delivered in it for throughput, whole intervals in it
// for smoothness. The series covers the flow's whole active period.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec/spec.h"

namespace mantra::sim {

class FlowMetrics {
 public:
  FlowMetrics(const FlowSpec& flow, double interval_s, double smoothness_window_s, double measure_from_s,
              double measure_to_s);

  void on_sent(double now_s, int64_t bytes);
  // A data packet sent at `sent_s` (the same clock reading on_sent had)
  // reached the destination at `now_s`. It counts in the window by its send
  // time, so that it counts exactly where its sending did; a packet with no
  // known send time (nullopt) counts by its arrival and has no delay.
  void on_arrival(double now_s, std::optional<double> sent_s);
  void on_goodput(double now_s, int64_t bytes);
  // A copy of a data packet that had already arrived (a routing layer such
  // as DSR may deliver one packet twice); it counts nowhere else.
  void on_duplicate(double now_s);
  void set_diagnostics(std::string side, std::vector<std::pair<std::string, double>> values);
  // A sample of the flow's path length on the unit-disk graph (nullopt: no
  // path). A sample with a path and no goodput since the previous sample is
  // a blocked one: the graph could carry the flow, the routing did not.
  void on_hop_sample(std::optional<int> hops);
  // The routed path is watched (measurement/routed_hops.h): without this the
  // summary's routed_mean and routed_packets are null.
  void watch_routed_hops() { routed_watched_ = true; }
  // One of the flow's packets delivered after crossing `hops` hops of its route.
  void on_routed_hops(int hops);

  // Whether time t_s lies in the measurement window.
  bool in_window(double t_s) const { return measured(t_s); }
  double throughput_kbps() const;
  int64_t sent_packets() const { return sent_packets_; }
  int64_t sent_bytes() const { return sent_bytes_; }
  int64_t delivered_bytes() const { return goodput_bytes_; }
  const FlowSpec& flow() const { return flow_; }
  nlohmann::json summary() const;

 private:
  size_t bin(double now_s) const;
  bool measured(double t_s) const { return t_s >= from_s_ && t_s <= to_s_; }
  double smoothness() const;

  FlowSpec flow_;
  double interval_s_;
  double smoothness_window_s_;
  double from_s_, to_s_;  // the measurement window, within the flow's active period
  int64_t sent_packets_ = 0;
  int64_t sent_bytes_ = 0;
  int64_t arrivals_ = 0;
  int64_t duplicates_ = 0;
  int64_t goodput_bytes_ = 0;
  // The longest time in the window without goodput (a stall, as a video
  // player sees it), and when it ended: the delivery after it, or the window's end.
  std::optional<double> last_goodput_s_;
  double longest_stall_s_ = 0, longest_stall_end_s_ = 0;
  std::vector<double> delays_s_;   // in arrival order
  std::vector<int64_t> rx_bytes_;  // goodput per interval of the active period
  std::vector<int64_t> tx_bytes_;  // bytes sent per interval
  nlohmann::json diagnostics_ = nlohmann::json::object();
  int64_t hop_samples_ = 0, hop_samples_unreachable_ = 0, hop_sum_ = 0, hop_samples_blocked_ = 0;
  bool routed_watched_ = false;
  int64_t routed_packets_ = 0, routed_hop_sum_ = 0;
  int64_t delivered_ever_bytes_ = 0;  // goodput in or out of the window
  int64_t delivered_at_last_sample_ = 0;
};

// Jain's fairness index (sum x)^2 / (n sum x^2); 1 for a single flow.
// Undefined (nullopt) without flows or when every flow got nothing.
std::optional<double> jain_index(const std::vector<double>& x);

}  // namespace mantra::sim
