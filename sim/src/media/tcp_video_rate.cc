#include "media/tcp_video_rate.h"

#include <algorithm>

namespace mantra::sim {

double TcpVideoRate::estimate_bps() const {
  double best = 0;
  for (const auto& [t, bps] : samples_) best = std::max(best, bps);
  return best;
}

void TcpVideoRate::on_sample(double now_s, const DeliverySample& sample, double srtt_s) {
  if (sample.interval_s < srtt_s) return;  // ACK compression (delayed ACKs, 802.11's bursts)
  if (sample.app_limited && sample.rate_bps <= estimate_bps()) return;
  samples_.emplace_back(now_s, sample.rate_bps);
  while (samples_.front().first < now_s - kFilterRtts * srtt_s) samples_.pop_front();
}

double TcpVideoRate::at_gop(double window_bps) {
  const double estimate = estimate_bps();
  ++gops_;
  double gain = 1;
  if (startup_) {
    if (estimate >= full_bps_ * kFullGrowth) {
      full_bps_ = estimate;
      without_growth_ = 0;
    } else if (++without_growth_ >= kFullGops) {
      startup_ = false;
      gops_ = 0;
    }
  }
  if (startup_) {
    gain = kStartupGain;
  } else if (gops_ % kProbeCycleGops == 1) {
    gain = kProbeGain;
  }
  return std::min(gain * estimate, window_bps);
}

}  // namespace mantra::sim
