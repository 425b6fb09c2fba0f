// TFRC packet formats (RFC 5348 §3.2 contents, mantra's byte layout).
// All fields big-endian. Both packets may carry TLV options (common/options.h)
// that a plain TFRC endpoint skips.
//
// Data packet, 20 bytes + options + payload:
//    0                   1                   2                   3
//    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//   +---------------+---------------+-------------------------------+
//   |  type = 0x10  |  options len  |         reserved (zero)       |
//   +---------------+---------------+-------------------------------+
//   |                        sequence number                        |
//   +---------------------------------------------------------------+
//   |                  send timestamp, microseconds                 |
//   |                           (64 bits)                           |
//   +---------------------------------------------------------------+
//   |      sender's RTT estimate R_i, microseconds (0 = none yet)   |
//   +---------------------------------------------------------------+
//   |  options ...  |  payload, zero filler up to the packet size   |
//   +---------------------------------------------------------------+
//
// Feedback packet, 28 bytes + options:
//   +---------------+---------------+-------------------------------+
//   |  type = 0x11  |  options len  |         reserved (zero)       |
//   +---------------+---------------+-------------------------------+
//   |     t_recvdata: send timestamp of the last data packet        |
//   |                     received (64 bits, µs)                    |
//   +---------------------------------------------------------------+
//   |   t_delay: time from that packet's arrival to this report, µs |
//   +---------------------------------------------------------------+
//   |            X_recv: receive rate, bytes per second             |
//   +---------------------------------------------------------------+
//   |      p: loss event rate, parts per 10^9 (0 = no loss yet)     |
//   +---------------------------------------------------------------+
//   |              highest sequence number received                 |
//   +---------------------------------------------------------------+
//   |  options ...                                                  |
//   +---------------------------------------------------------------+
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/options.h"
#include "mantra/units.h"
#include "mantra/wire.h"

namespace mantra::tfrc {

constexpr size_t kDataHeaderBytes = 20;
constexpr size_t kFeedbackBytes = 28;
constexpr double kLossRateScale = 1e9;  // p is carried in parts per 10^9

struct DataHeader {
  uint32_t seq = 0;
  Time timestamp;
  Duration sender_rtt;  // zero when the sender has no estimate yet
  std::vector<WireOption> options;
};

struct Feedback {
  Time t_recvdata;
  Duration t_delay;
  uint32_t x_recv_bytes_per_s = 0;
  double p = 0.0;
  uint32_t highest_seq = 0;
  std::vector<WireOption> options;
};

// Encodes the header and pads with zeros up to `packet_bytes` in total.
std::vector<uint8_t> encode_data(const DataHeader& h, size_t packet_bytes);
DecodeResult<DataHeader> decode_data(std::span<const uint8_t> bytes);

std::vector<uint8_t> encode_feedback(const Feedback& f);
DecodeResult<Feedback> decode_feedback(std::span<const uint8_t> bytes);

}  // namespace mantra::tfrc
