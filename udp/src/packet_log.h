// The per-packet log (JSON lines), one line per datagram sent or received:
//   {"t_s": 1.234567, "dir": "tx"|"rx", "kind": "data"|"control"|"session"|"foreign",
//    "wire_bytes": 1009, "ecn": 2, "number": 17}
// t_s is seconds on the monotonic clock since the log opened; number is the
// data datagram's frame number (absent for others).
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "mantra/units.h"

namespace mantra::udp {

class PacketLog {
 public:
  // An empty path: no log. Otherwise an error when the file cannot be opened.
  std::string open(const std::string& path, Time origin);
  ~PacketLog();
  PacketLog() = default;
  PacketLog(const PacketLog&) = delete;
  PacketLog& operator=(const PacketLog&) = delete;

  void write(Time now, const char* dir, const char* kind, size_t wire_bytes, int ecn,
             std::optional<uint64_t> number = std::nullopt);

 private:
  std::FILE* out_ = nullptr;
  Time origin_;
};

}  // namespace mantra::udp
