// LATP packet formats (paper Fig. 6), big-endian, bit by bit.
//
// Data packet: the paper's 12-byte LATP header, then the 4-byte rate
// feedback R that the paper carries in an IP option. Here it is a field of
// the LATP packet itself, which every node rewrites on egress (R = min(R, P)),
// so no IP option is needed on any stack. Then the payload (zeros).
//
//    0                   1                   2                   3
//    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//   +-------------------------------+-------------------------------+
//   |          source port          |       destination port        |  0
//   +-----------------------------------------------+-------+-+-----+
//   |             sequence number (24)              |  PT   |U| Res |  4
//   +-------------------------------+---------------+-------+-+-----+
//   |      time stamp (16, ms)      |        RTT (16, ms)           |  8
//   +-------------------------------+-------------------------------+
//   |        rate feedback R, signed 32, bytes/s (was the IP option) | 12
//   +---------------------------------------------------------------+
//
// Feedback packet, 20 bytes:
//
//   +-------------------------------+-------------------------------+
//   |          source port          |       destination port        |  0
//   +-----------------------------------------------+-------+-+-----+
//   |               feedback ID (24)                |  PT   |L| Res |  4
//   +-------------------------------+---------------+-------+-+-----+
//   |   time stamp echo (16, ms)    |    time elapsed (16, ms)      |  8
//   +-------------------------------+-------------------------------+
//   |        rate feedback R_avg, signed 32, bytes/s                | 12
//   +---------------------------------------------------------------+
//   |        receive rate s, unsigned 32, bytes/s                   | 16
//   +---------------------------------------------------------------+
//
// PT (4 bits): 1 data, 2 feedback. The paper reserves further types for
// connection set-up and tear-down; mantra's flows start and stop with the
// run, so other values are rejected. U (urgent): the sender asks for
// immediate feedback. L (loss detected): the receiver found a new loss.
// R and R_avg are signed: P is negative when the busyness exceeds B_TH.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "mantra/wire.h"

namespace mantra::latp {

constexpr size_t kDataHeaderBytes = 16;  // 12 of the paper's header + 4 of R
constexpr size_t kFeedbackBytes = 20;
constexpr size_t kRateFieldOffset = 12;
constexpr uint32_t kSeqMask = 0xFFFFFF;      // 24-bit sequence numbers
constexpr int32_t kNoRateLimit = INT32_MAX;  // R as the sender writes it

enum class LatpType : uint8_t { kData = 1, kFeedback = 2 };

struct DataHeader {
  uint16_t src_port = 0;
  uint16_t dst_port = 0;
  uint32_t seq = 0;  // 24 bits
  bool urgent = false;
  uint16_t timestamp_ms = 0;
  uint16_t rtt_ms = 0;
  int32_t rate_feedback_Bps = kNoRateLimit;
};

struct Feedback {
  uint16_t src_port = 0;
  uint16_t dst_port = 0;
  uint32_t feedback_id = 0;  // 24 bits: the last sequence number received
  bool loss_detected = false;
  uint16_t timestamp_echo_ms = 0;
  uint16_t elapsed_ms = 0;
  int32_t rate_feedback_Bps = 0;
  uint32_t receive_rate_Bps = 0;
  // Not the paper's: the receiver's loss event rate over every loss for the
  // sender's safety floor, in parts per 10^9 (common/floor_report.h), as 4
  // bytes after the 20 when the receiver's floor_report is on.
  std::optional<uint32_t> floor_loss_ppb;
};

// Writes the header, then zeros up to `packet_bytes` (>= kDataHeaderBytes).
void encode_data(const DataHeader& h, size_t packet_bytes, std::vector<uint8_t>& out);
std::vector<uint8_t> encode_feedback(const Feedback& f);
DecodeResult<DataHeader> decode_data(std::span<const uint8_t> bytes);
DecodeResult<Feedback> decode_feedback(std::span<const uint8_t> bytes);

// Extends a 24-bit sequence number to the 64-bit one nearest `highest`
// (the highest extended so far; -1: none yet, the number as it is).
int64_t extend_sequence(uint32_t wire, int64_t highest);

// The packet type of an LATP datagram; nullopt when too short to hold one.
std::optional<LatpType> peek_type(std::span<const uint8_t> bytes);

// What a node does to an LATP data packet on egress: R = min(R, P). Returns
// true if the field changed; other packets (feedback, too short, not LATP
// data) are left untouched and return false. P is clamped to int32.
bool stamp_rate_feedback(std::span<uint8_t> bytes, double permissible_Bps);

}  // namespace mantra::latp
