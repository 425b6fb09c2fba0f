#include "dsr/dsr_packet.h"

#include <cassert>

namespace mantra::sim::dsr {

std::vector<Address> route_of(const Packet& p) {
  const SourceRoute& sr = *p.header.source_route;
  std::vector<Address> route;
  route.reserve(sr.hops.size() + 2);
  if (sr.salvage == 0) route.push_back(p.source);
  route.insert(route.end(), sr.hops.begin(), sr.hops.end());
  route.push_back(p.destination);
  return route;
}

size_t receiver_of(const Packet& p) {
  const SourceRoute& sr = *p.header.source_route;
  const size_t nodes = sr.hops.size() + (sr.salvage == 0 ? 2 : 1);
  return nodes - 1 - sr.segments_left;
}

void put_route(Packet& p, const std::vector<Address>& route, size_t receiver, uint8_t salvage) {
  assert(route.size() >= 2 && receiver >= 1 && receiver < route.size());
  assert(route.back() == p.destination && (salvage > 0 || route.front() == p.source));
  SourceRoute sr;
  sr.salvage = salvage;
  sr.hops.assign(route.begin() + (salvage == 0 ? 1 : 0), route.end() - 1);
  sr.segments_left = static_cast<uint8_t>(route.size() - 1 - receiver);
  p.header.source_route = std::move(sr);
}

}  // namespace mantra::sim::dsr
