#include "poller.h"

#include <signal.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace mantra::udp {
namespace {

bool add(int epoll, int fd, uint32_t events) {
  epoll_event e{};
  e.events = events;
  e.data.fd = fd;
  return epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &e) == 0;
}

}  // namespace

std::string Poller::open(std::vector<int> socket_fds) {
  sockets_ = std::move(socket_fds);
  epoll_ = epoll_create1(EPOLL_CLOEXEC);
  timer_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGINT);
  sigaddset(&mask, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &mask, nullptr);
  signals_ = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
  if (epoll_ < 0 || timer_ < 0 || signals_ < 0) return "event loop: " + std::string(std::strerror(errno));
  for (int fd : sockets_)
    if (!add(epoll_, fd, EPOLLIN | EPOLLERR)) return "epoll_ctl: " + std::string(std::strerror(errno));
  if (!add(epoll_, timer_, EPOLLIN) || !add(epoll_, signals_, EPOLLIN))
    return "epoll_ctl: " + std::string(std::strerror(errno));
  return {};
}

Poller::~Poller() {
  for (int fd : {epoll_, timer_, signals_})
    if (fd >= 0) close(fd);
}

bool Poller::watch_input(int fd) {
  if (!add(epoll_, fd, EPOLLIN)) return false;
  input_ = fd;
  return true;
}

void Poller::unwatch_input() {
  if (input_ >= 0) epoll_ctl(epoll_, EPOLL_CTL_DEL, input_, nullptr);
  input_ = -1;
}

Ready Poller::wait(std::optional<Time> deadline) {
  itimerspec spec{};  // all zero: disarmed
  if (deadline) {
    const int64_t us = std::max<int64_t>(deadline->us(), 1);  // 0 would disarm
    spec.it_value.tv_sec = us / 1000000;
    spec.it_value.tv_nsec = (us % 1000000) * 1000;
  }
  timerfd_settime(timer_, TFD_TIMER_ABSTIME, &spec, nullptr);
  Ready ready;
  ++wakeups_;
  epoll_event events[8];
  const int n = epoll_wait(epoll_, events, 8, -1);
  for (int i = 0; i < n; ++i) {
    const int fd = events[i].data.fd;
    const auto socket = std::find(sockets_.begin(), sockets_.end(), fd);
    if (socket != sockets_.end()) {
      const auto bit = 1U << (socket - sockets_.begin());
      if (events[i].events & EPOLLIN) ready.readable |= bit;
      if (events[i].events & EPOLLERR) ready.errors |= bit;
    } else if (fd == timer_) {
      uint64_t expirations = 0;
      [[maybe_unused]] const ssize_t r = read(timer_, &expirations, sizeof expirations);
    } else if (fd == signals_) {
      signalfd_siginfo info{};
      [[maybe_unused]] const ssize_t r = read(signals_, &info, sizeof info);
      ready.stop = true;
    } else if (fd == input_) {
      ready.input = true;
    }
  }
  return ready;
}

}  // namespace mantra::udp
