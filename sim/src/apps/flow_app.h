// One side of a flow in the simulation: the ns-3 Application a flow kind
// installs on the flow's source or destination node (flow_kinds.h).
#pragma once

#include <ns3/application.h>
#include <ns3/ipv4-address.h>

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>

#include "measurement/flow_metrics.h"
#include "spec/spec.h"

namespace mantra::sim {

class LossOracle;
class ElfnNotices;
class MediaLog;

// Latest transmission time of each TCP sequence number, shared by a TCP
// flow's source and sink (the sink's delay measurement).
struct SegmentClock {
  std::map<uint32_t, int64_t> sent_ns;
};

// What a flow kind's apps are built with; the pointers outlive the run.
struct FlowContext {
  const FlowSpec& flow;
  uint32_t index = 0;              // the flow's place in the spec (and the loss oracle's flow number)
  uint16_t port = 0;               // the receiver's port
  ns3::Ipv4Address destination;    // the receiver's address
  FlowMetrics* metrics = nullptr;  // the flow's one measurement, fed by both sides
  LossOracle* oracle = nullptr;
  SegmentClock* clock = nullptr;  // TCP flows only
  ElfnNotices* elfn = nullptr;    // TCP flows with elfn
  MediaLog* media = nullptr;      // flows with media: the fate of each frame (media/media_log.h)
};

class FlowApp : public ns3::Application {
 public:
  // After the run: this side's diagnostics into the flow's metrics
  // ("sender" or "receiver"), and any further keys of the flow's result into
  // `extra` (merged into the flow's summary).
  virtual void report(FlowMetrics& metrics, nlohmann::json& extra) = 0;
};

}  // namespace mantra::sim
