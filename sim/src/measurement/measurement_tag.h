// The measurement that rides beside a core protocol's data packet: its send
// time, flow, sequence number and application id (a video's frame and chunk),
// in an ns-3 packet tag, for the receiving app's metrics, the loss oracle and
// the flow's media log. Only data packets carry it, so its
// presence marks data; the protocol's bytes are never parsed for it.
#pragma once

#include <ns3/tag.h>

#include <cstdint>

namespace mantra::sim {

class MeasurementTag : public ns3::Tag {
 public:
  static ns3::TypeId GetTypeId();
  ns3::TypeId GetInstanceTypeId() const override;
  uint32_t GetSerializedSize() const override { return 28; }
  void Serialize(ns3::TagBuffer buf) const override;
  void Deserialize(ns3::TagBuffer buf) override;
  void Print(std::ostream& os) const override;

  int64_t sent_ns = 0;
  uint32_t flow = 0;    // index of the flow in the run spec
  int64_t seq = -1;     // the protocol's data sequence number; -1: none
  int64_t app_id = -1;  // the application's id of the data (mantra::Datagram::app_id); -1: none
};

}  // namespace mantra::sim
