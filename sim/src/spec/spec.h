// The run spec: everything one simulation needs, as data (docs/run-spec.md).
//
// parse_spec() checks every key strictly: an unknown key, a missing required
// field, a number outside its documented range (docs/run-spec.md, "Ranges"),
// src == dst, a node out of range, an unknown protocol or preset each raise
// SpecError naming the key, so mantra-sim can exit with status 2 and one clear
// line instead of running something else. read_spec_json() and parse_spec()
// throw nothing else: no bad input can abort, hang or overflow the simulator.
//
// This file, spec.cc, spec_values.cc and message_text.cc use the core and
// nlohmann only, never ns-3, so the spec fuzzer (sim/fuzz/) builds without it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mantra/params.h"
#include "spec/media_spec.h"
#include "tcp/rsc_var_machine.h"

namespace mantra::sim {

// "key: what" (or "what" alone for the spec as a whole), on one line: control
// characters are escaped and user text is cut short, so the message printed is
// always exactly one line of valid UTF-8.
class SpecError : public std::runtime_error {
 public:
  SpecError(const std::string& key, const std::string& what);
  // The key the error is about ("flows[0].rate"; empty when about the
  // whole spec), and what is wrong with it, each on one line.
  const std::string& key() const { return key_; }
  const std::string& message() const { return message_; }

