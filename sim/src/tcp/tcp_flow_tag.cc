#include "tcp/tcp_flow_tag.h"

#include <ostream>

namespace mantra::sim {

ns3::TypeId TcpFlowTag::GetTypeId() {
  static ns3::TypeId tid = ns3::TypeId("mantra::sim::TcpFlowTag").SetParent<ns3::Tag>().AddConstructor<TcpFlowTag>();
  return tid;
}

ns3::TypeId TcpFlowTag::GetInstanceTypeId() const { return GetTypeId(); }

void TcpFlowTag::Serialize(ns3::TagBuffer buf) const {
  buf.WriteU32(flow);
  buf.WriteU8(probe ? 1 : 0);
}

void TcpFlowTag::Deserialize(ns3::TagBuffer buf) {
  flow = buf.ReadU32();
  probe = buf.ReadU8() != 0;
}

void TcpFlowTag::Print(std::ostream& os) const { os << "flow=" << flow << (probe ? " probe" : ""); }

}  // namespace mantra::sim
