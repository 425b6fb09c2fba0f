// Marks a TCP flow's segments in the simulation: which flow (its place in the
// run spec) and whether the segment is a freeze probe. A byte tag, so it
// survives TCP's cutting of the application's bytes into segments and the
// MAC's framing. The ELFN notifier reads the flow of a dropped frame from it
// (information the frame's IP and TCP headers hold; under DSR they sit
// behind DSR's own header), and the sink leaves probes out of the data it
// measures.
#pragma once

#include <ns3/tag.h>

#include <cstdint>

namespace mantra::sim {

class TcpFlowTag : public ns3::Tag {
 public:
  static ns3::TypeId GetTypeId();
  ns3::TypeId GetInstanceTypeId() const override;
  uint32_t GetSerializedSize() const override { return 5; }
  void Serialize(ns3::TagBuffer buf) const override;
  void Deserialize(ns3::TagBuffer buf) override;
  void Print(std::ostream& os) const override;

  uint32_t flow = 0;
  bool probe = false;
};

}  // namespace mantra::sim
