// A video fed to a core sender, with no ns-3 in it: at each frame's capture
// (media_schedule.h) it asks the schedule for the frame's rung, with the
// sender's allowed rate, and offers the frame's chunks to the sender, each a
// datagram of chunk + header bytes with the frame's deadline and its
// (frame, chunk) id. From there the core's source policy holds: a FIFO of at
// most `source_buffer_packets` (oldest dropped first), and a packet that can
// no longer arrive by its deadline dropped at the head.
//
// A driver calls capture() at next_capture_s() and then sends what is due:
// mantra-sim's RateMediaFeeder on an ns-3 timer, mantra-udp in its loop.
// Schedule seconds are mapped to the sender's clock by `epoch` (the core time
// at schedule second 0: 0 in the simulator, the data's start over UDP).
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "mantra/endpoint.h"
#include "media/media_log.h"
#include "media/media_schedule.h"

namespace mantra::sim {

class MediaFeed {
 public:
  // `header_bytes`: the bytes of each datagram that are not video (the
  // sender's data header; over mantra-udp also its application frame).
  MediaFeed(MediaLog& log, mantra::Sender& sender, std::shared_ptr<const MediaSpec> spec, int64_t packet_bytes,
            int64_t header_bytes, mantra::Time epoch);

  // When the next frame is captured, in schedule seconds.
  double next_capture_s() const { return schedule_.next_capture_s(); }

  // What one capture offered: the frame's decision and its chunks (none when
  // it was left out); `refused` when the sender took none (no offered source).
  struct Captured {
    FrameDecision decision;
    std::vector<MediaChunk> chunks;
    bool refused = false;
  };
  Captured capture();

  // The driver sent a data datagram of the video.
  void on_sent() { ++log_.counters().packets_sent; }
  // The flow's `media` result, with the core source's drop counters.
  nlohmann::json report();

 private:
  MediaLog& log_;
  mantra::Sender& sender_;
  MediaSchedule schedule_;
  int64_t header_bytes_;
  mantra::Time epoch_;
};

}  // namespace mantra::sim
