#include "rate/rate_sender.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "common/throughput_equation.h"

namespace mantra {

constexpr int64_t kMaxDatagramBytes = 65507;            // the largest UDP payload over IPv4
constexpr Duration kFloorTmbi = Duration::seconds(64);  // RFC 5348's t_mbi: the floor's floor

void SendingConfig::parse(ParamReader& r, size_t header_bytes, SendingConfig& out) {
  const double size = r.get("packet_size", static_cast<double>(out.packet_bytes));
  r.require(size >= static_cast<double>(header_bytes) && size <= static_cast<double>(kMaxDatagramBytes),
            "packet_size must be between " + std::to_string(header_bytes) + " and " +
                std::to_string(kMaxDatagramBytes) + " bytes");
  out.packet_bytes = static_cast<int64_t>(size);
  DataSource::parse(r, out.source);
  const double floor = r.get("safety_floor", out.safety_floor ? 1 : 0);
  r.require(floor == 0 || floor == 1, "safety_floor must be 0 or 1");
  out.safety_floor = floor == 1;
}

RateSender::RateSender(SendingConfig config, std::unique_ptr<RateLaw> law)
    : safety_floor_(config.safety_floor),
      law_(std::move(law)),
      state_(config.packet_bytes),
      source_(config.source, config.packet_bytes) {
  state_.keep_send_log_ = law_->wants_send_log();
}

void RateSender::arm_nofeedback(Time now, std::optional<Duration> interval) {
  state_.timer_set_at_ = now;
  state_.nofeedback_deadline_.reset();
  if (interval) state_.nofeedback_deadline_ = now + *interval;
}

void RateSender::start(Time now) {
  state_.started_ = true;
  state_.start_ = now;
  state_.last_send_ = now;
  t_nom_ = now;
  source_.start(now);
  law_->on_start(now, state_);
  arm_nofeedback(now, law_->nofeedback_interval(state_));
}

void RateSender::handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) {
  const ReportOutcome outcome = state_.started_ ? law_->on_datagram(now, bytes, state_) : ReportOutcome::kRejected;
  if (outcome == ReportOutcome::kRejected) {
    ++stats_.datagrams_rejected;
    return;
  }
  stats_.count_received(bytes.size(), ecn);
  if (outcome == ReportOutcome::kIgnored) return;
  // A higher rate applies from the last packet on, not after the old, longer
  // gap (TFRC's first report lifts 1 packet/s to W_init/R).
  pull_next_send();
  arm_nofeedback(now, law_->nofeedback_interval(state_));
}

void RateSender::pull_next_send() {
  t_nom_ = std::min(t_nom_, state_.last_send_ + Bytes(state_.packet_bytes_) / allowed_rate());
}

std::optional<Rate> RateSender::floor_rate() const {
  if (!safety_floor_ || !state_.has_rtt()) return std::nullopt;
  const auto signal = law_->floor_signal();
  if (!signal) return std::nullopt;
  const auto s = static_cast<double>(state_.packet_bytes_);
  const double rtt_s = state_.rtt().smoothed().secs();
  double x = 0;
  if (signal->loss_event_rate > 0) {
    x = std::min(tfrc_rate(s, rtt_s, signal->loss_event_rate), 2 * signal->receive_rate_Bps);
    x = std::max(x, s / kFloorTmbi.secs());
  } else {
    x = std::max(2 * signal->receive_rate_Bps, s / rtt_s);
  }
  return Rate::bytes_per_sec(x);
}

Rate RateSender::floor_pacing(Rate floor) const {
  const auto signal = law_->floor_signal();
  if (!signal || signal->loss_event_rate <= 0) return floor;
  const double s = static_cast<double>(state_.packet_bytes_);
  const double inst = floor.bytes_per_sec() * state_.rtt().sqrt_mean_s() / std::sqrt(state_.rtt().latest().secs());
  return Rate::bytes_per_sec(std::max(inst, s / kFloorTmbi.secs()));
}

Rate RateSender::capped(Rate law_rate) const {
  const auto floor = floor_rate();
  return floor ? std::min(law_rate, std::max(*floor, Rate::bps(1))) : law_rate;
}

void RateSender::handle_timeout(Time now) {
  if (!state_.started_) return;
  if (auto due = law_->rate_update_due(); due && now >= *due) law_->on_rate_update(now, state_);
  if (state_.nofeedback_deadline_ && now >= *state_.nofeedback_deadline_) {
    const Rate before = law_->allowed_rate(state_);
    const NofeedbackNext next = law_->on_nofeedback(now, state_);
    // A law may raise the rate here (LATP's floor of one packet per RTT, when
    // the RTT has shrunk): a rate that rose applies at once, as after a report.
    if (law_->allowed_rate(state_) > before) pull_next_send();
    switch (next.kind) {
      case NofeedbackNext::Kind::kRestart:
        arm_nofeedback(now, law_->nofeedback_interval(state_));
        break;
      case NofeedbackNext::Kind::kAfter:  // the timer's set time stays: the law keeps its frozen view (ADTFRC)
        state_.nofeedback_deadline_ = now + next.after;
        break;
      case NofeedbackNext::Kind::kStop:
        state_.nofeedback_deadline_.reset();
        break;
    }
  }
}

