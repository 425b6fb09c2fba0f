// The event loop's wait: epoll over one or more sockets, an optional input (a pipe or
// terminal on stdin), a timerfd armed at an absolute monotonic time with µs
// resolution (epoll_wait alone counts in ms), and SIGINT/SIGTERM through a
// signalfd (the loop stops cleanly and still writes its result).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mantra/units.h"

namespace mantra::udp {

struct Ready {
  uint32_t readable = 0;  // bit i: socket i is readable
  uint32_t errors = 0;    // bit i: socket i's error queue has something (IP_RECVERR)
  bool input = false;     // the input fd is readable (or closed)
  bool stop = false;      // SIGINT or SIGTERM

  bool socket(int i = 0) const { return (readable >> i) & 1U; }
  bool socket_error(int i = 0) const { return (errors >> i) & 1U; }
};

class Poller {
 public:
  // Watches the sockets (at most 32; socket i is bit i of Ready). Blocks
  // SIGINT and SIGTERM in this thread (the signalfd reads them).
  std::string open(std::vector<int> socket_fds);
  ~Poller();
  Poller() = default;
  Poller(const Poller&) = delete;
  Poller& operator=(const Poller&) = delete;

  // Watches `fd` for input; false when epoll cannot (a regular file, which
  // never blocks: read it directly).
  bool watch_input(int fd);
  void unwatch_input();
  // Waits until something is ready or the monotonic clock reaches `deadline`
  // (none: no deadline).
  Ready wait(std::optional<Time> deadline);
  // How many times wait() returned: a loop that wakes far more often than it
  // sends or receives is spinning on a stale deadline.
  int64_t wakeups() const { return wakeups_; }

 private:
  int epoll_ = -1, timer_ = -1, signals_ = -1, input_ = -1;
  std::vector<int> sockets_;
  int64_t wakeups_ = 0;
};

}  // namespace mantra::udp
