// ADTFRC's receiver-side network state identification (Fu, Meng, Lu, §III-B
// and §III-C, Table I and Table II).
//
// Per data packet the receiver takes one sample of four metrics. Table I
// (shared/papers/000_a69368787d7aab2e.txt, lines 105-112) defines them as:
//   IDD  A^{i+1} - A^i - (S^{i+1} - S^i), A^i the arrival time of packet i,
//        S^i its sending time; here over consecutive arrivals, in ms.
//   STT  N_p(T) / T, N_p(T) the number of packets received during T
//        (packets/s, so samples stay comparable when T changes).
//   POR  N_po(T) / N_p(T), N_po(T) the number of out-of-order packets during
//        T: sent before the latest send time seen before them (T_maxtx, §III-B c).
//   PLR  N_l(T) / N_p(T), N_l(T) the number of packets lost during T: here
//        declared lost in (now - T, now]. The packet sampled is received in T,
//        so N_p(T) >= 1 whenever T > 0; should it be 0, we divide by 1
//        (PLR = N_l(T)).
// T is one RTT (footnote 2), the sender's estimate carried in data.
//
// Each sample is ranked HIGH (top 30 %) / LOW (bottom 30 %) (ranker.h). The
// paper ranks against "all samples" (line 145), our default
// (Ranking::kAllSamples, RankAllSamples); Ranking::kWindow ranks against the
// metric's latest `window_samples` samples instead (RankWindow). Then Table II:
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
#include <memory>

#include "adtfrc/network_state.h"
#include "common/ranker.h"
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

// The samples each new sample is ranked against (the receiver parameter `ranking`).
enum class Ranking {
  kAllSamples = 0,  // every sample since the flow began: the paper's reading
  kWindow = 1,      // the latest `window_samples`
};

NetworkState identify(const MetricLevels& levels, CongestionRule rule);

class StateDetector {
 public:
  static constexpr double kExtremeFraction = 0.3;  // Table II: top / bottom 30 %
  static constexpr size_t kMinSamples = 10;        // before this, nothing is HIGH or LOW

  StateDetector(Ranking ranking, size_t window_samples);

  // A data packet sent at `sent` arrived at `arrived`; `losses` packets were
  // declared lost on its arrival; `interval` is T (one RTT, > 0).
  Identification on_packet(Time sent, Time arrived, int64_t losses, Duration interval);

  const MetricSample& sample() const { return sample_; }
  const MetricLevels& levels() const { return levels_; }

 private:
  struct Arrival {
    Time at;
    bool out_of_order;
  };
  struct LossMark {
    Time at;
    int64_t count;
  };

  std::unique_ptr<Ranker> idd_, stt_, por_, plr_;
  bool have_previous_ = false;
  Time previous_sent_, previous_arrived_;
  Time max_sent_;  // T_maxtx
  // Arrivals and losses in (now - T, now], less any dropped while T was shorter.
  std::deque<Arrival> arrivals_;
  std::deque<LossMark> losses_;
  // Totals over arrivals_ and losses_: N_p(T), N_po(T), N_l(T).
  int received_ = 0, reordered_ = 0;
  int64_t lost_ = 0;  // a bulk of losses (LossDetector) can exceed an int
  MetricSample sample_;
  MetricLevels levels_;
};

}  // namespace mantra::adtfrc