 private:
  std::string key_, message_;
};

// A queue disc (docs/run-spec.md, "Queues"): drop-tail of `limit` packets,
// or RED with ECN marking. RED's unset numbers (< 0) take the TF-WMFC paper's
// Table 1 at the link's rate C in Mb/s: limit 400C/16, min_th 5C/16, max_th
// 50C/16 packets.
struct QueueSpec {
  bool red = false;
  int limit = -1;         // packets; drop-tail default 50
  double min_th = -1;     // red: packets
  double max_th = -1;     // red: packets
  double max_p = 1.0;     // red: marking probability at max_th (Table 1)
  double w_q = 0.002;     // red: weight of the average (Table 1)
  bool gentle = true;     // red: probability rises to 1 between max_th and 2 max_th (ns-3's default)
  bool hard_drop = true;  // red: drop, never mark, where the average forces it (ns-3's default)
  bool ecn = true;        // red: mark ECN-capable packets instead of dropping them
  int limit_or(int fallback) const { return limit > 0 ? limit : fallback; }
};

// ns-2 sent broadcast frames at the MAC's bandwidth_, 2 Mb/s in every MANET paper here.
inline constexpr int64_t kNs2BroadcastBps = 2'000'000;

struct RadioSpec {
  std::string preset = "ns2-80211b";
  double rx_range_m = 250;  // decode range
  double cs_range_m = 550;  // carrier-sense range
  QueueSpec queue;          // interface queue: drop-tail of 50 packets (ns-2's IFQ)
  bool rts = true;          // RTS/CTS before every unicast frame
  // Routing packets at the head of the interface queue, ns-2's PriQueue
  // (network/pri_queue_disc.h); off with a RED queue (parse_radio), which
  // ns-2's PriQueue never was.
  bool routing_first = true;
  // Broadcast frames' DSSS rate (route requests, ARP): the papers' ns-2,
  // 2 Mb/s (ns-3's own is 1 Mb/s, its lowest basic rate).
  int64_t broadcast_bps = kNs2BroadcastBps;
  int short_retry = 7;  // ns-2 ShortRetryLimit_
  int long_retry = 4;   // ns-2 LongRetryLimit_
};

// Channel error on the radio (docs/run-spec.md, "channel_error"): where it
// hits, how often, and on which links.
struct ChannelErrorSpec {
  std::string placement = "frame";         // frame | packet | bursty
  double rate = 0.0;                       // frame, packet: per-frame / per-packet probability; bursty: time share bad
  double burst_s = 0.1;                    // bursty: mean length of a bad period
  std::vector<std::pair<int, int>> links;  // [a, b]: both directions of that link; empty: every link
  bool on() const { return rate > 0; }
};

enum class TopologyKind { kChain, kP2p, kManet, kPositions, kGrid, kDumbbell };

struct TopologySpec {
  TopologyKind kind = TopologyKind::kChain;
  int hops = 1;                                      // chain, p2p
  double spacing_m = 200;                            // chain, grid
  int rows = 0, cols = 0;                            // grid: node r*cols + c stands at (c, r) * spacing
  int nodes = 0;                                     // manet
  double width_m = 0, height_m = 0;                  // manet
  std::vector<std::pair<double, double>> positions;  // positions; manet: nodes 0..k-1 held fixed
  // p2p: a wired line of `hops` links; dumbbell: the bottleneck between its routers
  int64_t bandwidth_bps = 0;
  double delay_s = 0;
  double loss = 0;
  QueueSpec queue;  // p2p, dumbbell bottleneck
  // chain: a wired point-to-point link in front of the chain (RSC-VAR Fig. 5):
  // node 0 is a wired host, node 1 the chain's first node (and the gateway)
  bool wired_head = false;
  int64_t head_bandwidth_bps = 0;
  double head_delay_s = 0;
  QueueSpec head_queue;
  // dumbbell: each flow has its own sender and receiver host, each on an
  // access link to the left and right router (nodes 0 and 1)
  int pairs = 0;                     // host pairs: the number of flows
  int64_t access_bandwidth_bps = 0;  // default 10x the bottleneck
  double access_delay_s = 0.001;
  // dumbbell: router 1 reaches the receivers of `wireless` flows over an
  // 802.11 segment of radio_hops hops (0: none), radio_spacing_m apart: a
  // gateway on an access link to router 1, radio_hops - 1 relays, and the
  // wireless receivers together at the segment's far end
  int radio_hops = 0;
  double radio_spacing_m = 200;
  int gateway() const { return 2 + 2 * pairs; }  // dumbbell with a radio segment: then its relays
  bool wired() const { return kind == TopologyKind::kP2p || kind == TopologyKind::kDumbbell; }
  bool has_radio() const { return !wired() || radio_hops > 0; }
  int node_count() const;
};

struct Waypoint {
  double t_s = 0, x_m = 0, y_m = 0;
};

struct MobilitySpec {
  std::string model = "static";         // static | rwp | setdest | waypoints | ns2
  double min_speed = 0, max_speed = 0;  // rwp: m/s, equal for a constant speed; setdest: max only
  double pause_s = 0;                   // rwp, setdest
  // waypoints: node -> its waypoints in time order; it moves in a straight
  // line from each to the next, stands at the first before it and at the last after.
  std::map<int, std::vector<Waypoint>> waypoints;
  // ns2: an ns-2 movement file (ns2_movement.h), replayed by ns-3's
  // Ns2MobilityHelper; the nodes it names move, the others keep their places.
  std::string ns2_file;
  std::vector<int> ns2_nodes;
  // Whether node `i` moves by a script (waypoints or an ns-2 file).
  bool scripted(int node) const;
};

// What a TCP flow's sender takes beyond its kind (docs/run-spec.md, "TCP flows").
struct TcpFlowSpec {
  bool elfn = false;                     // reno, newreno: freeze on link-failure notices
  bool limited_transmit = true;          // RFC 3042 (ns-2's singledup_); freeze-probing: always off
  double frozen_timer_s = 2.0;           // freeze-probing: T_frozen
  double probe_interval_s = 2.0;         // freeze-probing, elfn: T_probe
  std::string halve_on_resume = "both";  // freeze-probing: both | after_probing
  double min_rto_s = 0.2;                // ns-3's MinRto
  double clock_granularity_s = 0.001;    // ns-3's ClockGranularity (ns-2's tcpTick_)
  RscVarConfig rsc_var;                  // receiver rsc-var: Table 1 and the readings
};

struct FlowSpec {
  std::string protocol;  // the sender's flow kind (flow_kinds.h): a core protocol (tfrc, cbr, ...) or a TCP variant
  std::string receiver;  // the receiver's flow kind; empty: the sender kind's own
  int src = 0, dst = 0;  // -1 for both: a random pair, drawn when the network is built
  int min_hops = 0;      // random pair: at least this many hops apart at t = 0
  bool random_pair() const { return src < 0; }
  double start_s = 0, stop_s = 0;  // `start: {uniform: ...}`: the drawn start (flow_draws.h)
  int packet_size = 1000;
  int64_t rate_bps = 0;            // cbr
  double interval_jitter = 0;      // cbr: each gap uniform in [1 - j, 1 + j) x nominal (ns-2's random_: 0.5)
  uint64_t jitter_seed = 0;        // cbr with interval_jitter: drawn per copy from the run's seed (flow_draws.h)
  std::string group;               // the flow's group in the result (default: its protocol)
  double access_loss = 0;          // dumbbell: per-packet loss on the last hop to the receiver
  bool wireless = false;           // dumbbell with a radio segment: the receiver is at its far end
  bool ecn = false;                // TCP kinds: ECN-capable (RFC 3168), both ends
  int max_window = 20;             // TCP kinds, packets (ns-2 window_)
  int receive_buffer = 0;          // TCP kinds, packets of the sink's receive buffer; 0: ns-3's default (128 KiB)
  TcpFlowSpec tcp;                 // TCP kinds
  mantra::Params params;           // passed to the core sender (with packet_size, rate)
  mantra::Params receiver_params;  // passed to the core receiver
  // The video the flow carries (media_spec.h); none: the transport's own
  // source (greedy TCP, the core sender's source).
  std::shared_ptr<const MediaSpec> media;
  // params with the flow's own keys: packet_size, rate and interval_jitter
  // (cbr) and, with media, source_offered (the media app offers the packets).
  mantra::Params sender_params() const;
};

struct Spec {
  double duration_s = 0;
  uint64_t seed = 1;
  double interval_s = 1.0;            // series sampling
  double hop_sampling_s = 0;          // > 0: each flow's path length sampled this often (wireless)
  double smoothness_window_s = 10.0;  // LATP's smoothness period
  double measure_from_s = 0;          // per-flow metrics count [from, to] only
  double measure_to_s = 0;            // (defaults: 0 and duration)
  // Named windows of the run [from, to]: each flow group's mean rate is also
  // given per phase (flows joining and leaving, TF-WMFC Fig. 8).
  std::vector<std::pair<std::string, std::pair<double, double>>> phases;
  bool latp_agent = true;            // LATP node agents on every node (when a flow is latp, or mantra on a radio)
  mantra::Params latp_agent_params;  // core/src/latp/node_agent.h parameters
  RadioSpec radio;
  std::string routing = "aodv";     // aodv | dsr (ours) | aodv-ns3 | dsr-ns3 | oracle | static
  bool dsr_cache_replies = true;    // our DSR: intermediate nodes answer requests from their caches
  std::string arp = "ns2";          // ns2 | ns3: ARP's timers (network/scenario.cc, set_arp)
  bool link_failure_flush = false;  // ns-2's AODV: a MAC failure drops what is queued for that neighbour
  ChannelErrorSpec channel_error;   // wireless
  TopologySpec topology;
  MobilitySpec mobility;
  std::vector<FlowSpec> flows;
  nlohmann::json source;  // the spec as given, echoed in the result

  bool needs_latp_agents() const;
};

// The UDP port of flow `index` (both endpoints).
inline uint16_t flow_port(size_t index) { return static_cast<uint16_t>(5000 + index); }

// The largest spec text read_spec_json() takes, and the deepest nesting of
// objects and arrays (a valid spec nests 4 deep: topology.positions[i][j]).
inline constexpr size_t kMaxSpecBytes = 16 * 1024 * 1024;
inline constexpr int kMaxSpecDepth = 32;

// The spec's text as JSON. Raises SpecError for text over kMaxSpecBytes,
// nesting deeper than kMaxSpecDepth (checked while parsing, so no input can
// exhaust the stack), a number beyond double's range ("1e400") and malformed
// JSON ("malformed JSON: ...").
nlohmann::json read_spec_json(std::string_view text);

Spec parse_spec(const nlohmann::json& j);

// "200ms", "1.5s", 3 -> seconds; "180kbps", "2Mbps", 5e5 -> bit/s.
double parse_duration(const nlohmann::json& v, const std::string& key);
int64_t parse_rate(const nlohmann::json& v, const std::string& key);

}  // namespace mantra::sim
