// The application frame mantra-udp writes into a data datagram's filler,
// right after the protocol's own header (Sender::data_header_bytes()), so the
// core's wire format and packet sizes stay as they are:
//
//   [ core header ][ number u64 | sent_us i64 | app_id i64 | offset u64 | length u16 ][ app bytes ][ filler ]
//                  ^ data_header_bytes
//
// number:  the driver's count of data datagrams sent before this one (for
//          arrivals, duplicates and loss, as ns-3's packet tag does in sim)
// sent_us: the sender's monotonic clock when it was sent, µs
// app_id:  the application's id of what it carries (the core's AppPacket id:
//          a file's chunk index, a video's (frame, chunk); -1: none)
// offset, length: where the application bytes it carries sit: in the file's
//          stream, or in the video's frame (length 0: none, a synthetic source)
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace mantra::udp {

constexpr size_t kFrameBytes = 34;

struct AppFrame {
  uint64_t number = 0;
  int64_t sent_us = 0;
  int64_t app_id = -1;
  uint64_t offset = 0;
  std::span<const uint8_t> bytes;  // the application bytes
};

// Room for application bytes in a data datagram of `datagram_bytes` whose
// protocol header is `header_bytes` long (negative: not even the frame fits).
int64_t app_room(int64_t datagram_bytes, int64_t header_bytes);

// Writes the frame into datagram[header_bytes...]; false when it does not fit
// (the datagram is left as it was).
bool write_frame(std::vector<uint8_t>& datagram, size_t header_bytes, const AppFrame& frame);

// Reads the frame of a data datagram; nullopt when it is too short or its
// length runs past the datagram.
std::optional<AppFrame> read_frame(std::span<const uint8_t> datagram, size_t header_bytes);

}  // namespace mantra::udp
