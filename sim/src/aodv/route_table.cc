#include "aodv/route_table.h"

namespace mantra::sim::aodv {

namespace {
constexpr double kNodeTraversalTimeS = 0.03;  // aodv.h NODE_TRAVERSAL_TIME
}

void Route::update(uint32_t new_seqno, uint16_t new_hops, Address new_next_hop, double new_expire_s) {
  seqno = new_seqno;
  hops = new_hops;
  state = State::kUp;
  next_hop = new_next_hop;
  expire_s = new_expire_s;
}

void Route::down() {
  if (state == State::kDown) return;
  last_hops = hops;
  hops = kInfiniteHops;
  state = State::kDown;
  next_hop = 0;
  expire_s = 0;
  repair_deadline_s = -1;
}

double Route::per_hop_time_s() const {
  double sum = 0;
  int n = 0;
  for (double s : latency_s) {
    if (s > 0) {
      sum += s;
      ++n;
    }
  }
  return n > 0 ? sum / n : kNodeTraversalTimeS;
}

void Route::add_latency_sample(double per_hop_s) {
  latency_s[latency_next] = per_hop_s;
  latency_next = (latency_next + 1) % latency_s.size();
}

Route& RouteTable::at(Address destination) {
  auto [it, made] = routes_.try_emplace(destination);
  if (made) it->second.destination = destination;
  return it->second;
}

Route* RouteTable::find(Address destination) {
  auto it = routes_.find(destination);
  return it == routes_.end() ? nullptr : &it->second;
}

}  // namespace mantra::sim::aodv
