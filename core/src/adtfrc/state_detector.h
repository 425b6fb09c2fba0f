// ADTFRC's receiver-side network state identification (Fu, Meng, Lu, §III-B
// and §III-C, Table I and Table II).
//
// Per data packet the receiver takes one sample of four metrics (Table I's
// definitions are lost with the PDF's figures; this is our reading of the
// text, with T one RTT, the sender's estimate carried in data):
//   IDD  inter-packet delay difference: (a_i - a_{i-1}) - (s_i - s_{i-1}) for
//        consecutive arrivals, i.e. the change of one-way delay, in ms;
//        unaffected by losses between them and by the sending rate (Fig. 1).
//   STT  short-term throughput: packets received in (now - T, now], divided
//        by T (packets/s, so samples stay comparable when the RTT changes).
//   POR  out-of-order ratio: of the packets received in (now - T, now], the
//        fraction sent before the latest send time seen before them (T_maxtx).
//   PLR  loss ratio: packets declared lost in (now - T, now] over those lost
//        plus those received in it.
// Each sample is ranked HIGH (top 30 %) / LOW (bottom 30 %) against a
// sliding window of the metric's recent samples (RankWindow), then Table II:
//
//   IDD HIGH and STT LOW ─────────────► CONG    (the multi-metric rule)
//   otherwise: POR HIGH ──────────────► RTCHG
//              else PLR HIGH ─────────► CHERR
//              else ──────────────────► NORMAL
//
// The single-metric rules (IDD HIGH alone, STT LOW alone) are evaluated on
// the same samples, so one run yields the verdict of all three rules.
#pragma once

#include <array>
#include <cstddef>
#include <deque>

#include "adtfrc/network_state.h"
#include "common/rank_window.h"
#include "mantra/units.h"

namespace mantra::adtfrc {

struct MetricSample {
  double idd_ms = 0;
  double stt_pps = 0;
  double por = 0;
  double plr = 0;
};

struct MetricLevels {
  Level idd = Level::kMiddle, stt = Level::kMiddle, por = Level::kMiddle, plr = Level::kMiddle;
};

// The state each congestion rule identifies for one sample.
using Identification = std::array<NetworkState, kCongestionRules>;

NetworkState identify(const MetricLevels& levels, CongestionRule rule);

class StateDetector {
 public:
  static constexpr double kExtremeFraction = 0.3;  // Table II: top / bottom 30 %
  static constexpr size_t kMinSamples = 10;        // before this, nothing is HIGH or LOW

  explicit StateDetector(size_t window_samples);

  // A data packet sent at `sent` arrived at `arrived`; `losses` packets were
  // declared lost on its arrival; `interval` is T (one RTT).
  Identification on_packet(Time sent, Time arrived, int losses, Duration interval);

  const MetricSample& sample() const { return sample_; }
  const MetricLevels& levels() const { return levels_; }

 private:
  struct Arrival {
    Time at;
    bool out_of_order;
  };
  struct LossMark {
    Time at;
    int count;
  };

  RankWindow idd_, stt_, por_, plr_;
  bool have_previous_ = false;
  Time previous_sent_, previous_arrived_;
  Time max_sent_;                 // T_maxtx
  std::deque<Arrival> arrivals_;  // within the longest T seen recently
  std::deque<LossMark> losses_;
  MetricSample sample_;
  MetricLevels levels_;
};

}  // namespace mantra::adtfrc
