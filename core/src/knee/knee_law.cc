#include "knee/knee_law.h"

#include <algorithm>
#include <cmath>

#include "common/floor_report.h"

namespace mantra::knee {
namespace {

constexpr int64_t kTimestampSpanMs = 1 << 16;
constexpr Duration kInitialNofeedback = Duration::seconds(2);  // RFC 5348's, before an RTT
constexpr Duration kMinRtt = Duration::micros(100);
constexpr Duration kLowestRateInterval = Duration::seconds(1);  // never below 1 packet/s

}  // namespace

KneeLaw::KneeLaw(const SenderConfig& config)
    : config_(config),
      rate_Bps_(static_cast<double>(config.sending.packet_bytes) / kInitialInterval.secs()),
      cruise_for_(Duration::from_seconds(config.cruise_s)),
      floor_delay_(Duration::from_seconds(config.base_window_s)),
      long_floor_(Duration::from_seconds(config.long_window_s)),
      best_received_(Duration::from_seconds(config.long_window_s)),
      path_knees_(Duration::from_seconds(config.long_window_s)) {}

std::string KneeLaw::parse(const Params& params, SenderConfig& out) {
  out = {};
  out.sending.safety_floor = true;  // mantra's default: the loss floor holds whatever the other signals say
  ParamReader r(params);
  SendingConfig::parse(r, kDataHeaderBytes, out.sending);
  out.startup_gain = r.get("startup_gain", out.startup_gain);
  out.cruise_margin = r.get("cruise_margin", out.cruise_margin);
  out.probe_gain = r.get("probe_gain", out.probe_gain);
  out.drain_factor = r.get("drain_factor", out.drain_factor);
  out.cruise_s = r.get("cruise_s", out.cruise_s);
  out.cruise_max_s = r.get("cruise_max_s", out.cruise_max_s);
  const double probe_reports = r.get("probe_reports", out.probe_reports);
  out.queue_packets = r.get("queue_packets", out.queue_packets);
  out.base_window_s = r.get("base_window_s", out.base_window_s);
  out.queue_min_ms = r.get("queue_min_ms", out.queue_min_ms);
  const double nofeedback = r.get("nofeedback_intervals", out.nofeedback_intervals);
  const double agent = r.get("agent_signal", out.agent_signal ? 1 : 0);
  const double delay = r.get("delay_signal", out.delay_signal ? 1 : 0);
  const double path_ttl = r.get("path_ttl", out.path_ttl ? 1 : 0);
  const double ecn = r.get("ecn", out.ecn ? 1 : 0);
  const double stalls = r.get("stalls", out.stalls ? 1 : 0);
  const double compete = r.get("compete", out.compete ? 1 : 0);
  const double path_knees = r.get("path_knees", out.path_knees ? 1 : 0);
  out.long_window_s = r.get("long_window_s", out.long_window_s);
  const double src = r.get("src_port", out.src_port), dst = r.get("dst_port", out.dst_port);
  r.require(out.startup_gain > 1 && out.startup_gain <= 4, "startup_gain must be in (1, 4]");
  r.require(out.cruise_margin >= 0 && out.cruise_margin < 1, "cruise_margin must be in [0, 1)");
  r.require(out.probe_gain > 0 && out.probe_gain <= 1, "probe_gain must be in (0, 1]");
  r.require(out.drain_factor > 0 && out.drain_factor < 1, "drain_factor must be in (0, 1)");
  r.require(out.cruise_s >= 0 && out.cruise_s <= 3600, "cruise_s must be in [0, 3600]");
  r.require(out.cruise_max_s >= out.cruise_s && out.cruise_max_s <= 3600, "cruise_max_s must be in [cruise_s, 3600]");
  r.require(probe_reports >= 1 && probe_reports <= 100 && probe_reports == std::floor(probe_reports),
            "probe_reports must be a whole number in [1, 100]");
  r.require(out.queue_packets > 0 && out.queue_packets <= 100, "queue_packets must be in (0, 100]");
  r.require(out.queue_min_ms >= 0 && out.queue_min_ms <= 10000, "queue_min_ms must be in [0, 10000]");
  r.require(out.base_window_s > 0 && out.base_window_s <= 3600, "base_window_s must be in (0, 3600]");
  r.require(nofeedback >= 1 && nofeedback <= 100 && nofeedback == std::floor(nofeedback),
            "nofeedback_intervals must be a whole number in [1, 100]");
  r.require(agent == 0 || agent == 1, "agent_signal must be 0 or 1");
  r.require(delay == 0 || delay == 1, "delay_signal must be 0 or 1");
  r.require(path_ttl == 0 || path_ttl == 1, "path_ttl must be 0 or 1");
  r.require(ecn == 0 || ecn == 1, "ecn must be 0 or 1");
  r.require(stalls == 0 || stalls == 1, "stalls must be 0 or 1");
  r.require(compete == 0 || compete == 1, "compete must be 0 or 1");
  r.require(path_knees == 0 || path_knees == 1, "path_knees must be 0 or 1");
  r.require(out.long_window_s >= out.base_window_s && out.long_window_s <= 3600,
            "long_window_s must be in [base_window_s, 3600]");
  r.require(src >= 0 && src <= 65535 && dst >= 0 && dst <= 65535, "src_port and dst_port must be 16-bit");
  out.probe_reports = static_cast<int>(probe_reports);
  out.nofeedback_intervals = static_cast<int>(nofeedback);
  out.agent_signal = agent == 1;
  out.delay_signal = delay == 1;
  out.path_ttl = path_ttl == 1;
  out.ecn = ecn == 1;
  out.stalls = stalls == 1;
  out.compete = compete == 1;
  out.path_knees = path_knees == 1;
  out.src_port = static_cast<uint16_t>(src);
  out.dst_port = static_cast<uint16_t>(dst);
  return r.finish();
}

void KneeLaw::write_data(const DataStamp& stamp, const SendState& state, std::vector<uint8_t>& out) {
  DataHeader h;
  h.latp.src_port = config_.src_port;
  h.latp.dst_port = config_.dst_port;
  h.latp.seq = stamp.seq & latp::kSeqMask;
  h.latp.urgent = urgent_next_ || !state.has_rtt();
  h.latp.timestamp_ms = static_cast<uint16_t>((stamp.now.us() / 1000) % kTimestampSpanMs);
  h.latp.rtt_ms =
      state.has_rtt()
          ? static_cast<uint16_t>(std::clamp<int64_t>(std::llround(state.rtt().smoothed().ms()), 1, UINT16_MAX))
          : 0;
  h.send_time_us = stamp.now.us();
  urgent_next_ = false;
  if (stamp.app_limited) last_app_limited_ = stamp.now;
  encode_data(h, static_cast<size_t>(stamp.bytes), out);
}

std::optional<Duration> KneeLaw::nofeedback_interval(const SendState& state) const {
  if (!state.has_rtt()) return kInitialNofeedback;
  return std::max(state.rtt().smoothed(), report_interval_) * config_.nofeedback_intervals;
}

ReportOutcome KneeLaw::on_datagram(Time now, std::span<const uint8_t> bytes, SendState& state) {
  const auto r = decode_report(bytes);
  if (!r || r->src_port != config_.dst_port || r->dst_port != config_.src_port) return ReportOutcome::kRejected;
  // It echoes a packet sent before now, `elapsed` after its arrival.
  if (r->echo_send_time_us < 0 || r->echo_send_time_us > now.us() ||
      int64_t{r->elapsed_us} > now.us() - r->echo_send_time_us) {
    return ReportOutcome::kRejected;
  }
  const Duration sample = Duration::micros(now.us() - r->echo_send_time_us - r->elapsed_us);
  state.add_rtt_sample(std::max(sample, kMinRtt));
  on_report(now, *r, state);
  return ReportOutcome::kTaken;
}

KneeLaw::Reading KneeLaw::read(Time now, const Report& r, const SendState& state) {
  Reading out;
  if (r.interval_us > 0) out.receive_rate_Bps = static_cast<double>(r.bytes) * 1e6 / r.interval_us;
  if (out.receive_rate_Bps > 0) floor_ = FloorSignal{floor_loss_from_ppb(r.loss_event_rate_ppb), out.receive_rate_Bps};
  if (r.periodic && r.interval_us > 0) report_interval_ = Duration::micros(r.interval_us);
  if (r.packets == 0) return out;
  received_.push_back({now, r.packets, r.bytes, r.interval_us});
  while (received_.front().at < now - kRateWindow) received_.pop_front();

  const FloorKey key = FloorKey::of(config_.path_ttl ? r.ttl : 0, r.timed_bytes);
  std::optional<int64_t> base_us, long_us;
  if (r.no_delay) {
    // No full-size packet: no delay to judge.
  } else if (config_.path_ttl && r.ttl_changed) {
    steady_key_.reset();
    waited_since_.reset();
    // Packets of two paths: judged on the longer one's floor, once the new one has one.
    floor_delay_.expire(now);
    if (floor_delay_.of(key)) base_us = floor_delay_.highest();
  } else {
    floor_delay_.add(now, key, r.owd_min_us);
    long_floor_.add(now, key, r.owd_min_us);
    if (!steady_key_ || steady_key_->first != key) steady_key_ = {key, now};
    base_us = floor_delay_.of(key);
    long_us = long_floor_.of(key);
  }
  const bool ce = r.ce_packets > 0;
  const bool agent = config_.agent_signal && r.r_min_Bps < 0;
  ce_queues_ += ce ? 1 : 0;
  agent_queues_ += agent ? 1 : 0;
  out.marked = ce || agent;
  out.queue = out.marked;
  if (base_us) {
    base_owd_us_ = base_us;
    const double packet_rate_Bps = knee_Bps_.value_or(std::max(out.receive_rate_Bps, rate_Bps_));
    const double packet_time_us = static_cast<double>(state.packet_bytes()) * 1e6 / packet_rate_Bps;
    const double queue_us = static_cast<double>(r.owd_mean_us) - static_cast<double>(*base_us);  // any wire values
    last_queue_ms_ = queue_us / 1000.0;
    out.queue_ms = last_queue_ms_;
    const double threshold_us = std::max(config_.queue_packets * packet_time_us, config_.queue_min_ms * 1000);
    out.queue = out.queue || (config_.delay_signal && queue_us > threshold_us);
    // The standing test: since when every report's packets all waited (the
    // report's minimum above the long floor) by half a packet time at the
    // best rate this path delivered (a starved law's own packet time would
    // hide any queue). The wait begins at a report the law reads as a queue
    // itself, when it drains: a queue below its own threshold (other mantra
    // flows', each at its share) is one its drains were never asked to empty.
    // Only on a path of base_window_s of reports: a path that has just come
    // (back) carries its first, queued packets. And only on a path the TTL
    // names: with one floor for every hop count, a longer path's floor stands
    // above a shorter one's for the whole long window, and reads as a queue.
    const bool steady =
        key.ttl != 0 && steady_key_ && now - steady_key_->second >= Duration::from_seconds(config_.base_window_s);
    if (!long_us || !steady) waited_since_.reset();
    if (long_us && steady) {
      best_received_.add(now, key, std::max(out.receive_rate_Bps, 1.0));
      const double best_Bps = *best_received_.of(key);  // this report's is in the window
      const double best_packet_us = static_cast<double>(state.packet_bytes()) * 1e6 / best_Bps;
      const double standing_threshold_us =
          std::max(config_.queue_packets * best_packet_us, config_.queue_min_ms * 1000);
      if (static_cast<double>(r.owd_min_us - *long_us) > standing_threshold_us) {
        if (!waited_since_ && out.queue) waited_since_ = now - Duration::micros(r.interval_us);
      } else {
        waited_since_.reset();
      }
      out.min_queue_ms = static_cast<double>(r.owd_min_us - *long_us) / 1000.0;
      out.threshold_ms = standing_threshold_us / 1000.0;
      out.best_received_Bps = best_Bps;
    }
  }
  // With no floor to judge it on, a report's delay says nothing: it shows a
  // queue by a mark, or nothing at all (not the absence of a queue).
  out.judged = base_us.has_value() || !config_.delay_signal;
  if (out.judged) last_judged_queue_ = out.queue;

  queues_ += out.queue ? 1 : 0;
  return out;
}

void KneeLaw::enter(Phase phase, Time now) {
  phase_ = phase;
  phase_since_ = now;
  probe_clean_reports_ = 0;
  probe_bytes_ = 0;
  probe_us_ = 0;
}

void KneeLaw::set_rate(double rate_Bps, const SendState& state) {
  rate_Bps_ = std::max(rate_Bps, static_cast<double>(state.packet_bytes()) / kLowestRateInterval.secs());
}

void KneeLaw::on_report(Time now, const Report& r, const SendState& state) {
  const double previous_queue_ms = last_queue_ms_;
  const bool queue_before = last_judged_queue_;
  const Reading in = read(now, r, state);
  if (r.packets == 0) return;
  if (config_.path_ttl && !r.ttl_changed && r.ttl != 0) {
    if (path_ttl_ != 0 && r.ttl != path_ttl_ && knee_Bps_) on_new_path(now, FloorKey::of(r.ttl, r.timed_bytes), state);
    path_ttl_ = r.ttl;
  }
  if (!in.judged && !in.queue) {  // nothing known: no growth, no step, no clean probe report
    ++unjudged_;
    return;
  }
  const double x_recv = received_Bps(now, kRateWindow);
  const Duration settle = state.rtt().smoothed() + report_interval_;  // until reports show the new rate
  // A stall: a queue that came with a loss after a report without one. A
  // link failed frames until its MAC gave up (a bad channel, a broken link):
  // the queue is what waited behind it, not what a rate above the knee built
  // (that grows over reports, with no loss until a drop-tail queue fills).
  // It is drained, but it neither sets nor lowers K nor fails a probe.
  // A detour: a queue by the delay in an interval whose packets came over two
  // hop counts (the TTL changed). They waited for the route's repair (a
  // salvage, a discovery) and are judged on the longer path's floor: the
  // queue is not what the rate built on either path. Drained like a stall;
  // the path the reports settle on is judged by its own reports (a new hop
  // count is searched again). A mark is set by a queue on the path the
  // packet took: never a detour.
  const bool detour = config_.stalls && config_.path_ttl && in.queue && !in.marked && r.ttl_changed;
  const bool stall = detour || (config_.stalls && in.queue && r.loss_detected && !queue_before);
  stalls_ += stall ? 1 : 0;
  detours_ += detour ? 1 : 0;
  // A queue that every report waited in for kStandingSettles settling times
  // (an RTT and a report interval each: the law's drains had their time) is
  // not the law's: a loss-based flow (TCP) or an unresponsive one holds it.
  // Backing off only starves: follow the loss floor (TFRC's equation) until
  // a dip shows the queue was ours. The law must also get less than
  // kCompeteDip of the best this path gave it in long_window_s: another flow
  // takes the path. (A chain whose capacity fell to the drain's rate holds a
  // standing queue too, at the law's own rate.)
  const bool standing =
      waited_since_ && now - *waited_since_ >= settle * kStandingSettles && x_recv < kCompeteDip * in.best_received_Bps;
  if (config_.compete && config_.sending.safety_floor && standing && phase_ != Phase::kCompete) {
    ++competes_;
    dip_since_.reset();
    enter(Phase::kCompete, now);
  }
  switch (phase_) {
    case Phase::kStartup:
    case Phase::kRecover:
      if (stall) {
        phase_since_ = now;  // no growth this interval: the backlog drains below the knee
      } else if (in.queue) {
        // The receive rate is the path's at a queue only where the sender filled
        // its rate; what an application-limited sender's reports carried is the
        // application's rate. Then, and after an outage, a known K falls by at
        // most one drain step.
        const bool app_limited = app_limited_since(now - kRateWindow);
        const bool from_receive_rate = !knee_Bps_ || (phase_ == Phase::kStartup && !app_limited);
        if (phase_ == Phase::kStartup && app_limited && knee_Bps_) ++queues_app_limited_;
        knee_Bps_ = from_receive_rate ? x_recv : lowered_knee(x_recv);
        drain(now, x_recv, state);
      } else if (now - phase_since_ >= report_interval_) {
        phase_since_ = now;
        // What the path delivered bounds the growth: a sender held below its rate
        // (by the loss floor, or a host that cannot send faster) sees no queue,
        // and its rate must not run away from what it can send. The bound stops
        // the growth; it never lowers the rate (a report of the first packet
        // alone, or the few after an outage, carries almost no receive rate).
        const double grown_Bps = rate_Bps_ * config_.startup_gain;
        const double bound_Bps = x_recv > 0 ? kMaxOverReceived * x_recv : grown_Bps;
        set_rate(std::max(rate_Bps_, std::min(grown_Bps, bound_Bps)), state);
        if (phase_ == Phase::kRecover && knee_Bps_ && rate_Bps_ >= (1 - config_.cruise_margin) * *knee_Bps_)
          cruise(now, state);
      }
      break;
    case Phase::kDrain:
      if (now - phase_since_ < settle) {
        break;
      } else if (!in.queue) {
        cruise(now, state);
      } else if (in.queue_ms > previous_queue_ms) {
        // Still growing: the path carries less than the drain, if it delivered
        // less than the drain rate; if it delivered that much, the delay moved
        // (a lagging bottleneck, a retry), not the capacity. A stall this drain
        // began at that goes on (another loss), or a detour, says nothing of
        // the capacity.
        const bool stalled = (draining_stall_ && r.loss_detected) || detour;
        const bool short_of_drain = x_recv < rate_Bps_;
        if (short_of_drain && !stalled) knee_Bps_ = lowered_knee(x_recv);
        if (short_of_drain || stalled) drain(now, x_recv, state, stalled);
      }
      break;
    case Phase::kCruise:
      if (stall) {
        drain(now, x_recv, state, true);
      } else if (in.queue) {  // the knee fell, or a passing burst: one probe step down
        knee_bracketed_ = true;
        knee_Bps_ = std::max(std::min(*knee_Bps_, x_recv), (1 - config_.probe_gain) * *knee_Bps_);
        cruise_for_ = Duration::from_seconds(config_.cruise_s);
        drain(now, x_recv, state);
      } else if (now - phase_since_ >= cruise_for_) {
        ++probes_;
        enter(Phase::kProbe, now);
        set_rate(probe_rate_Bps(state), state);
      }
      break;
    case Phase::kCompete:
      compete(now, in, x_recv, settle, state);
      break;
    case Phase::kProbe:
      if (stall) {  // no verdict on the probe: drain, cruise as long as before, probe again
        drain(now, x_recv, state, true);
      } else if (in.queue) {  // the knee holds; the next probe waits twice as long
        knee_bracketed_ = true;
        cruise_for_ = std::min(cruise_for_ * 2, Duration::from_seconds(config_.cruise_max_s));
        drain(now, x_recv, state);
      } else if (r.echo_send_time_us - int64_t{r.interval_us} >= phase_since_.us()) {  // probe packets only
        ++probe_clean_reports_;
        probe_bytes_ += r.bytes;
        probe_us_ += r.interval_us;
        if (probe_clean_reports_ < config_.probe_reports || now - phase_since_ < settle + probe_detect_time(state))
          break;
        ++probes_up_;
        ++probes_passed_in_row_;
        // Crossed without a queue: the knee is at least what arrived at this rate
        // (not the rate itself, which the sender may not have reached). A probe
        // the application held below it (its source ran dry) tested less than
        // the probe's rate: K rises to that rate all the same, unverified until
        // the application fills it, but to at most twice what arrived.
        const double probed_Bps = probe_us_ > 0 ? probe_bytes_ * 1e6 / probe_us_ : 0;
        const bool app_limited = app_limited_since(phase_since_);
        const double reached_Bps = app_limited ? kMaxOverReceived * probed_Bps : probed_Bps;
        if (app_limited) ++probes_app_limited_;
        knee_Bps_ = std::max(*knee_Bps_, std::min(rate_Bps_, reached_Bps));
        cruise_for_ = Duration::from_seconds(config_.cruise_s);
        ++probes_;
        enter(Phase::kProbe, now);
        set_rate(probe_rate_Bps(state), state);
      }
      break;
  }
  // K as found on this path (not startup's, which is another path's until a queue sets it).
  if (config_.path_knees && knee_Bps_ && r.ttl != 0 && !r.ttl_changed && phase_ != Phase::kStartup &&
      phase_ != Phase::kCompete) {
    path_knees_.add(now, FloorKey::of(r.ttl, r.timed_bytes), {now, *knee_Bps_});
  }
}

void KneeLaw::on_new_path(Time now, FloorKey key, const SendState& state) {
  ++new_paths_;
  search_again();
  cruise_for_ = Duration::from_seconds(config_.cruise_s);
  // A path of this hop count and size the law held a K on within the long
  // window: start from that K, between a drain step and the cruise below it,
  // and recover to the cruise. A queue there lowers it as after an outage.
  path_knees_.expire(now);
  const auto held = path_knees_.of(key);
  if (config_.path_knees && held) {
    ++known_paths_;
    knee_Bps_ = held->second;
    set_rate(std::clamp(rate_Bps_, config_.drain_factor * *knee_Bps_, (1 - config_.cruise_margin) * *knee_Bps_), state);
    enter(Phase::kRecover, now);
    return;
  }
  // The knee of the new path is unknown, above or below K: grow from the rate
  // that crosses now until a queue shows, and take K from that queue.
  enter(Phase::kStartup, now);
}

void KneeLaw::search_again() {
  knee_bracketed_ = false;
  probes_passed_in_row_ = 0;
}

bool KneeLaw::app_limited_since(Time t) const { return last_app_limited_ && *last_app_limited_ >= t; }

double KneeLaw::lowered_knee(double receive_rate_Bps) const {
  return std::max(std::min(*knee_Bps_, receive_rate_Bps), config_.drain_factor * *knee_Bps_);
}

void KneeLaw::drain(Time now, double receive_rate_Bps, const SendState& state, bool stall) {
  enter(Phase::kDrain, now);
  draining_stall_ = stall;
  probes_passed_in_row_ = 0;
  // Below what the path delivers, so that the queue empties.
  const double delivered = receive_rate_Bps > 0 ? std::min(*knee_Bps_, receive_rate_Bps) : *knee_Bps_;
  set_rate(config_.drain_factor * delivered, state);
}

void KneeLaw::compete(Time now, const Reading& in, double receive_rate_Bps, Duration settle, const SendState& state) {
  if (dip_since_) {
    if (in.min_queue_ms && *in.min_queue_ms <= in.threshold_ms) {
      // A packet crossed with no standing queue while the law sent half: the
      // queue was the law's own. Search the knee again.
      dip_since_.reset();
      knee_Bps_.reset();
      search_again();
      enter(Phase::kStartup, now);
      return;
    }
    // Long enough to empty the queue were it all the law's: at kCompeteDip of
    // the capacity it leaves at (1 - kCompeteDip) of it.
    if (now - *dip_since_ < settle + settle + dip_queue_ * (1 / (1 - kCompeteDip))) return;
    dip_since_.reset();  // it stood through the dip: not ours; compete on
    phase_since_ = now;
    set_rate(pre_dip_Bps_, state);
    return;
  }
  if (now - phase_since_ >= Duration::from_seconds(config_.base_window_s)) {
    ++dips_;
    dip_since_ = now;
    pre_dip_Bps_ = rate_Bps_;
    dip_queue_ = Duration::from_seconds(std::max(in.min_queue_ms.value_or(0), 0.0) / 1000.0);
    set_rate(kCompeteDip * (receive_rate_Bps > 0 ? std::min(receive_rate_Bps, rate_Bps_) : rate_Bps_), state);
    return;
  }
  // The loss floor decides: it is min(TFRC's equation, twice the report's
  // receive rate), and the law asks for that bound.
  if (in.receive_rate_Bps > 0) set_rate(kMaxOverReceived * in.receive_rate_Bps, state);
}

void KneeLaw::cruise(Time now, const SendState& state) {
  enter(Phase::kCruise, now);
  set_rate((1 - config_.cruise_margin) * *knee_Bps_, state);
}

double KneeLaw::received_Bps(Time now, Duration window) const {
  double bytes = 0, us = 0;
  for (auto it = received_.rbegin(); it != received_.rend(); ++it) {
    if (it != received_.rbegin() && it->at <= now - window) break;
    bytes += it->bytes;
    us += it->interval_us;
  }
  return us > 0 ? bytes * 1e6 / us : 0;
}

double KneeLaw::probe_rate_Bps(const SendState& state) const {
  const int doublings = knee_bracketed_ ? 0 : std::min(probes_passed_in_row_, kMaxProbeDoublings);
  const double step = config_.probe_gain * std::pow(2.0, doublings);
  const double least_excess_Bps =
      config_.queue_packets * static_cast<double>(state.packet_bytes()) / kLongestProbeDetect.secs();
  return *knee_Bps_ + std::max(step * *knee_Bps_, least_excess_Bps);
}

Duration KneeLaw::probe_detect_time(const SendState& state) const {
  const double excess_Bps = (rate_Bps_ - *knee_Bps_) > 0 ? rate_Bps_ - *knee_Bps_ : rate_Bps_;
  return Duration::from_seconds(config_.queue_packets * static_cast<double>(state.packet_bytes()) / excess_Bps);
}

NofeedbackNext KneeLaw::on_nofeedback(Time now, const SendState& state) {
  ++nofeedback_expiries_;
  urgent_next_ = true;
  if (phase_ == Phase::kCompete) {  // the competitor's queue is still there when reports return
    set_rate(rate_Bps_ / 2, state);
    return NofeedbackNext::restart();
  }
  search_again();  // the path may have changed
  if (state.has_rtt()) {
    enter(knee_Bps_ ? Phase::kRecover : Phase::kStartup, now);
    set_rate(rate_Bps_ / 2, state);
  }
  return NofeedbackNext::restart();
}

std::vector<std::pair<std::string, double>> KneeLaw::diagnostics(const SendState& state) const {
  std::vector<std::pair<std::string, double>> d = {{"rate_bps", rate_Bps_ * 8.0},
                                                   {"knee_bps", knee_Bps_.value_or(0) * 8.0},
                                                   {"phase", static_cast<double>(phase_)},
                                                   {"queue_reports", static_cast<double>(queues_)},
                                                   {"ce_queue_reports", static_cast<double>(ce_queues_)},
                                                   {"agent_queue_reports", static_cast<double>(agent_queues_)},
                                                   {"probes", static_cast<double>(probes_)},
                                                   {"probes_up", static_cast<double>(probes_up_)},
                                                   {"nofeedback_expiries", static_cast<double>(nofeedback_expiries_)},
                                                   {"last_queue_ms", last_queue_ms_}};
  d.emplace_back("new_paths", static_cast<double>(new_paths_));
  d.emplace_back("known_paths", static_cast<double>(known_paths_));
  d.emplace_back("probes_app_limited", static_cast<double>(probes_app_limited_));
  d.emplace_back("startup_queues_app_limited", static_cast<double>(queues_app_limited_));
  d.emplace_back("unjudged_reports", static_cast<double>(unjudged_));
  d.emplace_back("stall_reports", static_cast<double>(stalls_));
  d.emplace_back("detour_reports", static_cast<double>(detours_));
  d.emplace_back("competes", static_cast<double>(competes_));
  d.emplace_back("compete_dips", static_cast<double>(dips_));
  if (base_owd_us_) d.emplace_back("delay_floor_ms", static_cast<double>(*base_owd_us_) / 1000.0);
  if (state.has_rtt()) d.emplace_back("rtt_ms", state.rtt().smoothed().ms());
  return d;
}

}  // namespace mantra::knee
