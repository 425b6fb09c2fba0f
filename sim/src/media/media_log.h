// What became of each frame of a flow's video, shared by the flow's two
// sides (as SegmentClock is for TCP): the source writes each frame's rung and
// its chunks (media_schedule.h: its datagrams, or over TCP their byte ranges
// in the stream); the sink writes arrivals; after the run it is the flow's
// `media` result (docs/result-schema.md, "media"). No ns-3 in it.
//
// A chunk arrived when its datagram's first copy arrived or, over TCP, when
// the in-order bytes delivered passed its end; a frame is complete when every
// one of its chunks arrived, at the last one's time; -1 if it never was
// (lost, dropped at the sender, skipped, left out).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "media/media_schedule.h"

namespace mantra::sim {

struct MediaFrameRecord {
  int rep = -1;                      // the rung it went at; -1: not sent (left out, or skipped as stale)
  std::vector<double> arrival_s;     // per chunk: when it arrived; -1: not (yet)
  std::vector<int64_t> stream_ends;  // TCP: per chunk, the stream offset past its last byte
  int64_t arrived = 0;               // chunks arrived
  double complete_s = -1;            // when it was whole at the sink; -1: never
};

// The source's counters (docs/result-schema.md, "media").
struct MediaCounters {
  int64_t frames_captured = 0;
  int64_t frames_sent = 0;           // handed to the transport (datagrams offered; TCP: first byte written)
  int64_t frames_left_out = 0;       // layered: enhancement frames over the GOP's budget
  int64_t frames_skipped = 0;        // TCP: stale frames skipped whole (deadline passed before their first byte)
  int64_t frames_unsent = 0;         // TCP: still waiting in the application queue when the flow stopped
  int64_t bytes_offered = 0;         // video bytes handed to the transport side (datagrams: their payload; TCP: queued)
  int64_t bytes_written = 0;         // TCP: video bytes written into the socket
  int64_t packets_offered = 0;       // datagrams: offered to the core sender
  int64_t packets_sent = 0;          // datagrams: of those, sent
  int64_t packets_dropped_late = 0;  // datagrams: the core source dropped them, too late for their deadline
  int64_t packets_dropped_over_bound = 0;  // datagrams: the core source dropped them over its queue bound
};

class MediaLog {
 public:
  // `datagrams`: the transport carries the video in datagrams (a core
  // sender) rather than a byte stream (TCP).
  MediaLog(const MediaSpec& spec, bool datagrams) : spec_(spec), datagrams_(datagrams) {}

  // Source: each frame as it is decided (in decode order), each GOP's rung.
  MediaFrameRecord& on_frame(const FrameDecision& d);
  MediaFrameRecord& frame(int64_t g) { return frames_[static_cast<size_t>(g)]; }
  // Source: frame g goes out in these chunks (datagrams, or pieces of the stream).
  void on_chunks(int64_t g, const std::vector<MediaChunk>& chunks);
  // TCP source: frame g's first byte goes into the stream at offset
  // `stream_start`, its chunks (given to on_chunks) one after the other.
  void on_written(int64_t g, int64_t stream_start, const std::vector<MediaChunk>& chunks);
  MediaCounters& counters() { return counters_; }

  // Datagram sink: the first copy of the datagram with this application id arrived.
  void on_datagram(int64_t app_id, double now_s);
  // TCP sink: the application has `in_order_bytes` of the stream in all.
  void on_stream(int64_t in_order_bytes, double now_s);

  const std::vector<MediaFrameRecord>& frames() const { return frames_; }
  // The flow's `media` result.
  nlohmann::json report() const;

 private:
  const MediaSpec& spec_;
  bool datagrams_;
  std::vector<MediaFrameRecord> frames_;  // by global frame
  std::vector<int> gop_reps_;             // by global GOP
  std::vector<int64_t> written_;          // TCP: frames in stream order
  size_t next_complete_ = 0;              // TCP: the first of written_ not yet whole at the sink
  size_t next_chunk_ = 0;                 // TCP: that frame's first chunk not yet whole
  MediaCounters counters_;
};

}  // namespace mantra::sim
