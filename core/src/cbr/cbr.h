// Constant bit rate source and sink: the papers' UDP cross traffic.
//
// The sender emits one packet of `packet_size` bytes every packet_size/rate,
// with no feedback and no reaction to loss, each with the ECN codepoint
// asked for (none by default). The sink only counts, ECN marks included.
//
// Data packet, 16 bytes + zero filler up to the packet size:
//   +---------------+---------------+-------------------------------+
//   |  type = 0x01  |   reserved    |          reserved             |
//   +---------------+---------------+-------------------------------+
//   |                        sequence number                        |
//   +---------------------------------------------------------------+
//   |             send timestamp, microseconds (64 bits)            |
//   +---------------------------------------------------------------+
#pragma once

#include <optional>
#include <string>

#include "mantra/endpoint.h"
#include "mantra/params.h"
#include "mantra/wire.h"

namespace mantra::cbr {

constexpr size_t kHeaderBytes = 16;

struct CbrHeader {
  uint32_t seq = 0;
  Time timestamp;
};
DecodeResult<CbrHeader> decode(std::span<const uint8_t> bytes);

struct CbrConfig {
  int64_t packet_bytes = 1000;
  Rate rate = Rate::zero();  // required: no sensible default rate
  Ecn ecn = Ecn::kNotEct;    // the codepoint every packet asks for (`ecn`: 0 Not-ECT, 1 ECT(1), 2 ECT(0))
};

class CbrSender : public Sender {
 public:
  explicit CbrSender(CbrConfig config) : config_(config) {}
  static std::string parse(const Params& params, CbrConfig& out);

  void handle_datagram(Time, std::span<const uint8_t>, Ecn) override { ++stats_.datagrams_rejected; }
  void handle_timeout(Time) override {}
  std::optional<Datagram> poll_transmit(Time now) override;
  std::optional<Time> poll_timeout() const override;
  EndpointStats stats() const override { return stats_; }
  Rate allowed_rate() const override { return config_.rate; }

 private:
  CbrConfig config_;
  bool started_ = false;
  Time start_;
  uint32_t next_seq_ = 0;
  EndpointStats stats_;
};

class CbrReceiver : public Receiver {
 public:
  void handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) override;
  void handle_timeout(Time) override {}
  std::optional<Datagram> poll_transmit(Time) override { return std::nullopt; }
  std::optional<Time> poll_timeout() const override { return std::nullopt; }
  EndpointStats stats() const override { return stats_; }

 private:
  EndpointStats stats_;
};

}  // namespace mantra::cbr
