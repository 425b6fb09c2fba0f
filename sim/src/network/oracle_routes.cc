#include "network/oracle_routes.h"

#include <ns3/simulator.h>

#include <algorithm>
#include <stdexcept>

#include "network/random_pairs.h"

namespace mantra::sim {

void OracleRoutes::refresh_if_stale() {
  const int64_t epoch = ns3::Simulator::Now().GetMilliSeconds() / kRefreshMs;
  if (epoch == epoch_) return;
  epoch_ = epoch;
  neighbours_ = unit_disk_neighbours(scenario_, range_m_);
  hops_to_.clear();
}

std::optional<uint32_t> OracleRoutes::next_hop(uint32_t from, uint32_t to) {
  refresh_if_stale();
  if (from == to || from >= neighbours_.size() || to >= neighbours_.size()) return std::nullopt;
  auto [at, fresh] = hops_to_.try_emplace(to);
  if (fresh) at->second = hop_distances(neighbours_, static_cast<int>(to));
  const std::vector<int>& hops = at->second;
  if (hops[from] < 0) return std::nullopt;
  // The next hop used last, while it is still on a shortest path: a route
  // changes only when it must (each new neighbour costs an ARP exchange).
  const auto kept = last_.find({from, to});
  const auto nearer = [&](uint32_t v) { return hops[v] == hops[from] - 1; };
  if (kept != last_.end() && nearer(kept->second) &&
      std::find(neighbours_[from].begin(), neighbours_[from].end(), kept->second) != neighbours_[from].end()) {
    return kept->second;
  }
  std::optional<uint32_t> best;
  for (uint32_t v : neighbours_[from]) {
    if (nearer(v) && (!best || v < *best)) best = v;
  }
  if (best) last_[{from, to}] = *best;
  return best;
}

std::optional<uint32_t> OracleRoutes::node_of(ns3::Ipv4Address address) {
  if (node_by_address_.size() != scenario_.addresses.size()) {  // once, at the first packet
    node_by_address_.clear();
    for (uint32_t i = 0; i < scenario_.addresses.size(); ++i) node_by_address_.emplace(scenario_.addresses[i], i);
  }
  const auto at = node_by_address_.find(address);
  return at == node_by_address_.end() ? std::nullopt : std::optional<uint32_t>(at->second);
}

uint32_t OracleRoutes::index_of(const ns3::Ptr<ns3::Node>& node) const {
  for (uint32_t i = 0; i < scenario_.nodes.GetN(); ++i) {
    if (scenario_.nodes.Get(i) == node) return i;
  }
  throw std::logic_error("oracle routing: a node outside the scenario");
}

}  // namespace mantra::sim
