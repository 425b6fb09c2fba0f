#include "live_video.h"

#include <cmath>

namespace mantra::udp {

LiveVideo::LiveVideo(const VideoSource& video, Sender& sender, int64_t packet_bytes, Time epoch)
    : video_(video),
      log_(*video.spec(), true),
      feed_(log_, sender, video.spec(), packet_bytes, sender.data_header_bytes() + static_cast<int64_t>(kFrameBytes),
            epoch),
      epoch_(epoch) {}

Time LiveVideo::next_capture() const { return epoch_ + Duration::micros(std::llround(feed_.next_capture_s() * 1e6)); }

std::string LiveVideo::capture_due(Time now) {
  const int64_t frames_per_loop = video_.spec()->frames_per_loop();
  while (next_capture() <= now) {
    const sim::MediaFeed::Captured c = feed_.capture();
    if (c.refused) return "the sender refused the video: it has no offered source";
    if (c.chunks.empty()) continue;
    const std::span<const uint8_t> frame = video_.frame(c.decision.rep, c.decision.frame % frames_per_loop);
    for (const sim::MediaChunk& chunk : c.chunks) {
      const auto offset = static_cast<uint64_t>(chunk.offset_bytes);
      pending_[chunk.app_id] = {offset, frame.subspan(offset, static_cast<size_t>(chunk.payload_bytes))};
    }
  }
  return {};
}

void LiveVideo::on_sent(int64_t app_id, AppFrame& frame) {
  const auto it = pending_.find(app_id);
  if (it == pending_.end()) return;
  frame.offset = it->second.offset;
  frame.bytes = it->second.bytes;
  feed_.on_sent();
  pending_.erase(pending_.begin(), std::next(it));  // the ones before it were dropped by the source
}

nlohmann::json LiveVideo::report() {
  nlohmann::json out = feed_.report();
  nlohmann::json datagrams = nlohmann::json::array();
  for (const sim::MediaFrameRecord& f : log_.frames()) datagrams.push_back(f.arrival_s.size());
  out["frame_datagrams"] = std::move(datagrams);
  return out;
}

}  // namespace mantra::udp
