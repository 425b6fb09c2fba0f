// The driver's clocks: the monotonic clock the core runs on (µs), the
// realtime clock kernel receive stamps use, and the boot id that tells
// whether two processes share one monotonic clock (the same boot of one host).
#pragma once

#include <cstdint>
#include <string>

#include "mantra/units.h"

namespace mantra::udp {

Time monotonic_now();
int64_t realtime_ns();
// Both clocks read back to back, for converting kernel receive stamps.
struct ClockPair {
  Time monotonic;
  int64_t realtime_ns = 0;
};
ClockPair sample_clocks();
// A kernel receive stamp (CLOCK_REALTIME, ns) on the monotonic clock, by the
// two clocks' offset in `now`; never later than now.monotonic.
Time monotonic_from_realtime(int64_t realtime_stamp_ns, const ClockPair& now);
// /proc/sys/kernel/random/boot_id, or "" where it cannot be read.
std::string boot_id();

}  // namespace mantra::udp
