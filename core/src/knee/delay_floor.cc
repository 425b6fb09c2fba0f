#include "knee/delay_floor.h"

#include <algorithm>
#include <cmath>

#include "knee/knee_wire.h"

namespace mantra::knee {

FloorKey FloorKey::of(uint8_t ttl, uint16_t timed_bytes) {
  if (timed_bytes == 0) return {ttl, 0};
  // 65535 bytes is class 106: a class fits a byte.
  return {ttl, static_cast<uint8_t>(1 + std::floor(std::log(timed_bytes) / std::log(1 / kFullSizeShare)))};
}

std::optional<int64_t> DelayFloor::highest() const {
  std::optional<int64_t> out;
  for (const auto& [key, path] : paths_) out = std::max(out.value_or(*path.extreme()), *path.extreme());
  return out;
}

}  // namespace mantra::knee
