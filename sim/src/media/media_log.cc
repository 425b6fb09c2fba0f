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

void MediaLog::on_written(int64_t g, int64_t stream_end) {
  frame(g).stream_end = stream_end;
  written_.push_back(g);
}

void MediaLog::on_datagram(int64_t app_id, double now_s) {
  const int64_t g = MediaSchedule::frame_of(app_id);
  if (g < 0 || g >= static_cast<int64_t>(frames_.size())) return;
  MediaFrameRecord& f = frame(g);
  if (++f.arrived == f.datagrams) f.complete_s = now_s;  // its last one
}

void MediaLog::on_stream(int64_t in_order_bytes, double now_s) {
  while (next_complete_ < written_.size() && frame(written_[next_complete_]).stream_end <= in_order_bytes) {
    frame(written_[next_complete_++]).complete_s = now_s;
  }
}

nlohmann::json MediaLog::report() const {
  nlohmann::json frames = nlohmann::json::array();
  for (const MediaFrameRecord& f : frames_) frames.push_back({f.rep, f.complete_s});
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
