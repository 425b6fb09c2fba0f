#include "adtfrc/state_detector.h"

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

StateDetector::StateDetector(size_t window_samples)
    : idd_(window_samples, kExtremeFraction, kMinSamples),
      stt_(window_samples, kExtremeFraction, kMinSamples),
      por_(window_samples, kExtremeFraction, kMinSamples),
      plr_(window_samples, kExtremeFraction, kMinSamples) {}

Identification StateDetector::on_packet(Time sent, Time arrived, int losses, Duration interval) {
  const bool out_of_order = have_previous_ && sent < max_sent_;
  arrivals_.push_back({arrived, out_of_order});
  if (losses > 0) losses_.push_back({arrived, losses});
  const Time from = arrived - interval;
  while (!arrivals_.empty() && arrivals_.front().at <= from) arrivals_.pop_front();
  while (!losses_.empty() && losses_.front().at <= from) losses_.pop_front();

  int received = 0, reordered = 0, lost = 0;
  for (const auto& a : arrivals_) {
    ++received;
    reordered += a.out_of_order;
  }
  for (const auto& l : losses_) lost += l.count;

  sample_.stt_pps = received / interval.secs();
  sample_.por = static_cast<double>(reordered) / received;
  sample_.plr = static_cast<double>(lost) / (lost + received);
  levels_.stt = stt_.classify_and_add(sample_.stt_pps);
  levels_.por = por_.classify_and_add(sample_.por);
  levels_.plr = plr_.classify_and_add(sample_.plr);
  if (have_previous_) {
    sample_.idd_ms = ((arrived - previous_arrived_) - (sent - previous_sent_)).ms();
    levels_.idd = idd_.classify_and_add(sample_.idd_ms);
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
