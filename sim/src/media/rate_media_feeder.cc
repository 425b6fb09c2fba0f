#include "media/rate_media_feeder.h"

#include <ns3/abort.h>
#include <ns3/simulator.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace mantra::sim {

RateMediaFeeder::RateMediaFeeder(MediaLog& log, mantra::Sender& sender, std::shared_ptr<const MediaSpec> spec,
                                 int64_t packet_bytes, std::function<void()> pump)
    : log_(log),
      sender_(sender),
      schedule_(std::move(spec), packet_bytes, sender.data_header_bytes()),
      pump_(std::move(pump)) {}

void RateMediaFeeder::start() { schedule_next(); }

void RateMediaFeeder::stop() { ns3::Simulator::Cancel(event_); }

void RateMediaFeeder::schedule_next() {
  // In decode order: a frame is taken at its capture, never before the one before it.
  const double wait_s = std::max(0.0, schedule_.next_capture_s() - ns3::Simulator::Now().GetSeconds());
  event_ = ns3::Simulator::Schedule(ns3::Seconds(wait_s), &RateMediaFeeder::capture, this);
}

void RateMediaFeeder::capture() {
  const FrameDecision d = schedule_.next(static_cast<double>(sender_.allowed_rate().bits_per_sec()));
  MediaFrameRecord& record = log_.on_frame(d);
  if (d.rep >= 0) {
    MediaCounters& c = log_.counters();
    const auto deadline = mantra::Time::from_us(std::llround(d.deadline_s * 1e6));
    const int64_t header = sender_.data_header_bytes();
    for (const MediaChunk& chunk : schedule_.chunks(d.frame, d.bytes)) {
      // A media flow's sender always has an offered source (spec.cc sets source_offered).
      const bool taken = sender_.offer({chunk.payload_bytes + header, deadline, chunk.app_id});
      NS_ABORT_MSG_UNLESS(taken, "a media flow's sender refused the video: no offered source");
      ++record.datagrams;
      ++c.packets_offered;
      c.bytes_offered += chunk.payload_bytes;
    }
    ++c.frames_sent;
    pump_();
  }
  schedule_next();
}

nlohmann::json RateMediaFeeder::report() {
  MediaCounters& c = log_.counters();
  for (const auto& [name, value] : sender_.stats().diagnostics) {
    if (name == "source_late") c.packets_dropped_late = static_cast<int64_t>(value);
    if (name == "source_dropped") c.packets_dropped_over_bound = static_cast<int64_t>(value);
  }
  return log_.report();
}

}  // namespace mantra::sim
