// The relay's random numbers: each is a fixed function of the run's seed,
// the direction, the packet's number in that direction and which draw of
// the packet it is, so the same packets get the same draws on every run and
// platform (SplitMix64's mix; no std:: distribution, whose algorithms the
// standard leaves open).
#pragma once

#include <cstdint>

#include "common/split_mix.h"

namespace mantra::udp {

enum class Draw : uint64_t { kLoss = 1, kGilbertState = 2, kJitter = 3, kRed = 4 };

inline double seeded_draw(uint64_t seed, uint64_t direction, uint64_t packet, Draw which) {
  uint64_t z = SplitMix64::mix(seed ^ 0x6A09E667F3BCC909ULL);
  z = SplitMix64::mix(z ^ (direction * 0x9E3779B97F4A7C15ULL));
  z = SplitMix64::mix(z ^ packet);
  z = SplitMix64::mix(z ^ static_cast<uint64_t>(which));
  return SplitMix64::unit(z);
}

}  // namespace mantra::udp
