#include "media/rate_media_feeder.h"

#include <ns3/abort.h>
#include <ns3/simulator.h>

#include <algorithm>
#include <utility>

namespace mantra::sim {

RateMediaFeeder::RateMediaFeeder(MediaLog& log, mantra::Sender& sender, std::shared_ptr<const MediaSpec> spec,
                                 int64_t packet_bytes, std::function<void()> pump)
    : feed_(log, sender, std::move(spec), packet_bytes, sender.data_header_bytes(), mantra::Time::from_us(0)),
      pump_(std::move(pump)) {}

void RateMediaFeeder::start() { schedule_next(); }

void RateMediaFeeder::stop() { ns3::Simulator::Cancel(event_); }

void RateMediaFeeder::schedule_next() {
  // In decode order: a frame is taken at its capture, never before the one before it.
  const double wait_s = std::max(0.0, feed_.next_capture_s() - ns3::Simulator::Now().GetSeconds());
  event_ = ns3::Simulator::Schedule(ns3::Seconds(wait_s), &RateMediaFeeder::capture, this);
}

void RateMediaFeeder::capture() {
  const MediaFeed::Captured c = feed_.capture();
  // A media flow's sender always has an offered source (spec.cc sets source_offered).
  NS_ABORT_MSG_IF(c.refused, "a media flow's sender refused the video: no offered source");
  if (c.decision.rep >= 0) pump_();
  schedule_next();
}

}  // namespace mantra::sim
