#include "rate/data_source.h"

#include <algorithm>

namespace mantra {

DataSource::DataSource(SourceConfig config, int64_t nominal_bytes) : config_(config), nominal_bytes_(nominal_bytes) {}

void DataSource::parse(ParamReader& r, SourceConfig& out) {
  const double rate_bps = r.get("source_rate_bps", 0);
  const double offered = r.get("source_offered", 0);
  const double buffer = r.get("source_buffer_packets", static_cast<double>(out.buffer_packets));
  r.require(rate_bps >= 0 && rate_bps <= 1e12, "source_rate_bps must be between 0 (greedy) and 1e12");
  r.require(offered == 0 || offered == 1, "source_offered must be 0 (the sender's own source) or 1 (offered)");
  r.require(offered == 0 || rate_bps == 0, "source_offered takes no source_rate_bps: the application sets the pace");
  r.require(buffer >= 1 && buffer <= 1e6, "source_buffer_packets must be between 1 and 1000000");
  if (offered == 1) {
    out.kind = SourceKind::kOffered;
  } else if (rate_bps > 0) {
    out.kind = SourceKind::kConstant;
    out.rate = Rate::bps(static_cast<int64_t>(rate_bps));
  }
  out.buffer_packets = static_cast<int64_t>(buffer);
}

double DataSource::interval_s() const {
  return static_cast<double>(nominal_bytes_ * 8) / static_cast<double>(config_.rate.bits_per_sec());
}

int64_t DataSource::generated_by(Time now) const {
  // Packet k (from 0) exists from start + k*interval on.
  return 1 + static_cast<int64_t>((now - start_).secs() / interval_s() + 1e-9);
}

bool DataSource::offer(const AppPacket& packet) {
  if (config_.kind != SourceKind::kOffered) return false;
  queue_.push_back(packet);
  return true;
}

void DataSource::drop_over_bound(Time now) {
  if (config_.kind == SourceKind::kConstant) {
    const int64_t excess = generated_by(now) - consumed_ - config_.buffer_packets;
    if (excess > 0) {
      dropped_over_bound_ += excess;
      consumed_ += excess;
    }
  } else if (config_.kind == SourceKind::kOffered) {
    while (static_cast<int64_t>(queue_.size()) > config_.buffer_packets) {
      queue_.pop_front();
      ++dropped_over_bound_;
    }
  }
}

bool DataSource::has_packet(Time now) const {
  switch (config_.kind) {
    case SourceKind::kGreedy:
      return true;
    case SourceKind::kConstant:
      return generated_by(now) > consumed_;
    case SourceKind::kOffered:
      return !queue_.empty();
  }
  return false;
}

std::optional<AppPacket> DataSource::head(Time now, Duration one_way_delay) {
  drop_over_bound(now);
  if (config_.kind == SourceKind::kOffered) {
    while (!queue_.empty() && queue_.front().deadline && now + one_way_delay > *queue_.front().deadline) {
      queue_.pop_front();
      ++dropped_late_;
    }
    if (queue_.empty()) return std::nullopt;
    return queue_.front();
  }
  if (!has_packet(now)) return std::nullopt;
  return AppPacket{nominal_bytes_, std::nullopt, -1};
}

void DataSource::pop() {
  if (config_.kind == SourceKind::kConstant) ++consumed_;
  if (config_.kind == SourceKind::kOffered && !queue_.empty()) queue_.pop_front();
}

std::optional<Time> DataSource::next_arrival(Time now) const {
  if (config_.kind != SourceKind::kConstant || has_packet(now)) return std::nullopt;
  return start_ + Duration::from_seconds(static_cast<double>(consumed_) * interval_s());
}

}  // namespace mantra
