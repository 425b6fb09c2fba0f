// The bytes a sender carries: a file, or standard input (a pipe or terminal
// is read when the poller says it is readable; a regular file never blocks).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mantra::udp {

class ByteSource {
 public:
  enum class Read : uint8_t { kData, kWouldBlock, kEnd };

  // path "-": standard input. An empty error on success.
  std::string open(const std::string& path);
  ~ByteSource();
  ByteSource() = default;
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  int fd() const { return fd_; }
  bool ended() const { return ended_; }
  // Reads up to `max` bytes into `out` (replacing its contents).
  Read read(size_t max, std::vector<uint8_t>& out, std::string& error);

 private:
  int fd_ = -1;
  bool owned_ = false;
  bool ended_ = false;
  std::string name_;
};

}  // namespace mantra::udp
