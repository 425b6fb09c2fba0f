// The rate a live video over TCP takes at each GOP, from the socket's
// delivery-rate samples (tcp/variant_tcp_socket.h: ns-3's TcpRateLinux, Linux's tcp_rate.c): a filtered estimate of
// what the path delivers, probed as BBR probes (Cardwell et al., 2016), and never above what the window allows. It
// replaces cwnd / sRTT alone, which behind a large window (1000 segments over a 200 ms wired path) reads far above the
// path and sent rungs that froze about half the slots.
//
//   estimate   the largest sample among those taken over the last 10 sRTT
//              (BBR's bandwidth filter), counting from the newest sample:
//              with no new sample the estimate stands. An application-
//              limited sample enters only if it is above the estimate (it
//              shows what the video offered, a floor of what the path takes);
//              a sample over less than one sRTT does not enter (on a chain
//              of 802.11 hops delayed and bunched ACKs made samples over a
//              minimum RTT read 1.5-2.5 times the path's rate). An EWMA of
//              the samples (weight 1/8) instead of the maximum was tried and
//              was no better (docs/reproductions/video.md).
//   gain       startup: 2 (BBR's 2/ln 2, rounded down: a rung or two more per
//              GOP on a ladder of steps of 1.3-1.5) until the estimate has not
//              grown by a quarter over 3 GOPs (BBR's full-pipe test, GOPs for
//              rounds); then probing: 1.25 at every 4th GOP (BBR's probe
//              gain, once per ~2 s at GOPs of 12 at 25 frames/s), 1 at the
//              others. A rung never takes the whole allowance (the ladder is
//              discrete), so no drain phase follows a probe.
//   allowed    min(gain * estimate, window), window = min(cwnd, max window)
//              * 8 / sRTT (0 before an RTT sample): the window still caps it,
//              so the rate falls with cwnd at a loss or a timeout.
//
//   startup --(estimate grew < 25 % over 3 GOPs)--> probing (cycle of 4 GOPs)
//
// How it differs from the delivery-rate rule tried before (bytes acknowledged
// per GOP, docs/reproductions/video.md): that one measured what the video had
// sent, so it could not see more than the rung it was on; these samples time
// each burst (an intra frame, a GOP at a probe's gain) from its send to its
// ACK, and the filter keeps the highest of them.
#pragma once

#include <deque>
#include <utility>

#include "tcp/delivery_sample.h"

namespace mantra::sim {

class TcpVideoRate {
 public:
  static constexpr double kFilterRtts = 10;
  static constexpr double kStartupGain = 2;
  static constexpr double kProbeGain = 1.25;
  static constexpr int kProbeCycleGops = 4;
  static constexpr double kFullGrowth = 1.25;
  static constexpr int kFullGops = 3;

  // A delivery-rate sample taken at now_s, with the socket's sRTT then.
  void on_sample(double now_s, const DeliverySample& sample, double srtt_s);
  // At a GOP's start: the rate it may take, bit/s, with the window's rate.
  double at_gop(double window_bps);

  double estimate_bps() const;
  bool in_startup() const { return startup_; }
  int gops() const { return gops_; }

 private:
  std::deque<std::pair<double, double>> samples_;  // (time, bit/s), the filter's window
  bool startup_ = true;
  double full_bps_ = 0;     // startup: the estimate the growth is measured against
  int without_growth_ = 0;  // startup: GOPs since it last grew by a quarter
  int gops_ = 0;
};

}  // namespace mantra::sim
