// AODV's route table as ns-2's AODV kept it (aodv/aodv_rtable.{h,cc},
// ns-2.35): one entry per destination, made on first mention and never
// deleted, holding the route and the node's discovery state towards it.
//
//   down ──update (a fresher or shorter route)──► up ──expiry, break, error──► down
//                                                  │
//                                  link failure near the destination
//                                                  ▼
//                                              in repair ──reply──► up
//                                                  └──repair deadline──► down
//
// A route is "valid" for most rules while its hop count is known (up or in
// repair), as ns-2 tested it (rt_hops != INFINITY2).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <set>

#include "aodv/aodv_messages.h"

namespace mantra::sim::aodv {

inline constexpr uint16_t kInfiniteHops = 255;  // ns-2's INFINITY2: no hop count known

struct Route {
  enum class State { kDown, kUp, kInRepair };

  Address destination = 0;
  State state = State::kDown;
  uint32_t seqno = 0;
  uint16_t hops = kInfiniteHops;
  uint16_t last_hops = kInfiniteHops;  // the hop count before the route last went down
  Address next_hop = 0;
  std::set<Address> precursors;  // neighbours that route through this node to the destination
  double expire_s = 0;           // absolute
  // Discovery towards the destination.
  double request_timeout_s = 0;  // no new request before this (absolute; 0: none pending)
  int request_count = 0;         // network-wide requests in this discovery
  int request_last_ttl = 0;
  double last_request_s = -1;         // when this node last asked (for the latency samples)
  double repair_deadline_s = -1;      // in repair: when to give the route up
  std::array<double, 3> latency_s{};  // per-hop discovery latency, ns-2's MAX_HISTORY samples
  size_t latency_next = 0;

  bool up() const { return state == State::kUp; }
  bool hop_count_known() const { return hops != kInfiniteHops; }
  // ns-2's rt_update: a route to `next_hop`, up until `expire_s`.
  void update(uint32_t seqno, uint16_t hops, Address next_hop, double expire_s);
  // ns-2's rt_down: keeps the sequence number, forgets the hop count and next hop.
  void down();
  // ns-2's PerHopTime: the mean of the latency samples, or NODE_TRAVERSAL_TIME.
  double per_hop_time_s() const;
  void add_latency_sample(double per_hop_s);
};

class RouteTable {
 public:
  Route& at(Address destination);    // made if missing
  Route* find(Address destination);  // nullptr if missing
  std::map<Address, Route>& all() { return routes_; }
  const std::map<Address, Route>& all() const { return routes_; }

 private:
  std::map<Address, Route> routes_;
};

}  // namespace mantra::sim::aodv
