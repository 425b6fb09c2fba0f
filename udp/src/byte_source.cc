#include "byte_source.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mantra::udp {

std::string ByteSource::open(const std::string& path) {
  name_ = path == "-" ? "standard input" : path;
  if (path == "-") {
    fd_ = STDIN_FILENO;
    fcntl(fd_, F_SETFL, fcntl(fd_, F_GETFL) | O_NONBLOCK);
  } else {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    owned_ = true;
    if (fd_ < 0) return "--file " + path + ": " + std::strerror(errno);
  }
  return {};
}

ByteSource::~ByteSource() {
  if (owned_ && fd_ >= 0) close(fd_);
}

ByteSource::Read ByteSource::read(size_t max, std::vector<uint8_t>& out, std::string& error) {
  out.resize(max);
  for (;;) {
    const ssize_t n = ::read(fd_, out.data(), max);
    if (n > 0) {
      out.resize(static_cast<size_t>(n));
      return Read::kData;
    }
    if (n == 0) {
      ended_ = true;
      return Read::kEnd;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return Read::kWouldBlock;
    error = name_ + ": " + std::strerror(errno);
    ended_ = true;
    return Read::kEnd;
  }
}

}  // namespace mantra::udp
