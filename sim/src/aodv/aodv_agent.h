// AODV (`routing: aodv`, issue 28): one node's Ad hoc On-demand Distance
// Vector agent as ns-2.35's AODV ran it (aodv/aodv.cc, the AODV of Broch et
// al. and Das et al. and of the LATP paper): link-layer detection on, hellos
// off, local repair on; with no I/O of its own: the node (AodvHost) gives it
// packets, control messages and the MAC's failures, and sends what it asks.
//
//   data, route up ──► to the next hop; the route lives 10 s more
//   data, no route ──► source: request queue (64, 30 s) + discovery
//                      relay, route in repair: request queue
//                      relay, no route: route error (broadcast) and drop
//   discovery: a request network-wide (TTL 30; 5, 7, 30 once a route of known
//     length broke), retried after 2 x TTL x per-hop time x tries (at most
//     10 s) on the 0.5 s purge; after 4 network-wide tries the waiting
//     packets are dropped and no request leaves for 10 s
//   request heard: first copy only (originator, id: 6-12 s) ─► reverse route
//     destination ─► reply (its sequence number raised to even, above both)
//     route as fresh ─► reply from the table;  else ─► rebroadcast (0-10 ms)
//   reply ─► forward route if fresher or shorter; release the waiting packets
//     10 ms apart; passed on towards the originator only if it improved
//   MAC retry limit (or ARP) on a data packet:
//     travelled more hops than remain ─► local repair: hold the packet, route
//       in repair, a request; no reply by the request's timeout ─► route down,
//       its number + 1
//     else ─► drop it and everything queued for that neighbour, every route
//       through it down (sequence number + 1), one route error broadcast
//   route error from the next hop of a route (not fresher) ─► route down,
//     the interface queue to that neighbour dropped; passed on (broadcast,
//     TTL 1) for the routes that had precursors
//   purge every 0.5 s: idle routes (10 s) down silently, their packets dropped
//
// Constants and their ns-2 sources, and where it departs: README.md here.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "aodv/aodv_messages.h"
#include "aodv/data_packet.h"
#include "aodv/request_queue.h"
#include "aodv/route_table.h"

namespace mantra::sim::aodv {

enum class DropReason {
  kNoRoute,       // ns-2's NRTE: a relay without a route, a discovery given up, an idle route's packets
  kQueueFull,     // pushed out of the request queue by a newer packet
  kQueueTimeout,  // waited 30 s in the request queue
  kLinkBroken,    // ns-2's CBK: the MAC gave up on it, or it was queued for a neighbour that broke
};
inline constexpr size_t kDropReasons = static_cast<size_t>(DropReason::kLinkBroken) + 1;

// What the agent needs of its node.
class AodvHost {
 public:
  virtual ~AodvHost() = default;
  virtual double now_s() const = 0;
  virtual double uniform_s(double max_s) = 0;  // jitter: uniform in [0, max_s)
  // Sends an AODV message to `to` (a neighbour, or kBroadcast) with IP TTL `ttl` after `delay_s`.
  virtual void send_message(const Message& m, Address to, uint8_t ttl, double delay_s) = 0;
  // Sends a data packet on to `next_hop` after `delay_s`.
  virtual void forward(DataPacket p, Address next_hop, double delay_s) = 0;
  virtual void drop(const DataPacket& p, DropReason why) = 0;
  // Removes and returns every data packet the interface queue holds for `next_hop`.
  virtual std::vector<DataPacket> take_queued(Address next_hop) = 0;
};

struct AodvCounters {
  int64_t requests_sent = 0;    // originated (discoveries and their retries, repairs)
  int64_t requests_passed = 0;  // rebroadcast for others
  int64_t replies_sent = 0;     // originated: as the destination or from the table
  int64_t table_replies = 0;    // of those, from the table
  int64_t replies_passed = 0;
  int64_t replies_suppressed = 0;  // not passed on: this relay's route did not improve (ns-2's suppress_reply)
  int64_t replies_stranded = 0;    // not passed on: no route back to the originator, or no TTL left
  int64_t errors_sent = 0;         // originated or passed on
  int64_t local_repairs = 0;
  int64_t discoveries_given_up = 0;

  AodvCounters& operator+=(const AodvCounters& o);
};

class AodvAgent {
 public:
  static constexpr double kActiveRouteTimeoutS = 10.0;  // ACTIVE_ROUTE_TIMEOUT
  static constexpr double kMyRouteTimeoutS = 10.0;      // MY_ROUTE_TIMEOUT
  static constexpr double kReverseRouteLifeS = 6.0;     // REV_ROUTE_LIFE
  static constexpr double kRequestIdSaveS = 6.0;        // BCAST_ID_SAVE
  static constexpr int kRequestRetries = 3;             // RREQ_RETRIES (tested as "more than")
  static constexpr double kMaxRequestTimeoutS = 10.0;   // MAX_RREQ_TIMEOUT
  static constexpr int kTtlStart = 5, kTtlIncrement = 2, kTtlThreshold = 7;
  static constexpr uint8_t kNetworkDiameter = 30;  // NETWORK_DIAMETER
  static constexpr double kJitterS = 0.01;         // broadcast jitter
  static constexpr double kArpDelayS = 0.01;       // ARP_DELAY, between released packets
  static constexpr double kPurgePeriodS = 0.5;     // the route cache timer

  AodvAgent(Address self, AodvHost& host);

  // The next hop for a packet this node originates, if a route is up (its
  // lifetime is refreshed); otherwise nullopt, and the packet should come
  // back through route().
  std::optional<Address> route_output(Address destination);
  // A unicast data packet to route (originated here, or passing through).
  void route(DataPacket p);
  // An AODV message from neighbour `from`, with the IP TTL it arrived with.
  void receive(const Message& m, Address from, uint8_t ttl);
  // The MAC (retry limit) or ARP gave up sending `p` to `next_hop`.
  void link_failed(DataPacket p, Address next_hop);
  // The route cache timer; returns when to call again.
  double purge();

  Address self() const { return self_; }
  uint32_t seqno() const { return seqno_; }
  RouteTable& table() { return table_; }
  const AodvCounters& counters() const { return counters_; }
  size_t waiting() const { return queue_.size(); }

 private:
  void send_data(Route& route, DataPacket p, double delay_s);
  void send_request(Address destination);
  void release_waiting(Route& route, double spacing_s);
  void drop_waiting(Address destination);
  void handle_request(RouteRequest q, Address from, uint8_t ttl_left);
  void handle_reply(RouteReply r, Address from, uint8_t ttl_left);
  void handle_error(const RouteError& e, Address from);
  void neighbour_lost(Address neighbour);
  void local_repair(Route& route, DataPacket p);
  void drop_queued_for(Address neighbour);
  void send_error(RouteError e, double delay_s);
  void enqueue(DataPacket p);
  RequestQueue::Dropped dropped();

  Address self_;
  AodvHost& host_;
  uint32_t seqno_ = 2;  // ns-2 starts at 2 and keeps it even
  uint32_t request_id_ = 1;
  RouteTable table_;
  RequestQueue queue_;
  std::map<std::pair<Address, uint32_t>, double> seen_requests_;  // (originator, id) -> kept until
  double next_seen_purge_s_ = kRequestIdSaveS;
  AodvCounters counters_;
};

}  // namespace mantra::sim::aodv
