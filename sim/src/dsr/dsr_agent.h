// DSR (`routing: dsr`): one node's Dynamic Source Routing agent, written as
// ns-2's CMU DSR agent behaved (dsr/dsragent.cc, ns-2.35, the DSR of the
// papers and of Broch et al.), without its flow-state extension, and with no
// I/O of its own: the node (DsrHost, dsr/dsr_routing.h in the simulator)
// gives it packets and the MAC's failures, and sends what it asks.
//
//   from the transport ─► cache has a route? ─ yes ─► send along it
//                                └─ no ─► send buffer (64 pkts, 30 s) + discovery
//   discovery: non-propagating request (IP TTL 1) ─30 ms─► propagating request;
//              the next discovery 0.5 s x 4^n later (at most 10 s), n reset by a reply
//   request heard: copy or on its route ─► ignore
//                  target ─► reply along the reversed route (every copy, 0-10 ms jitter)
//                  cache has the rest ─► reply from the cache (switch `reply_from_cache`)
//                  TTL 1 ─► stop;  else ─► add self, rebroadcast (0-10 ms jitter)
//   reply received ─► primary cache; send what waits for it (30 ms apart)
//   forwarded or overheard source route ─► secondary cache
//   overheard packet that will reach this node later ─► gratuitous reply with the
//              shorter route to its originator (once a second per route)
//   MAC retry limit on a link ─► cut the link from the cache; salvage the
//              packet and every packet queued for that neighbour (another
//              cached route, at most 15 times; a relay without one buffers it
//              and may try one non-propagating request); route error to the
//              route's first node, whose cache drops the link; the error also
//              rides on this node's next request (for 1 s)
//   packet for this node ─► delivered once (a copy with the same IP source
//              and identification is dropped)
//
// Constants and their ns-2 sources, and where it departs from ns-2: README.md here.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "dsr/dsr_packet.h"
#include "dsr/path_cache.h"
#include "dsr/request_table.h"
#include "dsr/send_buffer.h"

namespace mantra::sim::dsr {

enum class DropReason {
  kSendBufferTimeout,  // waited 30 s for a route
  kSendBufferFull,     // pushed out by a newer packet
  kNoRoute,            // a relay found no route to salvage it (after its one request)
  kSalvageLimit,       // salvaged 15 times already
  kTtl,                // IP TTL ran out
  kDuplicate,          // delivered once already
  kMalformed,          // a source route that does not name this node where it should
  kStaleReply,         // a route reply through the link that just broke, with nothing else aboard
};
inline constexpr size_t kDropReasons = static_cast<size_t>(DropReason::kStaleReply) + 1;

// What the agent needs of its node.
class DsrHost {
 public:
  virtual ~DsrHost() = default;
  virtual double now_s() const = 0;
  virtual double uniform_s(double max_s) = 0;  // for jitter: uniform in [0, max_s)
  // Sends `p` to `next_hop` (kBroadcast for a request) after `delay_s`.
  virtual void transmit(Packet p, Address next_hop, double delay_s) = 0;
  virtual void deliver(Packet p) = 0;  // to the transport
  virtual void drop(const Packet& p, DropReason why) = 0;
  // Removes and returns every packet the interface queue holds for `next_hop`.
  virtual std::vector<Packet> take_queued(Address next_hop) = 0;
};

struct DsrOptions {
  // ns-2's dsragent_ring_zero_search and dsragent_reply_from_cache_on_propagating
  // together: on, a discovery starts with a non-propagating request and any
  // node with a cached route answers; off, only the target answers.
  bool reply_from_cache = true;
};

struct DsrCounters {
  // Transmissions of DSR's own packets (every hop), by the first option they
  // carry, and their bytes (IP header included).
  int64_t requests_sent = 0, replies_sent = 0, errors_sent = 0;
  int64_t request_bytes = 0, reply_bytes = 0, error_bytes = 0;
  int64_t data_header_bytes = 0;  // DSR header bytes on data transmissions
  int64_t discoveries = 0;        // discoveries started by this node
  int64_t propagating_requests = 0;
  int64_t route_errors = 0;  // route errors this node originated
  int64_t cache_replies = 0, gratuitous_replies = 0;
  int64_t salvaged = 0;
  int64_t duplicates_suppressed = 0;

