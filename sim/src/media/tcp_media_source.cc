#include "media/tcp_media_source.h"

#include <ns3/simulator.h>
#include <ns3/uinteger.h>

#include <algorithm>
#include <utility>

namespace mantra::sim {

TcpMediaSource::TcpMediaSource(MediaLog& log, std::shared_ptr<const MediaSpec> spec, int segment_bytes,
                               int max_window_segments, std::function<ns3::Ptr<ns3::Packet>(uint32_t)> make_data)
    : log_(log),
      rule_(spec->tcp_rate),
      schedule_(std::move(spec), segment_bytes, 0),  // the window counts data bytes only: no overhead
      max_window_bytes_(static_cast<double>(max_window_segments) * segment_bytes),
      make_data_(std::move(make_data)) {}

void TcpMediaSource::start(ns3::Ptr<VariantTcpSocket> socket) {
  socket_ = socket;
  // One window of send buffer: what TCP has not sent yet waits in the
  // application's queue, where a frame gone stale can still be skipped.
  socket_->SetAttribute("SndBufSize", ns3::UintegerValue(static_cast<uint64_t>(max_window_bytes_)));
  socket_->SetSendCallback(ns3::MakeBoundCallback(
      +[](TcpMediaSource* self, ns3::Ptr<ns3::Socket>, uint32_t) { self->push(); }, this));
  socket_->sample_delivery_rate([this](const DeliverySample& sample) {
    ++delivery_samples_;
    rate_.on_sample(ns3::Simulator::Now().GetSeconds(), sample, socket_->srtt_s());
  });
  schedule_next();
}

void TcpMediaSource::stop() {
  ns3::Simulator::Cancel(event_);
  // The socket outlives this source: it may not call back here.
  if (socket_) socket_->SetSendCallback(ns3::MakeNullCallback<void, ns3::Ptr<ns3::Socket>, uint32_t>());
}

double TcpMediaSource::window_bps() const {
  const double srtt_s = socket_->srtt_s();
  if (srtt_s <= 0) return 0;
  return std::min(static_cast<double>(socket_->cwnd_bytes()), max_window_bytes_) * 8 / srtt_s;
}

void TcpMediaSource::schedule_next() {
  // In decode order: a frame is taken at its capture, never before the one before it.
  const double wait_s = std::max(0.0, schedule_.next_capture_s() - ns3::Simulator::Now().GetSeconds());
  event_ = ns3::Simulator::Schedule(ns3::Seconds(wait_s), &TcpMediaSource::capture, this);
}

void TcpMediaSource::capture() {
  // The rate is asked for once per GOP (a probe's gain lasts one GOP).
  const FrameDecision d = schedule_.next(!schedule_.next_opens_gop()          ? 0
                                         : rule_ == TcpVideoRateRule::kWindow ? window_bps()
                                                                              : rate_.at_gop(window_bps()));
  log_.on_frame(d);
  if (d.rep >= 0) {
    queue_.push_back({d.frame, d.bytes, d.deadline_s, false, schedule_.chunks(d)});
    log_.on_chunks(d.frame, queue_.back().chunks);
    log_.counters().bytes_offered += d.bytes;
    push();
  }
  schedule_next();
}

void TcpMediaSource::push() {
  MediaCounters& c = log_.counters();
  const double now_s = ns3::Simulator::Now().GetSeconds();
  while (!queue_.empty()) {
    Queued& f = queue_.front();
    if (!f.started && now_s > f.deadline_s) {  // stale before its first byte: skipped whole
      log_.frame(f.frame) = {};                // rep -1, no chunks
      ++c.frames_skipped;
      queue_.pop_front();
      continue;
    }
    const uint32_t room = socket_->GetTxAvailable();
    if (room == 0) return;
    const auto n = static_cast<uint32_t>(std::min<int64_t>(room, f.left));
    if (socket_->Send(make_data_(n), 0) < 0) return;
    if (!f.started) {
      f.started = true;
      ++c.frames_sent;
      log_.on_written(f.frame, stream_bytes_, f.chunks);
    }
    f.left -= n;
    stream_bytes_ += n;
    c.bytes_written += n;
    if (f.left == 0) queue_.pop_front();
  }
}

nlohmann::json TcpMediaSource::report() {
  log_.counters().frames_unsent =
      std::count_if(queue_.begin(), queue_.end(), [](const Queued& q) { return !q.started; });
  nlohmann::json out = log_.report();
  out["delivery_samples"] = delivery_samples_;
  out["rate_estimate_bps"] = rate_.estimate_bps();
  return out;
}

}  // namespace mantra::sim
