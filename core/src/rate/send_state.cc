#include "rate/send_state.h"

namespace mantra {

bool SendState::interval_was_data_limited(Time from, Time to) const {
  for (const auto& [at, more_waiting] : sends_) {
    if (at >= from && at <= to && more_waiting) return false;
  }
  return true;
}

void SendState::forget_sends_before(Time t) {
  while (!sends_.empty() && sends_.front().first < t) sends_.pop_front();
}

}  // namespace mantra
