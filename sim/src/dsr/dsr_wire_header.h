// The DSR header (dsr/dsr_header.h) as an ns-3 header, so that its bytes ride
// in the simulated packet between the IP header and the transport's.
#pragma once

#include <ns3/header.h>

#include <string>

#include "dsr/dsr_header.h"

namespace mantra::sim::dsr {

class DsrWireHeader : public ns3::Header {
 public:
  static ns3::TypeId GetTypeId();
  ns3::TypeId GetInstanceTypeId() const override { return GetTypeId(); }

  DsrWireHeader() = default;
  explicit DsrWireHeader(DsrHeader header) : header_(std::move(header)) {}

  uint32_t GetSerializedSize() const override { return static_cast<uint32_t>(header_.size_bytes()); }
  void Serialize(ns3::Buffer::Iterator start) const override;
  // Reads what the codec accepts; bytes it refuses leave error() set and an
  // empty header (the caller drops the packet).
  uint32_t Deserialize(ns3::Buffer::Iterator start) override;
  void Print(std::ostream& os) const override;

  const DsrHeader& header() const { return header_; }
  const std::string& error() const { return error_; }

 private:
  DsrHeader header_;
  std::string error_;
};

}  // namespace mantra::sim::dsr
