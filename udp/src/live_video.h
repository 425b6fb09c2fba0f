// The sender's side of a live video over mantra-udp: at each frame's capture
// on the monotonic clock it has the flow's MediaFeed (sim/src/media/
// media_feed.h: the same rung rule, chunking and source policy as in
// mantra-sim) offer the frame to the core sender, and keeps each chunk's
// encoded bytes until the datagram that carries it goes out. The core's
// source sends what it was offered in order and drops from the front, so a
// datagram with application id X also ends the wait of every chunk before X.
//
// Schedule second 0 is `epoch`, the data's start; every frame's deadline is on
// the same clock. The application frame (app_frame.h) takes part of each
// datagram, so a frame of packetization "frames" is cut into chunks of packet
// - core header - frame bytes (slices: the trace's datagrams, which the
// sender checked fit), and the rung rule counts those bytes as overhead.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "app_frame.h"
#include "mantra/endpoint.h"
#include "media/media_feed.h"
#include "video_source.h"

namespace mantra::udp {

class LiveVideo {
 public:
  LiveVideo(const VideoSource& video, Sender& sender, int64_t packet_bytes, Time epoch);

  // When the next frame is captured.
  Time next_capture() const;
  // Offers every frame whose capture is due at `now`; an error line when the
  // sender refuses one (it has no offered source).
  std::string capture_due(Time now);
  // A data datagram with application id `app_id` goes out: its chunk's
  // offset in the frame and bytes into `frame`.
  void on_sent(int64_t app_id, AppFrame& frame);

  // The flow's `media` result (MediaLog::report) with, per frame, the
  // datagrams it was cut into (`frame_datagrams`: the receiver's arrivals
  // complete a frame when all of them came).
  nlohmann::json report();

 private:
  struct Pending {
    uint64_t offset;  // in the frame
    std::span<const uint8_t> bytes;
  };
  const VideoSource& video_;
  sim::MediaLog log_;
  sim::MediaFeed feed_;
  Time epoch_;
  std::map<int64_t, Pending> pending_;  // offered, not yet sent, by application id
};

}  // namespace mantra::udp
