#include "media/media_feed.h"

#include <cmath>
#include <string>
#include <utility>

namespace mantra::sim {

MediaFeed::MediaFeed(MediaLog& log, mantra::Sender& sender, std::shared_ptr<const MediaSpec> spec, int64_t packet_bytes,
                     int64_t header_bytes, mantra::Time epoch)
    : log_(log),
      sender_(sender),
      schedule_(std::move(spec), packet_bytes, header_bytes),
      header_bytes_(header_bytes),
      epoch_(epoch) {}

MediaFeed::Captured MediaFeed::capture() {
  Captured out;
  out.decision = schedule_.next(static_cast<double>(sender_.allowed_rate().bits_per_sec()));
  const FrameDecision& d = out.decision;
  log_.on_frame(d);
  if (d.rep < 0) return out;
  MediaCounters& c = log_.counters();
  const auto deadline = epoch_ + mantra::Duration::micros(std::llround(d.deadline_s * 1e6));
  out.chunks = schedule_.chunks(d);
  log_.on_chunks(d.frame, out.chunks);
  for (const MediaChunk& chunk : out.chunks) {
    if (!sender_.offer({chunk.payload_bytes + header_bytes_, deadline, chunk.app_id})) {
      out.refused = true;
      return out;
    }
    ++c.packets_offered;
    c.bytes_offered += chunk.payload_bytes;
  }
  ++c.frames_sent;
  return out;
}

nlohmann::json MediaFeed::report() {
  MediaCounters& c = log_.counters();
  for (const auto& [name, value] : sender_.stats().diagnostics) {
    if (name == "source_late") c.packets_dropped_late = static_cast<int64_t>(value);
    if (name == "source_dropped") c.packets_dropped_over_bound = static_cast<int64_t>(value);
  }
  return log_.report();
}

}  // namespace mantra::sim
