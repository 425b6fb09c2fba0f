// What each flow draws from the run's seed when the spec is read: its start
// (`start: {uniform: [lo, hi]}`), as ns-2's cbrgen.tcl started each CBR
// source at a time uniform in [0, 180) s, since sources that start together
// send in lockstep and their frames meet on the air at the same instant every
// interval; and the seed of a CBR flow's jittered gaps (`interval_jitter`,
// ns-2's `random_`), which the core draws.
//
// Each draw depends only on the run's seed, the flow's position in the
// expanded flow list (copies of a `count` flow each draw their own) and what
// is drawn: SplitMix64's mix of the three, so a spec and seed give the same
// draws everywhere.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/split_mix.h"

namespace mantra::sim {

enum class FlowDraw : uint64_t { kStart = 0, kJitterSeed = 0x6A09E667F3BCC909ULL };

inline uint64_t flow_draw(uint64_t seed, size_t flow, FlowDraw what) {
  return SplitMix64::mix(seed * 0x9E3779B97F4A7C15ULL + (static_cast<uint64_t>(flow) + 1) * 0xBF58476D1CE4E5B9ULL +
                         static_cast<uint64_t>(what));
}

inline double uniform_start_s(uint64_t seed, size_t flow, double lo_s, double hi_s) {
  return lo_s + (hi_s - lo_s) * SplitMix64::unit(flow_draw(seed, flow, FlowDraw::kStart));
}

// 53 bits: the core's parameters are doubles.
inline uint64_t jitter_seed(uint64_t seed, size_t flow) { return flow_draw(seed, flow, FlowDraw::kJitterSeed) >> 11; }

}  // namespace mantra::sim
