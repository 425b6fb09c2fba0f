// Random source-destination pairs at least k hops apart (LATP Table 2: "ten
// randomly chosen pairs with a minimum hop distance of five hops").
//
// Hops are counted on the unit-disk graph of the nodes' positions at t = 0
// with the radio's decode range (breadth-first search). Each random flow, in
// spec order, draws uniformly among the ordered pairs at least `min_hops`
// apart whose nodes no earlier flow of the run already pairs, from an ns-3
// random stream of its own, so the draw depends only on seed and topology.
#pragma once

#include <cstdint>
#include <vector>

#include "network/scenario.h"
#include "spec/spec.h"

namespace mantra::sim {

// The run's flows with every random pair drawn; throws std::runtime_error
// naming the flow when no pair is far enough apart.
std::vector<FlowSpec> draw_random_pairs(const Spec& spec, const Scenario& scenario);

// Per node, the nodes within `range_m` of it at t = 0 (the unit-disk graph).
std::vector<std::vector<uint32_t>> unit_disk_neighbours(const Scenario& scenario, double range_m);

// Hop distances from `src` over that graph (-1: unreachable).
std::vector<int> hop_distances(const std::vector<std::vector<uint32_t>>& neighbours, int src);

}  // namespace mantra::sim
