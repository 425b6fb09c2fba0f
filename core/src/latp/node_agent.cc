#include "latp/node_agent.h"

#include <algorithm>

#include "latp/latp_wire.h"

namespace mantra::latp {

std::string NodeAgent::parse(const Params& params, NodeAgentConfig& out) {
  ParamReader r(params);
  out.busyness_threshold = r.get("busyness_threshold", out.busyness_threshold);
  out.difs = Duration::micros(static_cast<int64_t>(r.get("difs_us", static_cast<double>(out.difs.us()))));
  r.require(out.busyness_threshold > 0 && out.busyness_threshold <= 1, "busyness_threshold must be in (0, 1]");
  r.require(out.difs > Duration::zero(), "difs_us must be positive");
  return r.finish();
}

void NodeAgent::add_busy(Time start, Duration d) {
  // Only the part after the last attempt belongs to the current sample.
  const Time from = last_attempt_ ? std::max(start, *last_attempt_) : start;
  const Time end = start + d;
  if (end > from) busy_since_attempt_ += end - from;
  busy_total_ += d;
  if (!first_busy_) first_busy_ = start;
  last_busy_end_ = std::max(last_busy_end_, end);
}

void NodeAgent::on_channel_busy(Time start, Duration d) { add_busy(start, d); }

void NodeAgent::on_transmit(Time start, Duration d) {
  const bool after_difs = !first_busy_ || start - last_busy_end_ >= config_.difs;
  if (after_difs) {
    ++attempts_;
    if (last_attempt_ && start > *last_attempt_) {
      busyness_.update(busy_since_attempt_ / (start - *last_attempt_));
    }
    last_attempt_ = start;
    busy_since_attempt_ = Duration::zero();
  }
  add_busy(start, d);
}

void NodeAgent::on_mac_acked(Time ready, Time acked, Bytes size) {
  if (acked <= ready) return;  // no time elapsed: no rate to take
  ++acks_;
  throughput_.update(static_cast<double>(size.count()) / (acked - ready).secs());
}

std::optional<double> NodeAgent::permissible_Bps() const {
  if (!busyness_.has_value() || !throughput_.has_value()) return std::nullopt;
  const double b = busyness_.value(), t = throughput_.value();
  if (b > 0) return (config_.busyness_threshold - b) * t / b;
  return config_.busyness_threshold * t;
}

bool NodeAgent::on_egress(std::span<uint8_t> packet) {
  if (peek_type(packet) != LatpType::kData) return false;
  ++egress_;
  const auto p = permissible_Bps();
  if (!p || !stamp_rate_feedback(packet, *p)) return false;
  ++stamped_;
  return true;
}

std::vector<std::pair<std::string, double>> NodeAgent::diagnostics() const {
  std::vector<std::pair<std::string, double>> d = {
      {"attempts", static_cast<double>(attempts_)},
      {"acks", static_cast<double>(acks_)},
      {"latp_egress", static_cast<double>(egress_)},
      {"latp_stamped", static_cast<double>(stamped_)},
  };
  // Undefined (absent) before the PHY has been busy over a span of time.
  if (first_busy_ && last_busy_end_ > *first_busy_) {
    d.emplace_back("busy_fraction", busy_total_ / (last_busy_end_ - *first_busy_));
  }
  if (busyness_.has_value()) d.emplace_back("busyness", busyness_.value());
  if (throughput_.has_value()) d.emplace_back("throughput_Bps", throughput_.value());
  if (auto p = permissible_Bps()) d.emplace_back("permissible_Bps", *p);
  return d;
}

}  // namespace mantra::latp
