// AODV's control messages on the air (RFC 3561, section 5), written and read
// without ns-3 types so that the decoder can be fuzzed on its own
// (sim/fuzz/aodv_messages_fuzz.cc). They travel as UDP to port 654 in the
// RFC's format and sizes; ns-2 counted 4 bytes more for a request and a reply
// (a timestamp instead of the flags) and none for UDP (sim/src/aodv/README.md).
//
//   Route Request  type 1: 24 bytes  flags J R G D U, hop count, RREQ ID,
//                                    destination and its sequence number,
//                                    originator and its sequence number
//   Route Reply    type 2: 20 bytes  flags R A, prefix size, hop count,
//                                    destination and its sequence number,
//                                    originator, lifetime (ms)
//   Route Error    type 3: 4 + 8n    flag N, n >= 1 unreachable destinations,
//                                    each with its sequence number
//
// One message per packet, as ns-2 and ns-3 send them. Anything else (another
// type, RREP-ACK included, which ns-2 never sent; a message cut short; a
// route error with no destination or with bytes left after its list) is
// refused with a reason.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace mantra::sim::aodv {

using Address = uint32_t;  // an IPv4 address, host byte order

inline constexpr uint16_t kAodvPort = 654;  // RFC 3561 §3
inline constexpr size_t kRequestBytes = 24;
inline constexpr size_t kReplyBytes = 20;
inline constexpr size_t kErrorFixedBytes = 4;
inline constexpr size_t kErrorDestinationBytes = 8;
inline constexpr size_t kMaxUnreachable = 100;  // ns-2's AODV_MAX_ERRORS: destinations in one route error

struct RouteRequest {
  bool join = false, repair = false;  // multicast flags: never set by unicast AODV
  bool gratuitous = false;            // G: a replying relay also tells the destination
  bool destination_only = false;      // D: only the destination may answer
  bool unknown_seqno = false;         // U: no destination sequence number known
  uint8_t hop_count = 0;
  uint32_t id = 0;
  Address destination = 0;
  uint32_t destination_seqno = 0;
  Address originator = 0;
  uint32_t originator_seqno = 0;
  bool operator==(const RouteRequest&) const = default;
};

struct RouteReply {
  bool repair = false, ack_required = false;
  uint8_t prefix_size = 0;  // 5 bits
  uint8_t hop_count = 0;
  Address destination = 0;
  uint32_t destination_seqno = 0;
  Address originator = 0;
  uint32_t lifetime_ms = 0;
  bool operator==(const RouteReply&) const = default;
};

struct RouteError {
  bool no_delete = false;  // N: a local repair is under way upstream
  // Destination and its sequence number; 1 to kMaxUnreachable when sent
  // (the field holds up to 255, and so many are read).
  std::vector<std::pair<Address, uint32_t>> unreachable;
  bool operator==(const RouteError&) const = default;
};

using Message = std::variant<RouteRequest, RouteReply, RouteError>;

size_t size_bytes(const Message& message);
std::vector<uint8_t> encode(const Message& message);

struct Decoded {
  std::optional<Message> message;  // empty when the bytes are refused
  std::string error;               // why they were refused
};

// Reads one message that fills `bytes` (a UDP payload).
Decoded decode(std::span<const uint8_t> bytes);

}  // namespace mantra::sim::aodv
