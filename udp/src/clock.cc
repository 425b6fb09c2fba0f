#include "clock.h"

#include <algorithm>
#include <ctime>
#include <fstream>

namespace mantra::udp {

Time monotonic_now() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return Time::from_us(int64_t{ts.tv_sec} * 1000000 + ts.tv_nsec / 1000);
}

int64_t realtime_ns() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

ClockPair sample_clocks() {
  ClockPair p;
  p.monotonic = monotonic_now();
  p.realtime_ns = realtime_ns();
  return p;
}

Time monotonic_from_realtime(int64_t realtime_stamp_ns, const ClockPair& now) {
  const int64_t age_us = std::max<int64_t>(0, (now.realtime_ns - realtime_stamp_ns) / 1000);
  return now.monotonic - Duration::micros(age_us);
}

std::string boot_id() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  std::getline(in, id);
  return id;
}

}  // namespace mantra::udp