  DsrCounters& operator+=(const DsrCounters& o);  // sums over nodes (dsr_report.cc)
};

class DsrAgent {
 public:
  static constexpr double kSendBufferCheckS = 0.03;     // BUFFER_CHECK
  static constexpr double kRequestJitterS = 0.010;      // RREQ_JITTER
  static constexpr double kRingZeroTimeoutS = 0.03;     // arp_timeout
  static constexpr double kReplySpacingS = 0.03;        // arp_timeout, between packets a reply releases
  static constexpr double kGratHoldDownS = 1.0;         // grat_hold_down_time
  static constexpr size_t kGratHoldLines = 10;          // RTREP_HOLDOFF_SIZE
  static constexpr double kErrorHoldS = 1.0;            // max_err_hold
  static constexpr int kSalvageMaxRequests = 1;         // dsr_salvage_max_requests
  static constexpr uint8_t kOwnPacketTtl = 255;         // DSR's own packets
  static constexpr size_t kOverheardFilterSize = 1024;  // TAP_CACHE_SIZE
  static constexpr double kDeliveredMemoryS = 60.0;

  DsrAgent(Address self, DsrHost& host, DsrOptions options = {});

  // A packet from this node's transport: source, destination, TTL, the
  // header's next_header and the payload are set.
  void send(Packet p);
  // A packet addressed to this node's MAC, or broadcast.
  void receive(Packet p);
  // A unicast packet for another node, heard promiscuously.
  void overhear(const Packet& p);
  // The MAC gave up on `p` (its retry limit) on the way to its next hop.
  void transmit_failed(Packet p);
  // Goes through the send buffer; returns when to call again (30-60 ms).
  double check_send_buffer();

  Address self() const { return self_; }
  const DsrCounters& counters() const { return counters_; }
  const PathCache& cache() const { return cache_; }
  size_t waiting() const { return send_buffer_.size(); }

 private:
  struct HeldError {
    Address from = 0, to = 0;
    double at_s = -1;
    bool held = false;
  };
  struct GratHold {
    Path route;
    double at_s = 0;
  };

  enum class Outcome { kSent, kWaiting, kDropped };

  // ns-2's handlePktWithoutSR: send along a cached route (the packet is moved
  // out), or start or continue a discovery for it (kWaiting: still here).
  Outcome route_and_send(Packet& p);
  bool seek_route(const Packet& p);  // false: dropped
  void send_request(Address target, bool propagating);
  void send_along(Packet p, const Path& route, size_t at, double delay_s, uint8_t salvage);
  void transmit(Packet p, Address next_hop, double delay_s);

  void receive_for_me(Packet p);
  void handle_request(Packet p);
  bool reply_from_cache(const Packet& request);
  void reply_to_requester(const Packet& request);
  void accept_reply(const Packet& p);
  // A relay's part: `route` and `at` (this node's place in it) as receive read them.
  void forward(Packet p, const Path& route, size_t at);
  // Learns the part of `route` after this node, or, if it is not on it, the
  // route from the node that sent at `transmitter` (overheard: a link assumed).
  void snoop(const Path& route, std::optional<size_t> transmitter);
  void process_errors(const Packet& p);
  void shorten_route(const Path& route, size_t heard_at, size_t xmit_at);
  void undeliverable(Packet p, Address broken_to);
  void deliver_once(Packet p);
  void buffer(Packet p);
  Packet own_packet(Address destination);

  Address self_;
  DsrHost& host_;
  DsrOptions options_;
  PathCache cache_;
  RequestTable requests_;
  SendBuffer send_buffer_;
  uint16_t next_request_id_ = 1;
  uint16_t next_ip_id_ = 0;
  HeldError held_error_;
  std::vector<GratHold> grat_holds_ = std::vector<GratHold>(kGratHoldLines);
  size_t next_grat_hold_ = 0;
  std::vector<std::pair<Address, uint16_t>> overheard_ =
      std::vector<std::pair<Address, uint16_t>>(kOverheardFilterSize, {0, 0});
  std::map<std::pair<Address, uint16_t>, double> delivered_;  // (IP source, identification) -> when
  double delivered_pruned_s_ = 0;
  DsrCounters counters_;
};

}  // namespace mantra::sim::dsr
