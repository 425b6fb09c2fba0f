// The oracle's routes (run spec `routing: oracle`): shortest paths on the
// unit-disk graph of the nodes' true positions, with the radio's decode range,
// recomputed every 100 ms. No control packet is sent; every node reads the
// same table. It separates a transport's behaviour from a routing protocol's:
// what a flow loses on the oracle, no routing protocol could have saved.
//
//   epoch k = floor(now / 100 ms)
//   first lookup in epoch k ──► graph of positions now (range rx_range_m)
//   next_hop(from, to)       ──► per destination, hop distances (BFS) once per
//                                epoch; the neighbour of `from` one hop nearer
//                                to `to`: the one given last while it still is
//                                (a route changes only when it must), else the
//                                lowest node index
//
// A path found in epoch k is used until epoch k + 1, so a link may have
// broken up to 100 ms before a packet crosses it (a MAC drop, as on any
// routing). The graph is the unit disk, not the radio: a link near the edge
// of the range fails more often than the disk says.
#pragma once

#include <ns3/ipv4-address.h>
#include <ns3/node.h>
#include <ns3/ptr.h>

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "network/scenario.h"

namespace mantra::sim {

class OracleRoutes {
 public:
  static constexpr int64_t kRefreshMs = 100;

  // Reads the nodes' positions and addresses from `scenario` when asked
  // (addresses are assigned after the routing is installed).
  OracleRoutes(const Scenario& scenario, double range_m) : scenario_(scenario), range_m_(range_m) {}

  // The node after `from` on a shortest path to `to` now; nullopt when the
  // graph has no path (or from == to).
  std::optional<uint32_t> next_hop(uint32_t from, uint32_t to);

  // The node holding `address` (its radio address), or nullopt.
  std::optional<uint32_t> node_of(ns3::Ipv4Address address);
  ns3::Ipv4Address address_of(uint32_t node) const { return scenario_.addresses.at(node); }

  // The index of `node` in the scenario's node container.
  uint32_t index_of(const ns3::Ptr<ns3::Node>& node) const;

 private:
  void refresh_if_stale();

  const Scenario& scenario_;
  double range_m_;
  int64_t epoch_ = -1;
  std::vector<std::vector<uint32_t>> neighbours_;
  std::map<uint32_t, std::vector<int>> hops_to_;            // per destination asked in this epoch
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> last_;  // (from, to) -> next hop last given
  std::map<ns3::Ipv4Address, uint32_t> node_by_address_;    // built once the addresses exist
};

}  // namespace mantra::sim
