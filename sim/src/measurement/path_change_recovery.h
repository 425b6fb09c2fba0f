// How long a flow takes to get its rate back after a path change (issue 31:
// "back to 80 % of the earlier rate within 2 s"). No ns-3: the receiver's
// application feeds it each first arrival, with whether the packet took
// another path than the one delivered before it (the loss oracle's path
// changes: the nodes that queued it).
//
// For a change, the packet before it is the old path's last delivery, at
// t_old. The earlier rate is what arrived in [t_old - 2 s, t_old] over 2 s;
// the change counts only if the flow had been delivering for those 2 s and
// the rate is above zero. It has recovered at the first arrival t whose last
// second, [t - 1 s, t], carried at least 80 % of the earlier rate; its
// recovery time is t - t_old (an outage between the paths counts in it; a
// change with no outage recovers at once). A change while an earlier one has
// not recovered is part of the same disruption (`merged`), not a new one. A
// change still unrecovered when the run ends counts as longer than any.
//
//   summary: {changes, merged, too_early, unrecovered (0 or 1), median_s (the
//             unrecovered counted as longest; null if no change counted or the
//             median one never recovered), within_2s_share}
#pragma once

#include <cstdint>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>
#include <vector>

namespace mantra::sim {

class PathChangeRecovery {
 public:
  static constexpr double kEarlierWindowS = 2.0;
  static constexpr double kRecoveryWindowS = 1.0;
  static constexpr double kRecoveredShare = 0.8;
  static constexpr double kGoalS = 2.0;

  void on_arrival(double now_s, int64_t bytes, bool path_changed);
  nlohmann::json summary() const;

 private:
  double bytes_in(double from_s, double to_s) const;  // arrivals in [from_s, to_s]: at a change only

  std::deque<std::pair<double, int64_t>> arrivals_;  // the last kEarlierWindowS + kRecoveryWindowS
  // The arrivals of the last kRecoveryWindowS and their bytes, kept as they come: the
  // per-packet test of an open recovery costs no scan.
  std::deque<std::pair<double, int64_t>> last_window_;
  double last_window_bytes_ = 0;
  std::optional<double> first_arrival_s_;
  struct Open {
    double from_s;
    double target_Bps;
  };
  std::optional<Open> open_;
  std::vector<double> recovery_s_;
  int64_t changes_ = 0, merged_ = 0, too_early_ = 0;
};

}  // namespace mantra::sim
