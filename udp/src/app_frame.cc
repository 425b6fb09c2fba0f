#include "app_frame.h"

#include <algorithm>

#include "mantra/wire.h"

namespace mantra::udp {

int64_t app_room(int64_t datagram_bytes, int64_t header_bytes) {
  return datagram_bytes - header_bytes - static_cast<int64_t>(kFrameBytes);
}

bool write_frame(std::vector<uint8_t>& datagram, size_t header_bytes, const AppFrame& frame) {
  if (frame.bytes.size() > 0xFFFF || header_bytes + kFrameBytes + frame.bytes.size() > datagram.size()) return false;
  std::vector<uint8_t> head;
  Writer w(head);
  w.u64(frame.number);
  w.u64(static_cast<uint64_t>(frame.sent_us));
  w.u64(static_cast<uint64_t>(frame.app_id));
  w.u64(frame.offset);
  w.u16(static_cast<uint16_t>(frame.bytes.size()));
  std::copy(head.begin(), head.end(), datagram.begin() + static_cast<std::ptrdiff_t>(header_bytes));
  std::copy(frame.bytes.begin(), frame.bytes.end(),
            datagram.begin() + static_cast<std::ptrdiff_t>(header_bytes + kFrameBytes));
  return true;
}

std::optional<AppFrame> read_frame(std::span<const uint8_t> datagram, size_t header_bytes) {
  if (datagram.size() < header_bytes + kFrameBytes) return std::nullopt;
  Reader r(datagram.subspan(header_bytes));
  AppFrame f;
  uint64_t sent = 0, app_id = 0;
  uint16_t length = 0;
  r.u64(f.number);
  r.u64(sent);
  r.u64(app_id);
  r.u64(f.offset);
  r.u16(length);
  if (!r.ok() || !r.view(length, f.bytes)) return std::nullopt;
  f.sent_us = static_cast<int64_t>(sent);
  f.app_id = static_cast<int64_t>(app_id);
  return f;
}

}  // namespace mantra::udp
