#include "network/random_pairs.h"

#include <ns3/mobility-model.h>
#include <ns3/random-variable-stream.h>

#include <deque>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "network/random_streams.h"

namespace mantra::sim {

namespace {
constexpr int64_t kPairStream = streams::kPairs;  // network/random_streams.h

std::pair<int, int> unordered(int a, int b) { return {std::min(a, b), std::max(a, b)}; }
}  // namespace

std::vector<std::vector<uint32_t>> unit_disk_neighbours(const Scenario& s, double range_m) {
  const uint32_t n = s.nodes.GetN();
  std::vector<ns3::Vector> pos(n);
  for (uint32_t i = 0; i < n; ++i) pos[i] = s.nodes.Get(i)->GetObject<ns3::MobilityModel>()->GetPosition();
  std::vector<std::vector<uint32_t>> neighbours(n);
  for (uint32_t u = 0; u < n; ++u) {
    for (uint32_t v = u + 1; v < n; ++v) {
      if (ns3::CalculateDistance(pos[u], pos[v]) > range_m) continue;
      neighbours[u].push_back(v);
      neighbours[v].push_back(u);
    }
  }
  return neighbours;
}

std::vector<int> hop_distances(const std::vector<std::vector<uint32_t>>& neighbours, int src) {
  std::vector<int> hops(neighbours.size(), -1);
  std::deque<uint32_t> frontier{static_cast<uint32_t>(src)};
  hops[static_cast<size_t>(src)] = 0;
  while (!frontier.empty()) {
    const uint32_t u = frontier.front();
    frontier.pop_front();
    for (uint32_t v : neighbours[u]) {
      if (hops[v] >= 0) continue;
      hops[v] = hops[u] + 1;
      frontier.push_back(v);
    }
  }
  return hops;
}

std::vector<FlowSpec> draw_random_pairs(const Spec& spec, const Scenario& s) {
  std::vector<FlowSpec> flows = spec.flows;
  std::set<std::pair<int, int>> taken;  // unordered pairs, smaller node first
  for (const auto& f : flows) {
    if (!f.random_pair()) taken.insert(unordered(f.src, f.dst));
  }
  auto draw = ns3::CreateObject<ns3::UniformRandomVariable>();
  draw->SetStream(kPairStream);
  std::vector<std::vector<int>> hops;  // computed on first need
  for (size_t i = 0; i < flows.size(); ++i) {
    FlowSpec& f = flows[i];
    if (!f.random_pair()) continue;
    if (hops.empty()) {
      const auto neighbours = unit_disk_neighbours(s, spec.radio.rx_range_m);
      for (uint32_t u = 0; u < s.nodes.GetN(); ++u) hops.push_back(hop_distances(neighbours, static_cast<int>(u)));
    }
    std::vector<std::pair<int, int>> candidates;
    for (size_t a = 0; a < hops.size(); ++a) {
      for (size_t b = 0; b < hops.size(); ++b) {
        const auto pair = unordered(static_cast<int>(a), static_cast<int>(b));
        if (a != b && hops[a][b] >= f.min_hops && !taken.count(pair))
          candidates.emplace_back(static_cast<int>(a), static_cast<int>(b));
      }
    }
    if (candidates.empty()) {
      throw std::runtime_error("flows[" + std::to_string(i) + "]: no free pair of nodes is " +
                               std::to_string(f.min_hops) + " or more hops apart in this topology");
    }
    const auto pick = candidates[draw->GetInteger(0, static_cast<uint32_t>(candidates.size() - 1))];
    f.src = pick.first;
    f.dst = pick.second;
    taken.insert(unordered(f.src, f.dst));
  }
  return flows;
}

}  // namespace mantra::sim
