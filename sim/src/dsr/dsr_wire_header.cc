#include "dsr/dsr_wire_header.h"

#include <vector>

namespace mantra::sim::dsr {

ns3::TypeId DsrWireHeader::GetTypeId() {
  static ns3::TypeId tid =
      ns3::TypeId("mantra::DsrWireHeader").SetParent<ns3::Header>().AddConstructor<DsrWireHeader>();
  return tid;
}

void DsrWireHeader::Serialize(ns3::Buffer::Iterator start) const {
  const std::vector<uint8_t> bytes = encode(header_);
  start.Write(bytes.data(), static_cast<uint32_t>(bytes.size()));
}

uint32_t DsrWireHeader::Deserialize(ns3::Buffer::Iterator start) {
  // The fixed part says how many option bytes follow.
  const uint32_t available = start.GetRemainingSize();
  std::vector<uint8_t> bytes(std::min<uint32_t>(available, 4));
  ns3::Buffer::Iterator at = start;
  at.Read(bytes.data(), static_cast<uint32_t>(bytes.size()));
  if (bytes.size() == 4) {
    const uint32_t total = std::min<uint32_t>(available, 4 + (static_cast<uint32_t>(bytes[2]) << 8 | bytes[3]));
    bytes.resize(total);
    start.Read(bytes.data(), total);
  }
  const Decoded d = decode(bytes);
  header_ = d.header.value_or(DsrHeader{});
  error_ = d.header ? "" : d.error;
  return d.header ? static_cast<uint32_t>(d.consumed) : 0;
}

void DsrWireHeader::Print(std::ostream& os) const {
  os << "dsr next=" << int(header_.next_header) << " bytes=" << header_.size_bytes();
  if (header_.request) os << " rreq id=" << header_.request->identification;
  if (header_.reply) os << " rrep hops=" << header_.reply->route.size();
  if (!header_.errors.empty()) os << " rerr=" << header_.errors.size();
  if (header_.source_route) os << " sr left=" << int(header_.source_route->segments_left);
}

}  // namespace mantra::sim::dsr