std::optional<Datagram> RateSender::poll_transmit(Time now) {
  if (!state_.started_) start(now);
  if (auto due = law_->control_due(); due && now >= *due) {
    if (auto control = law_->make_control(now, state_)) {
      stats_.count_sent(control->bytes.size());
      return control;
    }
  }
  if (law_->data_paused()) return std::nullopt;
  return next_data(now);
}

std::optional<Datagram> RateSender::next_data(Time now) {
  // Late means it cannot arrive by its deadline, the one-way delay taken as
  // half the RTT estimate. A sender that has sent nothing for a whole RTT
  // estimate goes by the deadline alone: only a packet sent can refresh the
  // estimate, and one inflated by a route discovery or an outage would
  // otherwise call every packet late, for ever.
  const Duration rtt = state_.rtt_.has_sample() ? state_.rtt_.smoothed() : Duration::zero();
  const Duration one_way = now - state_.last_send_ < rtt ? rtt / 2 : Duration::zero();
  const auto packet = source_.head(now, one_way);  // drops what is over the bound or late
  if (now < t_nom_ || !packet) return std::nullopt;
  const int64_t bytes = std::max<int64_t>(packet->bytes, static_cast<int64_t>(law_->data_header_bytes()));

  Datagram d;
  d.kind = DatagramKind::kData;
  d.seq = next_seq_;
  d.app_id = packet->app_id;
  d.ecn = law_->data_ecn();
  source_.pop();
  const bool more_waiting = source_.has_packet(now);
  law_->write_data({next_seq_++, now, bytes, !more_waiting}, state_, d.bytes);
  if (state_.keep_send_log_) state_.sends_.emplace_back(now, more_waiting);
  state_.last_send_ = now;
  ++state_.data_packets_sent_;
  state_.data_bytes_sent_ += bytes;
  if (source_.kind() == SourceKind::kOffered) {
    state_.packet_bytes_ = state_.data_bytes_sent_ / state_.data_packets_sent_;
  }

  // Pacing (RFC 5348 §4.6): the next packet after this one's size at the
  // pacing rate, with no burst credit after an idle spell.
  // Where the floor holds the rate down it also paces as TFRC would: with
  // §4.5's oscillation reduction once there is loss.
  const Rate law_pacing = law_->pacing_rate(state_);
  Rate pacing = law_pacing;
  if (const auto floor = floor_rate(); floor && *floor < law_->allowed_rate(state_)) {
    ++floor_capped_packets_;
    pacing = std::min(law_pacing, floor_pacing(*floor));
  }
  const Duration ipi = law_->next_gap(Bytes(bytes) / pacing);
  if (t_nom_ + ipi < now) t_nom_ = now;
  t_nom_ += ipi;
  stats_.count_sent(d.bytes.size());
  return d;
}

std::optional<Time> RateSender::poll_timeout() const {
  if (!state_.started_) return std::nullopt;
  std::optional<Time> next;
  const auto consider = [&next](std::optional<Time> t) {
    if (t && (!next || *t < *next)) next = t;
  };
  if (!law_->data_paused()) {
    if (source_.has_packet(t_nom_)) {
      consider(t_nom_);
    } else if (auto arrival = source_.next_arrival(t_nom_)) {
      consider(std::max(t_nom_, *arrival));
    }
  }
  consider(state_.nofeedback_deadline_);
  consider(law_->control_due());
  consider(law_->rate_update_due());
  return next;
}

EndpointStats RateSender::stats() const {
  EndpointStats s = stats_;
  s.diagnostics = law_->diagnostics(state_);
  if (source_.kind() != SourceKind::kGreedy) {
    s.diagnostics.emplace_back("source_dropped", static_cast<double>(source_.dropped_over_bound()));
  }
  if (source_.kind() == SourceKind::kOffered) {  // only offered packets carry deadlines
    s.diagnostics.emplace_back("source_late", static_cast<double>(source_.dropped_late()));
  }
  if (safety_floor_) {
    const auto floor = floor_rate();
    s.diagnostics.emplace_back("floor_rate_bps", floor ? static_cast<double>(floor->bits_per_sec()) : -1.0);
    s.diagnostics.emplace_back("floor_capped_packets", static_cast<double>(floor_capped_packets_));
  }
  return s;
}

}  // namespace mantra
