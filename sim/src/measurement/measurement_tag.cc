#include "measurement/measurement_tag.h"

namespace mantra::sim {

ns3::TypeId MeasurementTag::GetTypeId() {
  static ns3::TypeId tid = ns3::TypeId("mantra::MeasurementTag").SetParent<ns3::Tag>().AddConstructor<MeasurementTag>();
  return tid;
}
ns3::TypeId MeasurementTag::GetInstanceTypeId() const { return GetTypeId(); }
void MeasurementTag::Serialize(ns3::TagBuffer buf) const {
  buf.WriteU64(static_cast<uint64_t>(sent_ns));
  buf.WriteU32(flow);
  buf.WriteU64(static_cast<uint64_t>(seq));
  buf.WriteU64(static_cast<uint64_t>(app_id));
}
void MeasurementTag::Deserialize(ns3::TagBuffer buf) {
  sent_ns = static_cast<int64_t>(buf.ReadU64());
  flow = buf.ReadU32();
  seq = static_cast<int64_t>(buf.ReadU64());
  app_id = static_cast<int64_t>(buf.ReadU64());
}
void MeasurementTag::Print(std::ostream& os) const {
  os << "sent_ns=" << sent_ns << " flow=" << flow << " seq=" << seq << " app_id=" << app_id;
}

}  // namespace mantra::sim
