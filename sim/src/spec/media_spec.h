// A flow's video (docs/run-spec.md, "media"): the frame trace of a real
// encoded video, one list of frames per representation (rung), that the
// flow's transport carries (sim/src/media/).
//
//   {"mode": "ladder" | "layered", "fps": 25, "playout_delay": 0.5,
//    "start": 60,                       optional: the first capture (absolute s)
//    "packetization": "slices" | "frames",
//    "tcp_rate": "delivery" | "window",  optional, TCP flows only (default delivery)
//    "gop_starts": [0, 12, ...],        decode-order index of each GOP's first frame
//    "representations": [{"rate_bps": 64000,
//                         "frames": [[bytes, layer, capture_s, due_s], ...]}, ...]}
//
// With "slices" each frame has a fifth element, [bytes of video in each of
// its datagrams] (they sum to the frame's bytes): the packetiser's datagrams
// (whole slices each), which the transport sends as they are. With "frames"
// the transport cuts each frame into datagrams of what its packet size
// leaves after its header, and a frame counts only whole.
//
// parse_media() checks it as strictly as the rest of the spec: each bad input
// is one SpecError naming the key (flows[0].media.representations[2].frames[7])
// and what is wrong. The core and nlohmann only, never ns-3 (the spec fuzzer
// builds this file).
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mantra::sim {

struct MediaFrame {
  int64_t bytes = 0;     // the encoded frame's size
  int layer = 0;         // 0: base, 1: enhancement (layered mode leaves these out first)
  double capture_s = 0;  // when the encoder hands it over, from the loop's start (decode order: non-decreasing)
  double due_s = 0;      // when the player needs it, from the loop's start, before the playout delay
  std::vector<int64_t> datagram_bytes;  // slices: the video bytes of each of its datagrams; frames: empty
};

struct MediaRepresentation {
  int64_t rate_bps = 0;            // the rung's nominal rate (application bytes)
  std::vector<MediaFrame> frames;  // decode order; the same count at every rung
};

enum class MediaMode { kLadder, kLayered };

// Over TCP, what the rung is chosen from (media/tcp_media_source.h):
// delivery-rate samples filtered and probed (the default), or cwnd / sRTT
// alone (the rule before issue 32, kept to compare against).
enum class TcpVideoRateRule { kDelivery, kWindow };

struct MediaSpec {
  MediaMode mode = MediaMode::kLadder;
  bool slices = false;  // packetization: the trace's datagrams (slices) or cut by the transport (frames)
  TcpVideoRateRule tcp_rate = TcpVideoRateRule::kDelivery;
  bool tcp_rate_given = false;  // only a TCP flow takes it
  double fps = 25;
  double playout_delay_s = 0.5;
  double start_s = 0;                                // absolute: the first capture of the first loop
  std::vector<int64_t> gop_starts;                   // decode-order index of each GOP's first frame, from 0, increasing
  std::vector<MediaRepresentation> representations;  // ascending rate_bps, at least one
  nlohmann::json source;                             // where the trace came from: not read, echoed in the result

  // N: the frames of one loop of the video (of every rung).
  int64_t frames_per_loop() const { return static_cast<int64_t>(representations.front().frames.size()); }
  // Slices: the most video bytes a datagram of the trace holds (0: frames).
  int64_t largest_datagram_bytes() const;
};

// flows[i].media at `key` (e.g. "flows[0].media"), for a flow active from
// `flow_start_s` to `flow_stop_s`. Shared: a flow's copies (`count`) and its
// apps hold the one trace.
std::shared_ptr<const MediaSpec> parse_media(const nlohmann::json& v, const std::string& key, double flow_start_s,
                                             double flow_stop_s);

}  // namespace mantra::sim
