// What mantra-udp adds to the core's datagrams, and its session messages.
//
// Every datagram on the wire ends with a 9-byte trailer:
//
//   [ bytes ... ][ token: u64 ][ kind: u8 ]
//
// after the core's bytes (kCoreData, kCoreOther) or a session message. The
// trailer is last so that the core's header stays at offset 0, where LATP's
// node agents look for it. Its 9 bytes are counted in every wire size
// (docs/udp.md); the core's own sizes and counters do not include them.
//
// The token is a random 64-bit number the sender draws for each session and
// names in its hello; the receiver then takes datagrams only from the
// sender's address with that token, and the sender only from the receiver's
// address with it. Nothing is encrypted or authenticated: a party on the
// path can read the token and forge datagrams.
//
// Session messages (big-endian, strings as u8 length + bytes, a parameter as
// string + IEEE-754 double):
//   hello    sender -> receiver: version, protocol, sender params, receiver
//            params, the sender's boot id, its send time t0 (µs, monotonic),
//            data_header_bytes (where the application frame starts), what the
//            data carries (u8: 0 nothing, 1 a byte stream, 2 a video)
//   accept   receiver -> sender: version, t0 echoed, t1 (received), t2 (sent),
//            the receiver's boot id
//   refuse   receiver -> sender: why (u16 length + text)
//   bye      sender -> receiver: data packets and core bytes sent, the
//            application bytes offered and whether that was all of them,
//            the sender's diagnostics (count u8, then name + value)
//   bye-ack  receiver -> sender: nothing
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "mantra/params.h"
#include "mantra/wire.h"

namespace mantra::udp {

enum class WireKind : uint8_t {
  kCoreData = 0,
  kCoreOther = 1,
  kHello = 2,
  kAccept = 3,
  kRefuse = 4,
  kBye = 5,
  kByeAck = 6
};

constexpr size_t kTrailerBytes = 9;
constexpr uint8_t kSessionVersion = 2;

struct Trailer {
  uint64_t token = 0;
  WireKind kind = WireKind::kCoreData;
};

// Appends the trailer to `datagram`.
void append_trailer(std::vector<uint8_t>& datagram, Trailer trailer);
// The trailer of a datagram and the bytes before it; nullopt when it is too
// short or its kind is unknown.
std::optional<std::pair<Trailer, std::span<const uint8_t>>> split_trailer(std::span<const uint8_t> datagram);

// What the data datagrams' application frames carry.
enum class AppKind : uint8_t { kNone = 0, kBytes = 1, kVideo = 2 };

struct Hello {
  std::string protocol;
  Params sender_params;
  Params receiver_params;
  std::string boot_id;
  int64_t t0_us = 0;
  uint16_t data_header_bytes = 0;
  AppKind app = AppKind::kNone;
};

struct Accept {
  int64_t t0_us = 0, t1_us = 0, t2_us = 0;
  std::string boot_id;
};

struct Bye {
  uint64_t data_packets = 0;
  uint64_t core_bytes = 0;
  uint64_t app_bytes = 0;
  bool app_complete = false;
  std::vector<std::pair<std::string, double>> diagnostics;
};

std::vector<uint8_t> encode_hello(const Hello& m);
std::vector<uint8_t> encode_accept(const Accept& m);
std::vector<uint8_t> encode_refuse(const std::string& why);
std::vector<uint8_t> encode_bye(const Bye& m);

DecodeResult<Hello> decode_hello(std::span<const uint8_t> body);
DecodeResult<Accept> decode_accept(std::span<const uint8_t> body);
DecodeResult<std::string> decode_refuse(std::span<const uint8_t> body);
DecodeResult<Bye> decode_bye(std::span<const uint8_t> body);

}  // namespace mantra::udp
