#include "knee/delay_floor.h"

#include <algorithm>

namespace mantra::knee {

void DelayFloor::add(Time now, uint8_t ttl, int64_t owd_min_us) {
  auto& path = paths_[ttl];
  while (!path.empty() && path.back().second >= owd_min_us) path.pop_back();
  path.emplace_back(now, owd_min_us);
  expire(now);
}

void DelayFloor::expire(Time now) {
  for (auto it = paths_.begin(); it != paths_.end();) {
    auto& path = it->second;
    while (!path.empty() && path.front().first < now - window_) path.pop_front();
    it = path.empty() ? paths_.erase(it) : std::next(it);
  }
}

std::optional<int64_t> DelayFloor::of(uint8_t ttl) const {
  const auto it = paths_.find(ttl);
  if (it == paths_.end()) return std::nullopt;
  return it->second.front().second;
}

std::optional<int64_t> DelayFloor::highest() const {
  std::optional<int64_t> out;
  for (const auto& [ttl, path] : paths_) out = std::max(out.value_or(path.front().second), path.front().second);
  return out;
}

}  // namespace mantra::knee
