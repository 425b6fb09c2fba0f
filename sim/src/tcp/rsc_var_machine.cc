#include "tcp/rsc_var_machine.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace mantra::sim {

namespace {

constexpr double kSrttGain = 0.125;  // RFC 6298's alpha

template <typename T>
void push_bounded(std::deque<T>& d, T value, size_t bound) {
  d.push_back(value);
  while (d.size() > bound) d.pop_front();
}

}  // namespace

void RscVarMachine::on_rtt_sample(double now_s, double rtt_s) {
  if (!(rtt_s > 0)) return;
  srtt_s_ = srtt_s_ > 0 ? (1 - kSrttGain) * srtt_s_ + kSrttGain * rtt_s : rtt_s;
  if (state_ == RscVarState::kNormal) {  // 4.2.1: T_base starts at half the first RTT
    set_t_base(rtt_s / 2);
    state_ = RscVarState::kSlowStart;
    last_update_s_ = now_s;
    k_ = config_.k_normal;
  }
}

std::optional<double> RscVarMachine::on_data(double now_s, uint32_t bytes) {
  if (state_ == RscVarState::kNormal) return std::nullopt;
  // Eq. 8: the data received within the last sRTT, over sRTT.
  arrivals_.emplace_back(now_s, bytes);
  bytes_in_srtt_ += bytes;
  while (!arrivals_.empty() && arrivals_.front().first <= now_s - srtt_s_) {
    bytes_in_srtt_ -= arrivals_.front().second;
    arrivals_.pop_front();
  }
  if (sampling_from_s_ < 0) sampling_from_s_ = now_s + srtt_s_;
  if (now_s >= sampling_from_s_) {
    const double at = static_cast<double>(bytes_in_srtt_) / srtt_s_;
    push_bounded(at_samples_, at, static_cast<size_t>(std::max(config_.k_normal, config_.k_congestion)));
    // K from the fluctuation level (the long-term one by default), then
    // VAR_AT (eqs. 2, 3) over the last K samples.
    const double level = config_.k_from_long_term ? dispersion(config_.k_normal) : var_;
    k_ = level > config_.theta_co ? config_.k_congestion : config_.k_normal;
    var_ = dispersion(k_);
    push_bounded(var_samples_, var_, static_cast<size_t>(config_.n_average));
  }
  if (now_s - last_update_s_ >= config_.update_srtts * srtt_s_) update_t_base(now_s);
  return now_s + config_.timeout_srtts * srtt_s_;
}

void RscVarMachine::on_receive_timeout(double now_s) {
  if (state_ == RscVarState::kNormal) return;
  ++counters_.timeouts;
  set_t_base(config_.beta * t_base_s_);  // 4.2.4
  if (state_ == RscVarState::kSlowStart) {
    state_ = RscVarState::kCongestionAvoidance;
    counters_.slow_start_end_s = now_s;
  }
}

void RscVarMachine::update_t_base(double now_s) {
  last_update_s_ = now_s;
  ++counters_.updates;
  const double before = t_base_s_;
  const double v = var_average();
  bool to_ca = false;
  if (state_ == RscVarState::kSlowStart) {
    if (v < config_.theta_ss_low) {
      set_t_base(config_.alpha * t_base_s_);
    } else if (v > config_.theta_ss_high) {  // congestion: back off and leave slow start
      set_t_base(config_.beta * t_base_s_);
      to_ca = true;
    }
    unchanged_updates_ = t_base_s_ == before ? unchanged_updates_ + 1 : 0;
    if (unchanged_updates_ >= config_.ss_stable_updates) to_ca = true;  // the interval is near its optimum
  } else {
    if (v < config_.theta_ca_low) {
      set_t_base(t_base_s_ - config_.gamma_s);
    } else if (v > config_.theta_ca_high) {
      set_t_base(t_base_s_ + config_.delta_s);
    }
  }
  if (t_base_s_ < before) ++counters_.decreases;
  if (t_base_s_ > before) ++counters_.increases;
  if (to_ca) {
    state_ = RscVarState::kCongestionAvoidance;
    counters_.slow_start_end_s = now_s;
  }
}

void RscVarMachine::set_t_base(double t_s) { t_base_s_ = std::clamp(t_s, config_.min_t_base_s, config_.max_t_base_s); }

double RscVarMachine::dispersion(int k) const {
  const size_t m = std::min(at_samples_.size(), static_cast<size_t>(k));
  if (m < 2) return 0;
  const auto first = at_samples_.end() - static_cast<std::ptrdiff_t>(m);
  const double mean = std::accumulate(first, at_samples_.end(), 0.0) / static_cast<double>(m);
  if (!(mean > 0)) return 0;
  double spread = 0;
  for (auto it = first; it != at_samples_.end(); ++it) {
    const double d = *it - mean;
    spread += config_.dispersion == RscVarDispersion::kStdDev ? d * d : std::abs(d);
  }
  spread /= static_cast<double>(m - 1);
  return (config_.dispersion == RscVarDispersion::kStdDev ? std::sqrt(spread) : spread) / mean;
}

double RscVarMachine::var_average() const {
  if (var_samples_.empty()) return 0;
  return std::accumulate(var_samples_.begin(), var_samples_.end(), 0.0) / static_cast<double>(var_samples_.size());
}

double RscVarMachine::t_ack_s() const { return t_base_s_ * std::exp(var_); }

bool RscVarMachine::on_ack(uint32_t ack, uint32_t echo) {
  if (state_ == RscVarState::kNormal) {
    ++counters_.acks_immediate;
    return true;
  }
  acks_.push_back({ack, echo});
  ++counters_.acks_queued;
  return false;
}

std::optional<QueuedAck> RscVarMachine::on_ack_timer(double now_s) {
  if (acks_.empty()) return std::nullopt;
  const QueuedAck head = acks_.front();
  acks_.pop_front();
  last_ack_sent_s_ = now_s;
  return head;
}

std::optional<double> RscVarMachine::next_ack_at_s() const {
  if (acks_.empty()) return std::nullopt;
  return last_ack_sent_s_ < 0 ? 0 : last_ack_sent_s_ + t_ack_s();
}

std::optional<uint32_t> RscVarMachine::advertised_window_bytes(uint32_t mss) const {
  if (state_ == RscVarState::kNormal) return std::nullopt;
  // Eq. 5 in whole segments, rounded up: a sender sends whole segments, so a
  // window of 1.4 segments would carry one and halve the rate T_ack asks for.
  const double segments = std::max(1.0, std::ceil(srtt_s_ / t_ack_s() - 1e-9));
  return static_cast<uint32_t>(std::min(segments * mss, 1e9));
}

const char* rsc_var_state_name(RscVarState state) {
  switch (state) {
    case RscVarState::kNormal:
      return "normal";
    case RscVarState::kSlowStart:
      return "slow_start";
    case RscVarState::kCongestionAvoidance:
      return "congestion_avoidance";
  }
  return "?";
}

}  // namespace mantra::sim
