#include "network/random_streams.h"

#include <ns3/rng-seed-manager.h>

namespace mantra::sim::streams {

void seed_run(uint64_t seed) {
  ns3::RngSeedManager::SetSeed(1);
  ns3::RngSeedManager::SetRun(seed);
}

}  // namespace mantra::sim::streams
