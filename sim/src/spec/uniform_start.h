// A flow's start drawn uniformly from a range (`start: {uniform: [lo, hi]}`),
// as ns-2's cbrgen.tcl started each CBR source at a time uniform in
// [0, 180) s: sources that start together send in lockstep, and their frames
// meet on the air at the same instant every interval.
//
// The draw depends only on the run's seed and the flow's position in the
// expanded flow list (copies of a `count` flow each draw their own):
// SplitMix64 of both, so a spec and seed give the same starts everywhere.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mantra::sim {

inline double uniform_start_s(uint64_t seed, size_t flow, double lo_s, double hi_s) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ULL + (static_cast<uint64_t>(flow) + 1) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  const double u = static_cast<double>(z >> 11) * 0x1.0p-53;  // [0, 1)
  return lo_s + (hi_s - lo_s) * u;
}

}  // namespace mantra::sim
