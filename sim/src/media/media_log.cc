#include "media/media_log.h"

namespace mantra::sim {

MediaFrameRecord& MediaLog::on_frame(const FrameDecision& d) {
  if (d.gop_start) gop_reps_.push_back(d.gop_rep);
  ++counters_.frames_captured;
  if (d.rep < 0) ++counters_.frames_left_out;
  frames_.push_back({});
  frames_.back().rep = d.rep;
  return frames_.back();
}

void MediaLog::on_chunks(int64_t g, const std::vector<MediaChunk>& chunks) {
  frame(g).arrival_s.assign(chunks.size(), -1);
}

void MediaLog::on_written(int64_t g, int64_t stream_start, const std::vector<MediaChunk>& chunks) {
  MediaFrameRecord& f = frame(g);
  f.stream_ends.clear();
  for (const MediaChunk& c : chunks) f.stream_ends.push_back(stream_start + c.offset_bytes + c.payload_bytes);
  written_.push_back(g);
}

namespace {
void arrive(MediaFrameRecord& f, size_t chunk, double now_s) {
  f.arrival_s[chunk] = now_s;
  if (++f.arrived == static_cast<int64_t>(f.arrival_s.size())) f.complete_s = now_s;  // its last one
}
}  // namespace

void MediaLog::on_datagram(int64_t app_id, double now_s) {
  const int64_t g = MediaSchedule::frame_of(app_id);
  if (g < 0 || g >= static_cast<int64_t>(frames_.size())) return;
  MediaFrameRecord& f = frame(g);
  const auto chunk = static_cast<size_t>(MediaSchedule::chunk_of(app_id));
  if (chunk < f.arrival_s.size() && f.arrival_s[chunk] < 0) arrive(f, chunk, now_s);
}

void MediaLog::on_stream(int64_t in_order_bytes, double now_s) {
  while (next_complete_ < written_.size()) {
    MediaFrameRecord& f = frame(written_[next_complete_]);
    while (next_chunk_ < f.stream_ends.size() && f.stream_ends[next_chunk_] <= in_order_bytes) {
      arrive(f, next_chunk_++, now_s);
    }
    if (next_chunk_ < f.stream_ends.size()) return;
    ++next_complete_;
    next_chunk_ = 0;
  }
}

nlohmann::json MediaLog::report() const {
  nlohmann::json frames = nlohmann::json::array();
  for (const MediaFrameRecord& f : frames_) frames.push_back({f.rep, f.complete_s, f.arrival_s});
  const MediaCounters& c = counters_;
  nlohmann::json out = {{"frames", std::move(frames)},
                        {"gop_reps", gop_reps_},
                        {"video_start", spec_.start_s},
                        {"mode", spec_.mode == MediaMode::kLayered ? "layered" : "ladder"},
                        {"transport", datagrams_ ? "datagrams" : "stream"},
                        {"frames_captured", c.frames_captured},
                        {"frames_sent", c.frames_sent},
                        {"frames_left_out", c.frames_left_out},
                        {"frames_skipped", c.frames_skipped},
                        {"bytes_offered", c.bytes_offered}};
  if (!spec_.source.is_null()) out["source"] = spec_.source;
  if (datagrams_) {
    out["packets_offered"] = c.packets_offered;
    out["packets_sent"] = c.packets_sent;
    out["packets_dropped_late"] = c.packets_dropped_late;
    out["packets_dropped_over_bound"] = c.packets_dropped_over_bound;
  } else {
    out["frames_unsent"] = c.frames_unsent;
    out["bytes_written"] = c.bytes_written;
  }
  return out;
}

}  // namespace mantra::sim
