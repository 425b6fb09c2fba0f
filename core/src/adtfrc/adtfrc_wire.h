// ADTFRC's additions to TFRC's packets (Fu, Meng, Lu, §IV): the state bits
// carried in an option of the feedback packet, and the probe packet the
// sender sends while it believes the path is disconnected.
//
// Feedback state option (TLV in a TFRC feedback packet, common/options.h):
//   +---------------+---------------+-+-----------+---+
//   |  type = 0xA1  |  length = 1   |U| reserved  | S |
//   +---------------+---------------+-+-----------+---+
//   S (2 bits): 0 NORMAL, 1 CONG, 2 RTCHG, 3 CHERR, the state the receiver
//   identified at the last data packet; U: urgent (sent at once because a
//   loss was seen in CONG). The feedback's p field carries the congestion
//   frequency, computed from losses seen in CONG only. A plain TFRC sender
//   skips the option.
//
// Probe packet, 20 bytes (no payload, no data sequence number, so a lost
// probe is not a loss of media data):
//    0                   1                   2                   3
//    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//   +---------------+---------------+-------------------------------+
//   |  type = 0x12  |   reserved    |         reserved (zero)       |
//   +---------------+---------------+-------------------------------+
//   |                 probe number (from 1 per probing spell)       |
//   +---------------------------------------------------------------+
//   |             send timestamp, microseconds (64 bits)            |
//   +---------------------------------------------------------------+
//   |          sender's RTT estimate, microseconds (0 = none)       |
//   +---------------------------------------------------------------+
// An ADTFRC receiver answers a probe with a feedback packet at once, echoing
// the probe's timestamp; a plain TFRC receiver rejects it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "adtfrc/network_state.h"
#include "common/options.h"
#include "mantra/units.h"
#include "mantra/wire.h"

namespace mantra::adtfrc {

constexpr uint8_t kStateOptionType = 0xA1;
constexpr size_t kProbeBytes = 20;

struct StateReport {
  NetworkState state = NetworkState::kNormal;
  bool urgent = false;
};

WireOption encode_state_option(const StateReport& report);
// The state report among `options`, if there is one; malformed -> nullopt.
std::optional<StateReport> find_state_option(const std::vector<WireOption>& options);

struct Probe {
  uint32_t number = 0;
  Time timestamp;
  Duration sender_rtt;
};

std::vector<uint8_t> encode_probe(const Probe& p);
DecodeResult<Probe> decode_probe(std::span<const uint8_t> bytes);

}  // namespace mantra::adtfrc
