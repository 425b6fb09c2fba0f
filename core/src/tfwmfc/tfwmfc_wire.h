// TF-WMFC packet formats: data, the RTCP-style sender report and receiver
// report of the paper's §2.3 (RTP/RTCP's roles, mantra's byte layout). All
// fields big-endian; the loss-based comparison (tfrc-loss) uses the same.
//
// Data packet, 16 bytes + zero filler up to the packet size:
//   +---------------+---------------+-------------------------------+
//   |  type = 0x20  |   reserved    |        reserved (zero)        |
//   +---------------+---------------+-------------------------------+
//   |                        sequence number                        |
//   +---------------------------------------------------------------+
//   |             send timestamp, microseconds (64 bits)            |
//   +---------------------------------------------------------------+
//
// Sender report (every T), 12 bytes:
//   +---------------+-----------------------------------------------+
//   |  type = 0x21  |                reserved (zero)                |
//   +---------------+-----------------------------------------------+
//   |     t_s: the sender's clock when it made the report (64 bits, µs)
//   +---------------------------------------------------------------+
//
// Receiver report (every T), 32 bytes:
//   +---------------+---------------+-------------------------------+
//   |  type = 0x22  | flags: bit 0  |        reserved (zero)        |
//   |               | = t_s echoed  |                               |
//   +---------------+---------------+-------------------------------+
//   |   n_pkt: data packets received since the previous report      |
//   +---------------------------------------------------------------+
//   |   n_M: of those, the ones that arrived marked CE              |
//   +---------------------------------------------------------------+
//   |   n_lost: data packets lost since the previous report (RFC    |
//   |   3550 A.3: expected from the sequence numbers minus received)|
//   +---------------------------------------------------------------+
//   |   t_s: the latest sender report's timestamp (64 bits, µs)     |
//   +---------------------------------------------------------------+
//   |   t_d: how long the receiver held t_s before this report, µs  |
//   +---------------------------------------------------------------+
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "mantra/units.h"
#include "mantra/wire.h"

namespace mantra::tfwmfc {

constexpr size_t kDataHeaderBytes = 16;
constexpr size_t kSenderReportBytes = 12;
constexpr size_t kReceiverReportBytes = 32;

struct DataHeader {
  uint32_t seq = 0;
  Time timestamp;
};

struct SenderReport {
  Time t_s;
};

struct ReceiverReport {
  uint32_t n_pkt = 0;
  uint32_t n_marked = 0;
  uint32_t n_lost = 0;
  std::optional<Time> t_s;  // none until a sender report has arrived
  Duration t_d;
};

// Which of the three a datagram is; nullopt for anything else.
enum class Kind : uint8_t { kData, kSenderReport, kReceiverReport };
std::optional<Kind> peek_kind(std::span<const uint8_t> bytes);

// Encodes the header and pads with zeros up to `packet_bytes` in total.
std::vector<uint8_t> encode_data(const DataHeader& h, size_t packet_bytes);
DecodeResult<DataHeader> decode_data(std::span<const uint8_t> bytes);
std::vector<uint8_t> encode_sender_report(const SenderReport& r);
DecodeResult<SenderReport> decode_sender_report(std::span<const uint8_t> bytes);
std::vector<uint8_t> encode_receiver_report(const ReceiverReport& r);
DecodeResult<ReceiverReport> decode_receiver_report(std::span<const uint8_t> bytes);

}  // namespace mantra::tfwmfc
