// Every source of randomness of a run, in one place.
//
// The spec's seed is ns-3's run number (RngSeedManager: seed 1, run = seed),
// so one seed gives one set of independent substreams. Each user of random
// numbers draws from its own block of stream numbers, fixed here, so what
// one part draws never shifts another's: node movement depends only on the
// seed and the topology, never on the flows or protocols, and adding a flow
// leaves the mobility and the random pairs as they were.
//
//   block      from      user
//   mobility        0    random waypoint, random placement (scenario.cc)
//   radio      100000    Wi-Fi PHY/MAC, channel error models (radio.cc)
//   routing    200000    AODV's jitter (scenario.cc)
//   wired      300000    error models of point-to-point links (scenario.cc)
//   pairs      400000    the draw of random src/dst pairs (random_pairs.cc)
#pragma once

#include <cstdint>

namespace mantra::sim::streams {

inline constexpr int64_t kMobility = 0;
inline constexpr int64_t kRadio = 100000;
inline constexpr int64_t kRouting = 200000;
inline constexpr int64_t kWired = 300000;
inline constexpr int64_t kPairs = 400000;

// Sets ns-3's global seed and run number from the spec's seed; call before
// any random variable is created.
void seed_run(uint64_t seed);

}  // namespace mantra::sim::streams
