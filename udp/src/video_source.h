// The live video `mantra-udp send --video FILE` carries: the media block a
// flow of the run spec carries in mantra-sim (docs/run-spec.md, "media": the
// frame trace of a real encoding, per rung) and the encoded frames' bytes.
// `./mantra video-encode` writes both from the run spec's `video` keys
// (docs/udp.md, "A live video"):
//
//   FILE      {"media": {mode, fps, playout_delay, gop_starts, representations, source},
//              "bytes": "NAME.bin"}
//   NAME.bin  beside FILE: every frame's encoded bytes, rung after rung, each
//             rung's frames in decode order (its size is the sum of the
//             frames' `bytes` over every rung)
//
// A bad file is one line naming the key or the file and what is wrong.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "spec/media_spec.h"

namespace mantra::udp {

class VideoSource {
 public:
  // Reads FILE and its bytes for a flow of `duration_s` (its video starts at
  // the data's start, or at media.start if later); an empty error on success.
  std::string open(const std::string& path, double duration_s);

  std::shared_ptr<const sim::MediaSpec> spec() const { return spec_; }
  // The encoded bytes of frame d (within the loop, decode order) at rung `rep`.
  std::span<const uint8_t> frame(int rep, int64_t d) const;

 private:
  std::shared_ptr<const sim::MediaSpec> spec_;
  std::vector<uint8_t> bytes_;
  std::vector<std::vector<size_t>> starts_;  // [rung][frame]: where its bytes begin in bytes_
};

}  // namespace mantra::udp
