#include "aodv/aodv_agent.h"

#include <algorithm>
#include <cmath>

namespace mantra::sim::aodv {

AodvCounters& AodvCounters::operator+=(const AodvCounters& o) {
  requests_sent += o.requests_sent;
  requests_passed += o.requests_passed;
  replies_sent += o.replies_sent;
  table_replies += o.table_replies;
  replies_passed += o.replies_passed;
  replies_suppressed += o.replies_suppressed;
  replies_stranded += o.replies_stranded;
  errors_sent += o.errors_sent;
  local_repairs += o.local_repairs;
  discoveries_given_up += o.discoveries_given_up;
  return *this;
}

AodvAgent::AodvAgent(Address self, AodvHost& host) : self_(self), host_(host) {}

RequestQueue::Dropped AodvAgent::dropped() {
  return [this](DataPacket&& p, bool timed_out) {
    host_.drop(p, timed_out ? DropReason::kQueueTimeout : DropReason::kQueueFull);
  };
}

void AodvAgent::enqueue(DataPacket p) { queue_.put(std::move(p), host_.now_s(), dropped()); }

// ns-2's forward() for a unicast packet: the route it leaves on lives 10 s more.
void AodvAgent::send_data(Route& route, DataPacket p, double delay_s) {
  route.expire_s = host_.now_s() + kActiveRouteTimeoutS;
  host_.forward(std::move(p), route.next_hop, delay_s);
}

std::optional<Address> AodvAgent::route_output(Address destination) {
  Route* route = table_.find(destination);
  if (!route || !route->up()) return std::nullopt;
  route->expire_s = host_.now_s() + kActiveRouteTimeoutS;
  return route->next_hop;
}

// ns-2's rt_resolve.
void AodvAgent::route(DataPacket p) {
  Route& route = table_.at(p.destination);
  if (route.up()) {
    send_data(route, std::move(p), 0);
  } else if (p.source == self_) {
    const Address destination = p.destination;
    enqueue(std::move(p));
    send_request(destination);
  } else if (route.state == Route::State::kInRepair) {
    enqueue(std::move(p));
  } else {
    RouteError e;
    e.unreachable.emplace_back(p.destination, route.seqno);
    send_error(std::move(e), 0);
    host_.drop(p, DropReason::kNoRoute);
  }
}

// ns-2's sendRequest: rate limit, give-up, the TTL schedule and the timeout.
void AodvAgent::send_request(Address destination) {
  Route& route = table_.at(destination);
  const double now = host_.now_s();
  if (route.up() || route.request_timeout_s > now) return;
  if (route.request_count > kRequestRetries) {
    route.request_timeout_s = now + kMaxRequestTimeoutS;
    route.request_count = 0;
    ++counters_.discoveries_given_up;
    drop_waiting(destination);
    return;
  }
  route.request_last_ttl = std::max<int>(route.request_last_ttl, route.last_hops);
  int ttl;
  if (route.request_last_ttl == 0) {
    ttl = kTtlStart;
  } else if (route.request_last_ttl < kTtlThreshold) {
    ttl = route.request_last_ttl + kTtlIncrement;
  } else {
    ttl = kNetworkDiameter;
    ++route.request_count;
  }
  route.request_last_ttl = ttl;
  route.request_timeout_s =
      now + std::min(2.0 * ttl * route.per_hop_time_s() * std::max(route.request_count, 1), kMaxRequestTimeoutS);
  route.expire_s = 0;
  route.last_request_s = now;
  seqno_ += 2;
  RouteRequest q;
  q.hop_count = 1;  // ns-2 counts the first link at the originator
  q.id = request_id_++;
  q.destination = destination;
  q.destination_seqno = route.seqno;
  q.originator = self_;
  q.originator_seqno = seqno_;
  seen_requests_[{self_, q.id}] = now + kRequestIdSaveS;
  ++counters_.requests_sent;
  host_.send_message(q, kBroadcast, static_cast<uint8_t>(ttl), 0);
}

void AodvAgent::release_waiting(Route& route, double spacing_s) {
  double delay = 0;
  while (auto p = queue_.take(route.destination, host_.now_s(), dropped())) {
    send_data(route, std::move(*p), delay);
    delay += spacing_s;
  }
}

void AodvAgent::drop_waiting(Address destination) {
  while (auto p = queue_.take(destination, host_.now_s(), dropped())) host_.drop(*p, DropReason::kNoRoute);
}

void AodvAgent::receive(const Message& m, Address from, uint8_t ttl) {
  const uint8_t ttl_left = ttl > 0 ? ttl - 1 : 0;  // ns-2 takes one off on arrival
  if (const auto* q = std::get_if<RouteRequest>(&m)) {
    handle_request(*q, from, ttl_left);
  } else if (const auto* r = std::get_if<RouteReply>(&m)) {
    handle_reply(*r, from, ttl_left);
  } else {
    handle_error(std::get<RouteError>(m), from);
  }
}

// ns-2's recvRequest.
void AodvAgent::handle_request(RouteRequest q, Address from, uint8_t ttl_left) {
  const double now = host_.now_s();
  if (q.originator == self_) return;
  if (!seen_requests_.try_emplace({q.originator, q.id}, now + kRequestIdSaveS).second) return;  // first copy only

  Route& back = table_.at(q.originator);
  back.expire_s = std::max(back.expire_s, now + kReverseRouteLifeS);
  if (q.originator_seqno > back.seqno || (q.originator_seqno == back.seqno && q.hop_count < back.hops)) {
    back.update(q.originator_seqno, q.hop_count, from, std::max(back.expire_s, now + kReverseRouteLifeS));
    if (back.request_timeout_s > 0) {  // this node was looking for the originator
      back.request_count = 0;
      back.request_timeout_s = 0;
      back.request_last_ttl = q.hop_count;
      back.expire_s = now + kActiveRouteTimeoutS;
    }
    release_waiting(back, 0);
  }

  RouteReply reply;
  reply.originator = q.originator;
  if (q.destination == self_) {
    seqno_ = std::max(seqno_, q.destination_seqno) + 1;
    if (seqno_ % 2) ++seqno_;
    reply.hop_count = 1;
    reply.destination = self_;
    reply.destination_seqno = seqno_;
    reply.lifetime_ms = static_cast<uint32_t>(kMyRouteTimeoutS * 1000);
    ++counters_.replies_sent;
    host_.send_message(reply, back.next_hop, kNetworkDiameter, 0);
    return;
  }
  Route* ahead = table_.find(q.destination);
  if (ahead && ahead->hop_count_known() && ahead->seqno >= q.destination_seqno) {
    reply.hop_count = static_cast<uint8_t>(ahead->hops + 1);
    reply.destination = q.destination;
    reply.destination_seqno = ahead->seqno;
    reply.lifetime_ms = static_cast<uint32_t>(std::max(0.0, std::floor(ahead->expire_s - now)) * 1000);
    ahead->precursors.insert(back.next_hop);
    back.precursors.insert(ahead->next_hop);
    ++counters_.replies_sent;
    ++counters_.table_replies;
    host_.send_message(reply, back.next_hop, kNetworkDiameter, 0);
    return;
  }
  if (ttl_left == 0) return;
  q.hop_count = static_cast<uint8_t>(std::min(q.hop_count + 1, 255));
  if (ahead) q.destination_seqno = std::max(ahead->seqno, q.destination_seqno);
  ++counters_.requests_passed;
  host_.send_message(q, kBroadcast, ttl_left, host_.uniform_s(kJitterS));
}

// ns-2's recvReply.
void AodvAgent::handle_reply(RouteReply r, Address from, uint8_t ttl_left) {
  const double now = host_.now_s();
  Route& route = table_.at(r.destination);
  const bool better =
      route.seqno < r.destination_seqno || (route.seqno == r.destination_seqno && route.hops > r.hop_count);
  if (better) {
    route.update(r.destination_seqno, r.hop_count, from, now + r.lifetime_ms / 1000.0);
    route.request_count = 0;
    route.request_timeout_s = 0;
    route.request_last_ttl = r.hop_count;
    route.repair_deadline_s = -1;
    if (r.originator == self_ && route.last_request_s >= 0 && r.hop_count > 0) {
      route.add_latency_sample((now - route.last_request_s) / r.hop_count);
    }
    release_waiting(route, kArpDelayS);
  }
  if (r.originator == self_) return;
  if (!better) {
    ++counters_.replies_suppressed;
    return;
  }
  Route* back = table_.find(r.originator);
  if (!back || !back->hop_count_known() || ttl_left == 0) {  // ns-2 drops it (NRTE, TTL)
    ++counters_.replies_stranded;
    return;
  }
  r.hop_count = static_cast<uint8_t>(std::min(r.hop_count + 1, 255));
  back->expire_s = now + kActiveRouteTimeoutS;
  route.precursors.insert(back->next_hop);
  ++counters_.replies_passed;
  host_.send_message(r, back->next_hop, ttl_left, 0);
}

// ns-2's recvError.
void AodvAgent::handle_error(const RouteError& e, Address from) {
  RouteError passed;
  for (const auto& [destination, seqno] : e.unreachable) {
    Route* route = table_.find(destination);
    if (!route || !route->hop_count_known() || route->next_hop != from || route->seqno > seqno) continue;
    route->seqno = seqno;
    route->down();
    drop_queued_for(from);
    if (!route->precursors.empty()) {
      passed.unreachable.emplace_back(destination, route->seqno);
      route->precursors.clear();
    }
  }
  if (!passed.unreachable.empty()) send_error(std::move(passed), host_.uniform_s(kJitterS));
}

// ns-2's rt_ll_failed.
void AodvAgent::link_failed(DataPacket p, Address next_hop) {
  Route* route = table_.find(p.destination);
  if (route && route->hop_count_known() && p.hops_travelled > route->hops) {
    local_repair(*route, std::move(p));
    return;
  }
  host_.drop(p, DropReason::kLinkBroken);
  drop_queued_for(next_hop);
  neighbour_lost(next_hop);
}

void AodvAgent::drop_queued_for(Address neighbour) {
  for (DataPacket& q : host_.take_queued(neighbour)) host_.drop(q, DropReason::kLinkBroken);
}

// ns-2's nb_delete and handle_link_failure.
void AodvAgent::neighbour_lost(Address neighbour) {
  seqno_ += 2;
  RouteError e;
  for (auto& [destination, route] : table_.all()) {
    if (route.hop_count_known() && route.next_hop == neighbour) {
      ++route.seqno;
      e.unreachable.emplace_back(destination, route.seqno);
      route.down();
    }
    route.precursors.erase(neighbour);
  }
  if (!e.unreachable.empty()) send_error(std::move(e), 0);
}

// ns-2's local_rt_repair.
void AodvAgent::local_repair(Route& route, DataPacket p) {
  ++counters_.local_repairs;
  enqueue(std::move(p));
  route.state = Route::State::kInRepair;
  send_request(route.destination);
  route.repair_deadline_s = std::max(route.request_timeout_s, host_.now_s());
}

void AodvAgent::send_error(RouteError e, double delay_s) {
  for (size_t at = 0; at < e.unreachable.size(); at += kMaxUnreachable) {
    RouteError part;
    part.no_delete = e.no_delete;
    const size_t end = std::min(e.unreachable.size(), at + kMaxUnreachable);
    part.unreachable.assign(e.unreachable.begin() + static_cast<std::ptrdiff_t>(at),
                            e.unreachable.begin() + static_cast<std::ptrdiff_t>(end));
    ++counters_.errors_sent;
    host_.send_message(part, kBroadcast, 1, delay_s);
  }
}

// ns-2's rt_purge, the local repair timer and the request-id purge.
double AodvAgent::purge() {
  const double now = host_.now_s();
  for (auto& [destination, route] : table_.all()) {
    if (route.state == Route::State::kInRepair && route.repair_deadline_s >= 0 && route.repair_deadline_s <= now) {
      // The repair failed: no route error, as in ns-2, but the number raised (ns-2 left it
      // commented out, RFC 3561 raises it), so the next request is for a route fresher than
      // those upstream, which lead back through this node.
      ++route.seqno;
      route.down();
    }
    if (route.up() && route.expire_s < now) {
      drop_waiting(destination);
      ++route.seqno;
      route.down();
    } else if (route.up()) {
      release_waiting(route, kArpDelayS);
    } else if (queue_.holds(destination)) {
      send_request(destination);
    }
  }
  if (now >= next_seen_purge_s_) {
    std::erase_if(seen_requests_, [now](const auto& kv) { return kv.second <= now; });
    next_seen_purge_s_ = now + kRequestIdSaveS;
  }
  return kPurgePeriodS;
}

}  // namespace mantra::sim::aodv
