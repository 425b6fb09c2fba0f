// A video over a core sender (tfrc, adtfrc, latp, tfwmfc, tfrc-loss, cbr) in
// the simulator: the ns-3 timer of an EndpointApp whose sender has an offered
// source (`source_offered`, set by the spec for a flow with media). At each
// frame's capture it has the flow's MediaFeed (media_feed.h: the rung, the
// chunks, what the core's source does with them) offer the frame, then the
// app sends what is due. The app stamps each datagram's id in its measurement
// tag; the receiving app hands arrivals to the flow's MediaLog.
#pragma once

#include <ns3/event-id.h>

#include <functional>

#include "mantra/endpoint.h"
#include "media/media_feed.h"

namespace mantra::sim {

class RateMediaFeeder {
 public:
  // `pump`: the app sends what the sender has due and re-arms its timer.
  RateMediaFeeder(MediaLog& log, mantra::Sender& sender, std::shared_ptr<const MediaSpec> spec, int64_t packet_bytes,
                  std::function<void()> pump);

  // With the app: the first capture at the video's start (or now, if later).
  void start();
  void stop();
  // The app sent a data datagram of the video.
  void on_sent() { feed_.on_sent(); }
  // The flow's `media` result, with the core source's drop counters.
  nlohmann::json report() { return feed_.report(); }

 private:
  void capture();
  void schedule_next();

  MediaFeed feed_;
  std::function<void()> pump_;
  ns3::EventId event_;
};

}  // namespace mantra::sim
