// A video over a core sender (tfrc, adtfrc, latp, tfwmfc, tfrc-loss, cbr):
// the application side of an EndpointApp whose sender has an offered source
// (`source_offered`, set by the spec for a flow with media).
//
// At each frame's capture (media_schedule.h) it asks the schedule for the
// frame's rung, with the sender's allowed rate and header, and offers the
// frame's chunks to the sender, each a datagram of chunk + header bytes with
// the frame's deadline and its (frame, chunk) id; the app then sends what is
// due. From there the core's source policy holds: a FIFO of at most
// `source_buffer_packets` (oldest dropped first), and a packet that can no
// longer arrive by its deadline dropped at the head. The app stamps each
// datagram's id in its measurement tag; the receiving app hands arrivals to
// the flow's MediaLog.
#pragma once

#include <ns3/event-id.h>

#include <functional>

#include "mantra/endpoint.h"
#include "media/media_log.h"
#include "media/media_schedule.h"

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
  void on_sent() { ++log_.counters().packets_sent; }
  // The flow's `media` result, with the core source's drop counters.
  nlohmann::json report();

 private:
  void capture();
  void schedule_next();

  MediaLog& log_;
  mantra::Sender& sender_;
  MediaSchedule schedule_;
  std::function<void()> pump_;
  ns3::EventId event_;
};

}  // namespace mantra::sim
