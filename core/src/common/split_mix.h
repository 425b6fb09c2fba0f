// SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): a 64-bit generator whose
// every output is a fixed function of its seed, the same on every platform
// and standard library, for draws a spec and seed must reproduce exactly.
#pragma once

#include <cstdint>

namespace mantra {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  // The generator's output function: a bijection that spreads every input
  // bit over the output.
  static constexpr uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  uint64_t next() { return mix(state_ += 0x9E3779B97F4A7C15ULL); }
  // The top 53 bits of a draw as a number uniform in [0, 1).
  static constexpr double unit(uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }
  double uniform01() { return unit(next()); }

 private:
  uint64_t state_;
};

}  // namespace mantra
