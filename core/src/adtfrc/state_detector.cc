#include "adtfrc/state_detector.h"

#include <algorithm>

#include "common/rank_all_samples.h"
#include "common/rank_window.h"

namespace mantra::adtfrc {

NetworkState identify(const MetricLevels& levels, CongestionRule rule) {
  const bool idd_high = levels.idd == Level::kHigh;
  const bool stt_low = levels.stt == Level::kLow;
  bool congested = false;
  switch (rule) {
    case CongestionRule::kMulti:
      congested = idd_high && stt_low;
      break;
    case CongestionRule::kIddOnly:
      congested = idd_high;
      break;
    case CongestionRule::kSttOnly:
      congested = stt_low;
      break;
  }
  if (congested) return NetworkState::kCongestion;
  if (levels.por == Level::kHigh) return NetworkState::kRouteChange;
  if (levels.plr == Level::kHigh) return NetworkState::kChannelError;
  return NetworkState::kNormal;
}

namespace {

std::unique_ptr<Ranker> make_ranker(Ranking ranking, size_t window_samples) {
  if (ranking == Ranking::kWindow) {
    return std::make_unique<RankWindow>(window_samples, StateDetector::kExtremeFraction, StateDetector::kMinSamples);
  }
  return std::make_unique<RankAllSamples>(StateDetector::kExtremeFraction, StateDetector::kMinSamples);
}

}  // namespace

StateDetector::StateDetector(Ranking ranking, size_t window_samples)
    : idd_(make_ranker(ranking, window_samples)),
      stt_(make_ranker(ranking, window_samples)),
      por_(make_ranker(ranking, window_samples)),
      plr_(make_ranker(ranking, window_samples)) {}

Identification StateDetector::on_packet(Time sent, Time arrived, int64_t losses, Duration interval) {
  const bool out_of_order = have_previous_ && sent < max_sent_;
  arrivals_.push_back({arrived, out_of_order});
  ++received_;
  reordered_ += out_of_order;
  if (losses > 0) {
    losses_.push_back({arrived, losses});
    lost_ += losses;
  }
  const Time from = arrived - interval;
  for (; !arrivals_.empty() && arrivals_.front().at <= from; arrivals_.pop_front()) {
    --received_;
    reordered_ -= arrivals_.front().out_of_order;
  }
  for (; !losses_.empty() && losses_.front().at <= from; losses_.pop_front()) lost_ -= losses_.front().count;

  // N_p(T) counts the packet sampled, so it is 0 only if T <= 0; then POR and PLR divide by 1.
  const int received_or_one = std::max(received_, 1);
  sample_.stt_pps = received_ / interval.secs();
  sample_.por = static_cast<double>(reordered_) / received_or_one;
  sample_.plr = static_cast<double>(lost_) / received_or_one;  // Table I: N_l(T) / N_p(T)
  levels_.stt = stt_->classify_and_add(sample_.stt_pps);
  levels_.por = por_->classify_and_add(sample_.por);
  levels_.plr = plr_->classify_and_add(sample_.plr);
  if (have_previous_) {
    sample_.idd_ms = ((arrived - previous_arrived_) - (sent - previous_sent_)).ms();
    levels_.idd = idd_->classify_and_add(sample_.idd_ms);
  } else {
    levels_.idd = Level::kMiddle;  // no delay difference from a first packet
  }
  have_previous_ = true;
  previous_sent_ = sent;
  previous_arrived_ = arrived;
  if (sent > max_sent_) max_sent_ = sent;

  Identification id;
  for (int r = 0; r < kCongestionRules; ++r) id[r] = identify(levels_, static_cast<CongestionRule>(r));
  return id;
}

}  // namespace mantra::adtfrc
