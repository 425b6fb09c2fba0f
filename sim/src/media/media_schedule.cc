#include "media/media_schedule.h"

#include <algorithm>
#include <utility>

namespace mantra::sim {

MediaSchedule::MediaSchedule(std::shared_ptr<const MediaSpec> spec, int64_t packet_bytes, int64_t header_bytes)
    : spec_(std::move(spec)),
      packet_bytes_(packet_bytes),
      header_bytes_(header_bytes),
      n_(spec_->frames_per_loop()),
      gop_of_(static_cast<size_t>(n_), 0) {
  const auto& starts = spec_->gop_starts;
  for (size_t j = 0; j < starts.size(); ++j) {
    const int64_t end = j + 1 < starts.size() ? starts[j + 1] : n_;
    for (int64_t d = starts[j]; d < end; ++d) gop_of_[static_cast<size_t>(d)] = static_cast<int64_t>(j);
  }
  base_bytes_.assign(spec_->representations.size(), std::vector<int64_t>(starts.size(), 0));
  for (size_t r = 0; r < spec_->representations.size(); ++r) {
    for (int64_t d = 0; d < n_; ++d) {
      const MediaFrame& f = frame(static_cast<int>(r), d);
      if (f.layer == 0) base_bytes_[r][static_cast<size_t>(gop_of_[static_cast<size_t>(d)])] += f.bytes;
    }
  }
}

double MediaSchedule::loop_s() const { return static_cast<double>(n_) / spec_->fps; }

double MediaSchedule::overhead() const {
  return static_cast<double>(packet_bytes_) / static_cast<double>(packet_bytes_ - header_bytes_);
}

double MediaSchedule::capture_s(int64_t g) const {
  const int64_t loop = g / n_, d = g % n_;
  return spec_->start_s + static_cast<double>(loop) * loop_s() + frame(0, d).capture_s;
}

double MediaSchedule::gop_duration_s(int64_t gop) const {
  const auto& starts = spec_->gop_starts;
  const auto j = static_cast<size_t>(gop);
  const int64_t end = j + 1 < starts.size() ? starts[j + 1] : n_;
  return static_cast<double>(end - starts[j]) / spec_->fps;
}

// Exactly at the allowed rate fits: the comparison forgives the rounding of
// the overhead factor's division (a relative 1e-12), nothing a rate can show.
bool MediaSchedule::fits(double need_bps, double allowed_bps) const { return need_bps <= allowed_bps * (1 + 1e-12); }

int MediaSchedule::ladder_rung(double allowed_bps) const {
  const auto& reps = spec_->representations;
  for (auto r = static_cast<int>(reps.size()) - 1; r > 0; --r) {
    if (fits(static_cast<double>(reps[static_cast<size_t>(r)].rate_bps) * overhead(), allowed_bps)) return r;
  }
  return 0;
}

int MediaSchedule::layered_rung(int64_t gop, double allowed_bps) const {
  const double duration = gop_duration_s(gop);
  for (auto r = static_cast<int>(spec_->representations.size()) - 1; r > 0; --r) {
    const double base_bps = static_cast<double>(base_bytes(r, gop)) * 8 / duration * overhead();
    if (fits(base_bps, allowed_bps)) return r;
  }
  return 0;
}

bool MediaSchedule::next_opens_gop() const {
  const int64_t d = next_ % n_;
  return spec_->gop_starts[static_cast<size_t>(gop_of_[static_cast<size_t>(d)])] == d;
}

FrameDecision MediaSchedule::next(double allowed_bps) {
  const int64_t g = next_++;
  const int64_t loop = g / n_, d = g % n_;
  const int64_t gop = gop_of_[static_cast<size_t>(d)];
  FrameDecision out;
  out.frame = g;
  out.gop_start = spec_->gop_starts[static_cast<size_t>(gop)] == d;
  const bool layered = spec_->mode == MediaMode::kLayered;
  if (out.gop_start) {
    rep_ = layered ? layered_rung(gop, allowed_bps) : ladder_rung(allowed_bps);
    if (layered) {
      budget_bytes_ = allowed_bps / 8 * gop_duration_s(gop) - static_cast<double>(base_bytes(rep_, gop)) * overhead();
    }
  }
  const MediaFrame& f = frame(rep_, d);
  const double base = spec_->start_s + static_cast<double>(loop) * loop_s();
  out.gop_rep = rep_;
  out.rep = rep_;
  out.bytes = f.bytes;
  out.capture_s = base + frame(0, d).capture_s;
  out.deadline_s = base + spec_->playout_delay_s + f.due_s;
  if (layered && f.layer == 1) {
    const double need = static_cast<double>(f.bytes) * overhead();
    if (need <= budget_bytes_ * (1 + 1e-12)) {
      budget_bytes_ -= need;
    } else {
      out.rep = -1;
    }
  }
  return out;
}

std::vector<MediaChunk> MediaSchedule::chunks(const FrameDecision& d) const {
  std::vector<int64_t> sizes;
  if (spec_->slices) {
    sizes = frame(d.rep, d.frame % n_).datagram_bytes;
  } else {
    const int64_t payload = payload_bytes();
    for (int64_t at = 0; at < d.bytes; at += payload) sizes.push_back(std::min(payload, d.bytes - at));
  }
  std::vector<MediaChunk> out;
  out.reserve(sizes.size());
  int64_t offset = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    out.push_back({sizes[i], offset, app_id(d.frame, static_cast<int64_t>(i))});
    offset += sizes[i];
  }
  return out;
}

}  // namespace mantra::sim
