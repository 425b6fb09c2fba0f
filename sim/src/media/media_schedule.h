// The media application's decisions, with no ns-3 in it: which frame of the
// trace is captured when, which representation (rung) each GOP is sent at,
// which enhancement frames a layered video leaves out, and how a frame is cut
// into datagrams. The apps that carry a video over a transport
// (rate_media_feeder.h, tcp_media_source.h) ask it at each capture and do what it says.
//
// Time: the video loops. Global decode-order frame g is frame d = g % N of
// loop L = g / N (N frames per loop), captured at
//   start + L*N/fps + capture_s[d]
// and due at
//   start + L*N/fps + playout_delay + due_s[d]   (its deadline).
// Frames are decided in decode order, each once, at their capture.
//
// The rung, at each GOP's first frame, from the rate the transport allows
// then (bit/s) and its overhead factor f = packet / (packet - header) (the
// transport's header bytes in each datagram; a byte stream: f = 1):
//   ladder   the highest rung whose rate_bps * f <= allowed; none: rung 0.
//   layered  the highest rung whose base layer fits: its layer-0 bytes in the
//            GOP * 8 / GOP duration * f <= allowed; none: rung 0. Then a
//            budget B = allowed * duration / 8 - base bytes * f for the GOP's
//            enhancement (layer-1) frames: each is sent iff its bytes * f fit
//            what is left of B at its capture (greedy in decode order), and
//            uses it up; the others are left out (rung -1). Base frames are
//            always sent.
// A rate exactly at the allowed rate fits.
//
// Datagrams: with packetization "slices" a frame goes out in the datagrams of
// the trace (each the video bytes the packetiser put in it: whole slices);
// with "frames" in chunks of at most packet - header bytes of video (the last
// one the rest). Each chunk has its (frame, chunk) packed into one
// application id. A byte stream (TCP) writes the same chunks one after the
// other, and its sink tells when each was whole in order.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "spec/media_spec.h"

namespace mantra::sim {

// What the application does with one frame at its capture.
struct FrameDecision {
  int64_t frame = 0;       // g, the global decode-order index
  int rep = -1;            // the rung it is sent at; -1: left out (layered)
  int gop_rep = 0;         // the rung of its GOP
  bool gop_start = false;  // it opens a GOP (the rung was chosen at it)
  int64_t bytes = 0;       // its size at the GOP's rung
  double capture_s = 0;    // absolute simulation seconds
  double deadline_s = 0;   // absolute: when the player needs it
};

// One datagram's share of a frame.
struct MediaChunk {
  int64_t payload_bytes = 0;  // video bytes (the transport's header comes on top)
  int64_t offset_bytes = 0;   // where they begin in the frame
  int64_t app_id = -1;        // (frame, chunk), MediaSchedule::app_id
};

class MediaSchedule {
 public:
  // `packet_bytes`: the transport's data datagram size (a flow's packet_size);
  // `header_bytes`: the bytes of it that are the transport's own (0 for a
  // byte stream, whose window counts only data).
  MediaSchedule(std::shared_ptr<const MediaSpec> spec, int64_t packet_bytes, int64_t header_bytes);

  double loop_s() const;    // N / fps
  double overhead() const;  // packet / (packet - header)
  int64_t payload_bytes() const { return packet_bytes_ - header_bytes_; }
  // Absolute capture time of global frame g.
  double capture_s(int64_t g) const;
  // The next frame to decide, and its capture time.
  int64_t next_frame() const { return next_; }
  // Whether the next frame opens a GOP (its rung is chosen then).
  bool next_opens_gop() const;
  double next_capture_s() const { return capture_s(next_); }

  // Decides the next frame, given the rate the transport allows now (bit/s).
  FrameDecision next(double allowed_bps);

  // The rules by themselves (for the tests): the ladder's rung; the
  // layered rung, whose base layer of GOP `gop` (within the loop) fits.
  int ladder_rung(double allowed_bps) const;
  int layered_rung(int64_t gop, double allowed_bps) const;
  // Layer-0 bytes of GOP `gop` (within the loop) at rung `rep`, and the GOP's duration.
  int64_t base_bytes(int rep, int64_t gop) const {
    return base_bytes_[static_cast<size_t>(rep)][static_cast<size_t>(gop)];
  }
  double gop_duration_s(int64_t gop) const;
  // Layered: what is left of the current GOP's budget, bytes (with overhead).
  double budget_bytes() const { return budget_bytes_; }

  // The datagrams of a frame decided (rep >= 0).
  std::vector<MediaChunk> chunks(const FrameDecision& d) const;

  // (frame, chunk) in one id: a chunk index below 2^24 (a frame has at most
  // 10^7 bytes, so at most that many chunks), frames below 2^39.
  static constexpr int kChunkBits = 24;
  static int64_t app_id(int64_t frame, int64_t chunk) { return (frame << kChunkBits) | chunk; }
  static int64_t frame_of(int64_t app_id) { return app_id >> kChunkBits; }
  static int64_t chunk_of(int64_t app_id) { return app_id & ((int64_t{1} << kChunkBits) - 1); }

 private:
  const MediaFrame& frame(int rep, int64_t d) const {
    return spec_->representations[static_cast<size_t>(rep)].frames[static_cast<size_t>(d)];
  }
  bool fits(double need_bps, double allowed_bps) const;

  std::shared_ptr<const MediaSpec> spec_;
  int64_t packet_bytes_, header_bytes_;
  int64_t n_;                                     // frames per loop
  std::vector<int64_t> gop_of_;                   // the GOP (within the loop) of each frame
  std::vector<std::vector<int64_t>> base_bytes_;  // [rung][gop]: layer-0 bytes
  int64_t next_ = 0;                              // the next global frame to decide
  int rep_ = 0;                                   // the current GOP's rung
  double budget_bytes_ = 0;                       // layered: left for the current GOP's enhancement frames
};

}  // namespace mantra::sim
