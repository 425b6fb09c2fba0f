#include "dsr/dsr_agent.h"

#include <algorithm>

namespace mantra::sim::dsr {
namespace {

constexpr int64_t kIpHeaderBytes = 20;

uint8_t salvage_of(const Packet& p) { return p.header.source_route ? p.header.source_route->salvage : 0; }

bool contains(const Path& path, Address node) { return std::find(path.begin(), path.end(), node) != path.end(); }

// The requester followed by the nodes a request recorded.
Path route_so_far(const Packet& request) {
  Path path{request.source};
  path.insert(path.end(), request.header.request->recorded.begin(), request.header.request->recorded.end());
  return path;
}

// The route a reply gives: its requester (the reply's IP destination), then the nodes it lists.
Path replied_route(const Packet& reply) {
  Path path{reply.destination};
  path.insert(path.end(), reply.header.reply->route.begin(), reply.header.reply->route.end());
  return path;
}

Path reversed(Path path) {
  std::reverse(path.begin(), path.end());
  return path;
}

}  // namespace

DsrAgent::DsrAgent(Address self, DsrHost& host, DsrOptions options)
    : self_(self), host_(host), options_(options), cache_(self) {}

void DsrAgent::send(Packet p) {
  p.identification = next_ip_id_++;
  if (route_and_send(p) == Outcome::kWaiting) buffer(std::move(p));
}

DsrAgent::Outcome DsrAgent::route_and_send(Packet& p) {
  if (p.destination == self_) {
    deliver_once(std::move(p));
    return Outcome::kSent;
  }
  if (std::optional<Path> route = cache_.use(p.destination)) {
    const uint8_t salvage = salvage_of(p);
    send_along(std::move(p), *route, 0, 0, salvage);
    return Outcome::kSent;
  }
  return seek_route(p) ? Outcome::kWaiting : Outcome::kDropped;
}

bool DsrAgent::seek_route(const Packet& p) {
  const Address target = p.destination;
  const double now_s = host_.now_s();
  const bool own = p.source == self_;
  if (requests_.may_start_discovery(target, now_s)) {
    RequestTable::Line& line = requests_.line(target);
    if (!own && line.discoveries > kSalvageMaxRequests) {
      host_.drop(p, DropReason::kNoRoute);
      return false;
    }
    line.last_was_ring_zero = options_.reply_from_cache;
    line.last_ring_zero_s = now_s;
    ++counters_.discoveries;
    send_request(target, !options_.reply_from_cache);
  } else if (RequestTable::Line& line = requests_.line(target);
             line.last_was_ring_zero && own && now_s - line.last_ring_zero_s > kRingZeroTimeoutS) {
    line.last_was_ring_zero = false;
    send_request(target, true);
  }
  return true;
}

void DsrAgent::send_request(Address target, bool propagating) {
  Packet r = own_packet(kBroadcast);
  r.ttl = propagating ? kOwnPacketTtl : 1;  // TTL 1: the neighbours answer but do not pass it on
  r.header.request = RouteRequest{next_request_id_++, target, {}};
  if (held_error_.held && host_.now_s() - held_error_.at_s < kErrorHoldS) {  // a gratuitous route error
    r.header.errors.push_back(RouteError{0, held_error_.from, 0, held_error_.to});
    if (propagating) held_error_.held = false;
  }
  if (propagating) ++counters_.propagating_requests;
  transmit(std::move(r), kBroadcast, host_.uniform_s(kRequestJitterS));
}

void DsrAgent::send_along(Packet p, const Path& route, size_t at, double delay_s, uint8_t salvage) {
  put_route(p, route, at + 1, salvage);
  const Address next_hop = route[at + 1];
  transmit(std::move(p), next_hop, delay_s);
}

void DsrAgent::transmit(Packet p, Address next_hop, double delay_s) {
  const auto header_bytes = static_cast<int64_t>(p.header.size_bytes());
  if (p.carries_data()) {
    counters_.data_header_bytes += header_bytes;
  } else if (p.header.request) {
    ++counters_.requests_sent;
    counters_.request_bytes += kIpHeaderBytes + header_bytes;
  } else if (p.header.reply) {
    ++counters_.replies_sent;
    counters_.reply_bytes += kIpHeaderBytes + header_bytes;
  } else {
    ++counters_.errors_sent;
    counters_.error_bytes += kIpHeaderBytes + header_bytes;
  }
  host_.transmit(std::move(p), next_hop, delay_s);
}

void DsrAgent::receive(Packet p) {
  if (p.header.request) {
    if (p.header.request->target == self_) {
      receive_for_me(std::move(p));
      return;
    }
    if (!p.header.errors.empty()) process_errors(p);
    handle_request(std::move(p));
    return;
  }
  if (!p.header.source_route) {  // a one-hop broadcast of a transport
    if (p.carries_data()) deliver_once(std::move(p));
    return;
  }
  const Path route = route_of(p);
  const size_t at = receiver_of(p);
  if (at < 1 || at >= route.size() || route[at] != self_) {
    host_.drop(p, DropReason::kMalformed);
    return;
  }
  if (p.destination == self_) {
    receive_for_me(std::move(p));
    return;
  }
  if (!p.header.errors.empty()) process_errors(p);  // ns-2's dsragent_snoop_forwarded_errors
  forward(std::move(p), route, at);
}

void DsrAgent::receive_for_me(Packet p) {
  if (p.header.reply) accept_reply(p);
  if (p.header.request) {
    requests_.record(p.source, p.header.request->identification);
    reply_to_requester(p);
  }
  if (!p.header.errors.empty()) process_errors(p);
  if (p.carries_data()) deliver_once(std::move(p));
}

void DsrAgent::handle_request(Packet p) {
  const RouteRequest& request = *p.header.request;
  if (p.source == self_ || requests_.seen(p.source, request.identification)) return;
  const Path so_far = route_so_far(p);
  if (contains(so_far, self_) || so_far.size() >= kMaxRouteNodes) return;
  requests_.record(p.source, request.identification);
  if (options_.reply_from_cache && reply_from_cache(p)) return;
  if (p.ttl <= 1) return;  // non-propagating
  p.header.request->recorded.push_back(self_);
  --p.ttl;
  transmit(std::move(p), kBroadcast, host_.uniform_s(kRequestJitterS));
}

bool DsrAgent::reply_from_cache(const Packet& request) {
  std::optional<Path> rest = cache_.find(request.header.request->target);
  if (!rest) return false;
  const Path so_far = route_so_far(request);
  if (rest->size() + so_far.size() > kMaxRouteNodes) return false;
  Path complete = so_far;
  complete.insert(complete.end(), rest->begin(), rest->end());
  remove_loops(complete);
  if (!contains(complete, self_) || complete.front() != request.source) return false;
  Path back = so_far;
  back.push_back(self_);
  back = reversed(std::move(back));
  cache_.add(back);
  Packet reply = own_packet(request.source);
  reply.header.reply = RouteReply{Path(complete.begin() + 1, complete.end())};
  ++counters_.cache_replies;
  send_along(std::move(reply), back, 0, 0, 0);
  return true;
}

void DsrAgent::reply_to_requester(const Packet& request) {
  Path route = route_so_far(request);
  if (route.size() >= kMaxRouteNodes) return;
  route.push_back(self_);
  const Path back = reversed(route);
  cache_.add(back);
  Packet reply = own_packet(request.source);
  reply.header.reply = RouteReply{Path(route.begin() + 1, route.end())};
  send_along(std::move(reply), back, 0, host_.uniform_s(kRequestJitterS), 0);
}

void DsrAgent::accept_reply(const Packet& p) {
  const Path route = replied_route(p);  // starts at this node, the requester
  cache_.add(route);
  requests_.reset_backoff(route.back());
  double delay_s = 0;  // ns-2 spaces what a reply releases, to let ARP finish
  send_buffer_.sweep(
      host_.now_s(), [this](Packet&& expired) { host_.drop(expired, DropReason::kSendBufferTimeout); },
      [&](Packet& waiting) {
        std::optional<Path> found = cache_.use(waiting.destination);
        if (!found) return false;
        const uint8_t salvage = salvage_of(waiting);
        send_along(std::move(waiting), *found, 0, delay_s, salvage);
        delay_s += kReplySpacingS;
        return true;
      });
}

void DsrAgent::forward(Packet p, const Path& route, size_t at) {
  snoop(route, at - 1);
  if (p.ttl == 0) {
    host_.drop(p, DropReason::kTtl);
    return;
  }
  --p.ttl;
  const uint8_t salvage = salvage_of(p);
  send_along(std::move(p), route, at, 0, salvage);
}

void DsrAgent::snoop(const Path& route, std::optional<size_t> transmitter) {
  const auto mine = std::find(route.begin(), route.end(), self_);
  if (mine != route.end()) {
    if (mine + 1 != route.end()) cache_.notice_used(Path(mine, route.end()));
    return;
  }
  if (!transmitter) return;
  Path stub{self_};
  for (size_t i = *transmitter; i < route.size() && stub.size() < kMaxRouteNodes; ++i) stub.push_back(route[i]);
  cache_.notice_used(stub);
}

void DsrAgent::process_errors(const Packet& p) {
  for (const RouteError& e : p.header.errors) cache_.notice_dead(e.error_source, e.unreachable);
  const RouteError& last = p.header.errors.back();
  if (last.error_destination != self_) return;
  held_error_ = HeldError{last.error_source, last.unreachable, host_.now_s(), true};
  if (p.header.errors.size() == 1) return;
  Packet rest = own_packet(p.header.errors[p.header.errors.size() - 2].error_destination);
  rest.header.errors.assign(p.header.errors.begin(), p.header.errors.end() - 1);
  if (route_and_send(rest) == Outcome::kWaiting) buffer(std::move(rest));
}

void DsrAgent::overhear(const Packet& p) {
  if (!p.header.source_route || p.source == self_) return;
  const Path route = route_of(p);
  const size_t at = receiver_of(p);
  if (at < 1 || at >= route.size() || route[at] == self_) return;
  auto& slot = overheard_[(p.source * 31 + p.identification) % kOverheardFilterSize];
  if (slot == std::pair{p.source, p.identification}) return;  // processed once already
  slot = {p.source, p.identification};
  if (!p.header.errors.empty()) process_errors(p);
  if (p.header.reply) snoop(replied_route(p), std::nullopt);
  snoop(route, at - 1);
  if (!p.carries_data()) return;  // no route shortening for DSR's own packets
  for (size_t i = at + 1; i < route.size(); ++i) {
    if (route[i] == self_) shorten_route(route, at, i);
  }
}

void DsrAgent::shorten_route(const Path& route, size_t heard_at, size_t xmit_at) {
  const double now_s = host_.now_s();
  auto hold = std::find_if(grat_holds_.begin(), grat_holds_.end(), [&](const GratHold& g) { return g.route == route; });
  if (hold == grat_holds_.end()) {
    hold = grat_holds_.begin() + static_cast<std::ptrdiff_t>(next_grat_hold_);
    next_grat_hold_ = (next_grat_hold_ + 1) % grat_holds_.size();
    *hold = GratHold{route, now_s};
  } else if (now_s - hold->at_s < kGratHoldDownS) {
    return;
  }
  hold->at_s = now_s;
  Path shorter(route.begin(), route.begin() + static_cast<std::ptrdiff_t>(heard_at));
  shorter.insert(shorter.end(), route.begin() + static_cast<std::ptrdiff_t>(xmit_at), route.end());
  Path back{self_};
  for (size_t i = heard_at; i-- > 0;) back.push_back(route[i]);
  cache_.add(back);
  Packet reply = own_packet(route.front());
  reply.header.reply = RouteReply{Path(shorter.begin() + 1, shorter.end())};
  ++counters_.gratuitous_replies;
  send_along(std::move(reply), back, 0, 0, 0);
}

void DsrAgent::transmit_failed(Packet p) {
  if (p.header.request || !p.header.source_route) return;  // broadcasts are not retried
  const Path route = route_of(p);
  const size_t to_at = receiver_of(p);
  if (to_at < 1 || to_at >= route.size() || route[to_at - 1] != self_) return;
  const Address to = route[to_at];
  const Address tell = route.front();
  cache_.notice_dead(self_, to);
  undeliverable(p, to);
  for (Packet& queued : host_.take_queued(to)) undeliverable(std::move(queued), to);
  if (tell == self_ || p.header.errors.size() >= kMaxRouteErrors) return;
  Packet error = own_packet(tell);
  error.header.errors = p.header.errors;
  error.header.errors.push_back(RouteError{salvage_of(p), self_, tell, to});
  Path back(route.begin(), route.begin() + static_cast<std::ptrdiff_t>(to_at));
  back = reversed(std::move(back));
  ++counters_.route_errors;
  send_along(std::move(error), back, 0, 0, 0);
}

void DsrAgent::undeliverable(Packet p, Address broken_to) {
  if (p.source == self_) {  // this node's own packet: find it another route, or wait for one
    if (route_and_send(p) == Outcome::kWaiting) buffer(std::move(p));
    return;
  }
  const uint8_t salvage = salvage_of(p);
  if (salvage >= kMaxSalvage) {
    host_.drop(p, DropReason::kSalvageLimit);
    return;
  }
  if (std::optional<Path> other = cache_.find(p.destination)) {
    if (p.header.reply) {  // a reply listing the broken link, either way, is not passed on
      const Path replied = replied_route(p);
      for (size_t i = 0; i + 1 < replied.size(); ++i) {
        if ((replied[i] == self_ && replied[i + 1] == broken_to) ||
            (replied[i] == broken_to && replied[i + 1] == self_)) {
          p.header.reply.reset();
          break;
        }
      }
      if (!p.header.reply && !p.carries_data() && p.header.errors.empty()) {
        host_.drop(p, DropReason::kStaleReply);
        return;
      }
    }
    ++counters_.salvaged;
    send_along(std::move(p), *other, 0, 0, static_cast<uint8_t>(salvage + 1));
    return;
  }
  // No other route: wait for one here (a relay may send one non-propagating
  // request for it). Its route will start at this node, so it counts as salvaged.
  p.header.source_route->salvage = static_cast<uint8_t>(salvage + 1);
  ++counters_.salvaged;
  buffer(std::move(p));
}

void DsrAgent::deliver_once(Packet p) {
  const double now_s = host_.now_s();
  if (now_s - delivered_pruned_s_ > kDeliveredMemoryS) {
    std::erase_if(delivered_, [&](const auto& seen) { return now_s - seen.second > kDeliveredMemoryS; });
    delivered_pruned_s_ = now_s;
  }
  const auto [it, fresh] = delivered_.try_emplace({p.source, p.identification}, now_s);
  if (!fresh) {
    ++counters_.duplicates_suppressed;
    host_.drop(p, DropReason::kDuplicate);
    return;
  }
  host_.deliver(std::move(p));
}

void DsrAgent::buffer(Packet p) {
  if (std::optional<Packet> pushed_out = send_buffer_.put(std::move(p), host_.now_s())) {
    host_.drop(*pushed_out, DropReason::kSendBufferFull);
  }
}

double DsrAgent::check_send_buffer() {
  send_buffer_.sweep(
      host_.now_s(), [this](Packet&& expired) { host_.drop(expired, DropReason::kSendBufferTimeout); },
      [this](Packet& waiting) { return route_and_send(waiting) != Outcome::kWaiting; });
  return kSendBufferCheckS + host_.uniform_s(kSendBufferCheckS);
}

Packet DsrAgent::own_packet(Address destination) {
  Packet p;
  p.source = self_;
  p.destination = destination;
  p.identification = next_ip_id_++;
  p.ttl = kOwnPacketTtl;
  return p;
}

}  // namespace mantra::sim::dsr
