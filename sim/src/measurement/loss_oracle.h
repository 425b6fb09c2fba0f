// The ground-truth loss oracle: for every data packet of a flow that never
// reaches its destination, the cause as ns-3 saw it (ADTFRC §III-D, the
// "global monitor" of its footnote 5). docs/result-schema.md states the rule:
//
//   dropped by an interface queue that was full ─────────────────► congestion
//   dropped by the MAC after its last retry, the next hop within
//     radio range, while an interface queue on the path it took
//     (the nodes that queued it, the dropping node included) held
//     more than half its capacity (contention on a loaded path) ──► congestion
//   dropped by the MAC after its last retry, the next hop within
//     radio range, the path's queues at most half full ───────────► channel error
//   dropped by the per-packet channel error after the MAC ─────────► channel error
//   dropped by the MAC after its last retry, the next hop beyond
//     radio range (a broken link) ────────────────────────────────► route change
//   dropped by IP (no route, AODV's route-request buffer, TTL), by
//     ARP (neighbour unreachable) or by DSR ──────────────────────► route change
//   flushed from a queue after a MAC failure to its next hop
//     (link_failure_flush) ───────────────────────────────────────► route change
//   under either DSR (ours or dsr-ns3), declared lost but dropped at no traced site (DSR's
//     send and maintenance buffers drop without a trace) ─────────► route change
//   declared lost by the receiver but delivered later (reordered
//     across paths) ──────────────────────────────────────────────► route change
//
// Packets are recognised by the MeasurementTag (flow, sequence number) every
// mantra data packet carries; TCP flows are not followed.
#pragma once

#include <ns3/mac48-address.h>
#include <ns3/node-container.h>
#include <ns3/packet.h>
#include <ns3/queue-disc.h>

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "mantra/endpoint.h"
#include "spec/spec.h"

namespace mantra::sim {

enum class TrueCause : uint8_t { kCongestion, kChannelError, kRouteChange };

class LossOracle {
 public:
  // Hooks the traces of every node; call after the scenario is built.
  LossOracle(const Spec& spec, ns3::NodeContainer& nodes);

  void on_sent(uint32_t flow, int64_t seq);
  // Whether the packet took another path than the one delivered before it.
  bool on_delivered(uint32_t flow, int64_t seq);
  // A packet the link-failure flush removed at `node`.
  void on_flushed(uint32_t node, ns3::Ptr<const ns3::Packet> p);
  // A packet the per-packet channel error dropped at `node` (its receiver).
  void on_channel_error(uint32_t node, ns3::Ptr<const ns3::Packet> p);

  // How often a delivered packet of the flow took another path (the nodes
  // that queued it) than the one delivered before it: the route changes the
  // flow saw.
  int64_t path_changes(uint32_t flow) const;

  // The cause of a packet's loss; nullopt if it was neither dropped nor
  // delivered late (e.g. still queued when the run ended).
  std::optional<TrueCause> cause(uint32_t flow, int64_t seq) const;

  // {"cong": n, "cherr": n, "rtchg": n}: the flow's packets dropped per cause.
  nlohmann::json drop_causes(uint32_t flow) const;

 private:
  enum Status : uint8_t { kUnknown = 0, kDelivered = 1, kDropped = 2 };
  struct FlowRecord {
    std::vector<uint8_t> status;      // by sequence number
    std::vector<TrueCause> dropped;   // by sequence number, where status == kDropped
    std::vector<uint32_t> last_path;  // of the last packet delivered
    int64_t path_changes = 0;
  };
  struct Hook {  // what a trace callback is bound to
    LossOracle* oracle;
    uint32_t node;
  };
  static uint64_t key(uint32_t flow, int64_t seq) {
    return (static_cast<uint64_t>(flow) << 40) | static_cast<uint64_t>(seq);
  }

  void hook_node(uint32_t node);
  void hook_wifi(const std::vector<ns3::Ptr<ns3::NetDevice>>& devices);
  void on_enqueue(uint32_t node, ns3::Ptr<const ns3::Packet> p);
  // Where a drop happened: only a MAC loss on a loaded path is contention.
  enum class Origin : uint8_t { kMac, kAboveMac };
  void on_drop(uint32_t node, ns3::Ptr<const ns3::Packet> p, TrueCause cause, Origin origin = Origin::kAboveMac);
  bool path_congested(uint64_t k, uint32_t node) const;
  bool queue_above_half(uint32_t node) const;

  double rx_range_m_;
  bool silent_losses_in_routing_;  // DSR: an untraced loss was in its buffers
  ns3::NodeContainer nodes_;
  std::vector<std::vector<ns3::Ptr<ns3::QueueDisc>>> queues_;  // interface queues per node
  std::vector<Hook> hooks_;                                    // one per node, never resized after the constructor
  std::map<ns3::Mac48Address, uint32_t> mac_owner_;            // the node behind each Wi-Fi MAC
  std::unordered_map<uint64_t, std::vector<uint32_t>> paths_;  // in-flight packet -> nodes that queued it
  std::unordered_map<uint32_t, FlowRecord> flows_;
};

// Scores a receiver's loss verdicts against the oracle: for the rule the
// receiver acted on and for every rule reported, the losses,
// those with a known cause, the inaccurate ratio (congestion identified as
// non-congestion or the reverse), the incompatible ratio (true congestion
// identified as something else) and the confusion matrix identified -> true.
nlohmann::json score_detection(const std::vector<mantra::LossVerdict>& verdicts, const LossOracle& oracle,
                               uint32_t flow);

}  // namespace mantra::sim
