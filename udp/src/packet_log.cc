#include "packet_log.h"

#include <cerrno>
#include <cinttypes>
#include <cstring>

namespace mantra::udp {

std::string PacketLog::open(const std::string& path, Time origin) {
  origin_ = origin;
  if (path.empty()) return {};
  out_ = std::fopen(path.c_str(), "w");
  if (out_ == nullptr) return "--log " + path + ": " + std::strerror(errno);
  return {};
}

PacketLog::~PacketLog() {
  if (out_ != nullptr) std::fclose(out_);
}

void PacketLog::write(Time now, const char* dir, const char* kind, size_t wire_bytes, int ecn,
                      std::optional<uint64_t> number) {
  if (out_ == nullptr) return;
  std::fprintf(out_, "{\"t_s\": %.6f, \"dir\": \"%s\", \"kind\": \"%s\", \"wire_bytes\": %zu, \"ecn\": %d",
               (now - origin_).secs(), dir, kind, wire_bytes, ecn);
  if (number) std::fprintf(out_, ", \"number\": %" PRIu64, *number);
  std::fputs("}\n", out_);
}

}  // namespace mantra::udp
