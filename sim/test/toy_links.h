// What the toy networks of our routing agents' tests share (dsr_toy_net.h,
// aodv_toy_net.h): nodes addressed 10.0.0.1 + their index, links that are up
// or down, and a clock whose events run in time order, ties in the order
// they were made.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <utility>

namespace mantra::sim::toy {

class ToyLinks {
 public:
  static uint32_t address(int node) { return 0x0a000001u + static_cast<uint32_t>(node); }
  static int node_of(uint32_t a) { return static_cast<int>(a - 0x0a000001u); }

  void link(int a, int b) { links_.insert({std::min(a, b), std::max(a, b)}); }
  void cut(int a, int b) { links_.erase({std::min(a, b), std::max(a, b)}); }
  bool linked(int a, int b) const { return links_.count({std::min(a, b), std::max(a, b)}) > 0; }

  void run_until(double end_s) {
    while (!events_.empty() && events_.begin()->first.first <= end_s) {
      auto first = events_.begin();
      now_s_ = first->first.first;
      auto event = std::move(first->second);
      events_.erase(first);
      event();
    }
    now_s_ = end_s;
  }
  double now_s() const { return now_s_; }

 protected:
  void at(double t_s, std::function<void()> event) { events_.emplace(std::pair{t_s, sequence_++}, std::move(event)); }
  double now_s_ = 0;

 private:
  std::set<std::pair<int, int>> links_;
  std::map<std::pair<double, uint64_t>, std::function<void()>> events_;
  uint64_t sequence_ = 0;
};

}  // namespace mantra::sim::toy
