// mantra's rate law (docs/protocols/mantra.md): find the path's knee, cruise
// just below it, probe it now and then.
//
// Model: on a multi-hop 802.11 chain a fixed rate below the knee crosses
// with no queue at all (one-way delay at its floor to a fraction of a
// millisecond), and one step above it the bottleneck's queue grows without
// bound. So the law keeps a knee estimate K (the highest rate seen to cross
// without a queue), sends a margin below it at a constant paced rate, and
// now and then probes one step above K. The congestion signal of a report
// interval is a queue: its mean one-way delay above the path's floor (the
// minimum over the last base_window_s) by more than queue_packets packet
// times at the rate received, or a CE mark, or (where LATP's node agents
// stamp R, `agent_signal` 1) a node on the path busier than its threshold
// (R < 0). Losses with no queue (channel errors, a broken link) do not steer
// the law; nor does a stall, a queue that came with a loss after a report
// without one (a link that failed frames until its MAC gave up: what waited
// behind it) or in an interval the TTL changed in (a detour: what waited for
// the route's repair), which is drained but neither sets nor lowers K nor
// fails a probe. The rate sender's safety floor (TFRC's equation on the loss over
// every loss, on by default here) caps the rate whatever the law says. A
// queue that every report waited in for four settling times (RTT + report
// interval) since the law read it as its own queue and drained, on a path of
// one hop count (the TTL read) and size for base_window_s, is not the law's
// (its drains would have emptied it): a loss-based or
// unresponsive flow holds it, and the law competes, following the safety
// floor, until a dip shows the queue was its own.
// K is what arrived, not what the law asked for (a sender held below its
// rate by the floor or its host sees no queue), except where the application
// held a probe below its rate (its source ran dry): that probe raises K to its
// rate, at most twice what arrived, so a video at a rung below K can step up.
// Where the driver reads the IP TTL, the floor is kept per TTL (DelayFloor),
// an interval whose TTL changed is judged on the longest path's floor, and
// a path of another hop count is a path of unknown knee: search it again
// (once K is known), unless the law held a K on that hop count and size
// within long_window_s (the routing returns to it): start from that K. A
// report with no floor to judge its delay on (packets of a new path, or of
// paths that keep alternating) changes nothing unless it carries a mark.
//
//   [startup] X *= startup_gain per report interval while no queue shows,
//      │    at most twice the receive rate
//      │ queue: K = receive rate over the last 500 ms; a known K (a new
//      │   path) where the application held the rate below X in that
//      │   time: at most one drain_factor step down, as in [recover]
//      ▼
//   [drain] X = drain_factor min(K, receive rate), until a report without
//      │    a queue an RTT later; a queue still growing then, the path
//      │    delivering less than X: K = the receive rate (a path delivers
//      │    its capacity while a queue stands), at most a drain_factor step
//      │    down, and drain again (a stall going on, or a detour: drain
//      │    again, K kept)
//      ▼
//   [cruise] X = (1 - cruise_margin) K, for C (cruise_s at first)
//      │ queue: K = min(K, receive rate), at most one probe step down
//      │        (a passing burst looks the same), C = cruise_s ──► [drain]
//      │ C over ──► [probe]
//   [probe] X = K + max(step K, queue_packets per 0.5 s); step = probe_gain,
//      │       doubled per probe passed in a row (at most 4 probe_gain)
//      │       until a queue has shown since the start or the last outage
//      │ queue: K holds, C = min(2 C, cruise_max_s) ──► [drain]
//      │ no queue in probe_reports reports of probe packets, and for long
//      │   enough that the excess would have queued queue_packets packets:
//      │   K = max(K, min(X, what those reports carried, or twice that
//      │   where the application held the probe below X)), C = cruise_s
//      │   ──► [probe] again
//   any ──no report for nofeedback_intervals──► X /= 2, K kept, [recover]
//   any ──every report waited, for 4 (RTT + report interval) since the law
//         read the queue itself, on a steady path the TTL names (the
//         report's minimum above the 60-s floor by half a packet at the
//         path's best rate of 60 s)──► [compete]
//   [compete] X = 2 x receive rate, so the safety floor (TFRC's equation)
//      │    sets the rate; no report: X /= 2, still [compete]
//      │ every base_window_s: dip, X = kCompeteDip x receive rate, for two
//      │   (RTT + report interval): a report's minimum at the long floor ──►
//      │   K forgotten, [startup]; else X as before the dip, [compete]
//   any ──a stall──► K kept; [startup], [recover]: no growth this interval;
//         [cruise], [probe]: ──► [drain], C kept (no verdict on the probe)
//   any ──a report of one TTL, not the previous such report's (a path of
//         another hop count), once K is known──► a path held within
//         long_window_s: its K there, X between a drain step and the cruise
//         below it, [recover]; else X kept, K forgotten at the next queue,
//         [startup]
//   [recover] as startup, up to (1 - cruise_margin) K ──► [cruise];
//      queue ──► K = min(K, receive rate) (*) ──► [drain]
//   (*) K falls by at most one drain_factor step per report: a report of
//       few packets after an outage says little about the path's capacity
#pragma once

#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "knee/delay_floor.h"
#include "knee/knee_wire.h"
#include "mantra/params.h"
#include "rate/rate_law.h"
#include "rate/rate_sender.h"

namespace mantra::knee {

struct SenderConfig {
  SendingConfig sending;         // safety_floor defaults to 1 here
  double startup_gain = 1.15;    // rate growth per report while no queue shows
  double cruise_margin = 0.03;   // cruise this far below K
  double probe_gain = 0.03;      // probe this far above K
  double drain_factor = 0.85;    // rate while a queue drains, of K
  double cruise_s = 4.0;         // cruise this long between probes,
  double cruise_max_s = 32.0;    // twice as long after each failed probe, up to this
  int probe_reports = 2;         // reports of probe packets that must show no queue
  double queue_packets = 0.5;    // a queue: mean delay above the floor beyond this many packet times
  double base_window_s = 10.0;   // the delay floor is the minimum over this window
  double queue_min_ms = 1.0;     // and beyond this, whatever the packet time (host jitter)
  int nofeedback_intervals = 4;  // no report for this many report intervals (or RTTs, the longer)
  bool agent_signal = false;     // R < 0 from LATP's agents counts as a queue (off: docs/protocols/mantra.md)
  bool delay_signal = true;      // a mean delay above the floor counts as a queue (off: an ablation)
  bool path_ttl = true;          // a floor per IP TTL, and a new hop count searched again (off: an ablation)
  bool ecn = true;               // data asks for ECN (ECT(0)), so a queue that marks shows with CE (off: an ablation)
  bool stalls =
      true;  // a queue with a loss after a clean one, or over a TTL change, is not the knee (off: an ablation)
  bool compete = true;  // a queue the law's drains do not empty is not ours: follow the loss floor (off: an ablation)
  bool path_knees =
      true;  // a path of a hop count and size held within long_window_s starts from its K there (off: startup)
  double long_window_s = 60.0;  // the standing test's floor (and the best receive rate): over this window
  uint16_t src_port = 4000;
  uint16_t dst_port = 4001;
};

class KneeLaw : public RateLaw {
 public:
  using Config = SenderConfig;
  enum class Phase { kStartup, kDrain, kCruise, kProbe, kRecover, kCompete };
  static constexpr Duration kRateWindow = Duration::millis(500);
  // Until a probe or a cruise has met a queue, probes passed in a row double
  // the step, up to 4 probe_gain: a K far below the knee (after a false
  // start) climbs in a few probes, not dozens. Once the knee is bracketed a
  // doubled step would only overshoot it.
  static constexpr int kMaxProbeDoublings = 2;
  // A probe's excess is at least what queues queue_packets in this time: at a
  // low K, 3 % is a fraction of a packet per second and would take seconds
  // to show.
  static constexpr Duration kLongestProbeDetect = Duration::millis(500);

  static constexpr Duration kInitialInterval = Duration::millis(100);  // 1 packet per 100 ms at first
  // Startup and recovery grow to at most this times the receive rate (TFRC's
  // slow-start bound, RFC 5348 4.3).
  static constexpr double kMaxOverReceived = 2.0;
  // [compete]: a dip sends this share of what arrives, so that the law's own
  // share of a standing queue empties within two RTTs and report intervals.
  static constexpr double kCompeteDip = 0.5;
  // Copa's horizon (5 RTTs), in the law's unit of settling (an RTT and a
  // report interval): a queue every report waited in this long is not the
  // law's, whose drains would have emptied it.
  static constexpr int kStandingSettles = 4;

  explicit KneeLaw(const SenderConfig& config = {});
  static std::string parse(const Params& params, SenderConfig& out);

  size_t data_header_bytes() const override { return kDataHeaderBytes; }
  void write_data(const DataStamp& stamp, const SendState& state, std::vector<uint8_t>& out) override;
  Ecn data_ecn() const override { return config_.ecn ? Ecn::kEct0 : Ecn::kNotEct; }
  ReportOutcome on_datagram(Time now, std::span<const uint8_t> bytes, SendState& state) override;
  Rate allowed_rate(const SendState&) const override { return Rate::bytes_per_sec(rate_Bps_); }
  std::optional<Duration> nofeedback_interval(const SendState& state) const override;
  NofeedbackNext on_nofeedback(Time now, const SendState& state) override;
  std::optional<FloorSignal> floor_signal() const override { return floor_; }
  std::vector<std::pair<std::string, double>> diagnostics(const SendState& state) const override;

  Phase phase() const { return phase_; }
  double rate_Bps() const { return rate_Bps_; }
  std::optional<double> knee_Bps() const { return knee_Bps_; }

 private:
  // What one report says about the path.
  struct Reading {
    bool queue = false;
    bool marked = false;                 // a CE mark or an agent's R < 0 showed it (not the delay alone)
    double queue_ms = 0;                 // mean delay above the floor
    double receive_rate_Bps = 0;         // 0: the interval carried no data
    bool judged = true;                  // false: no delay to judge (no floor for a new path, or no full-size packet)
    std::optional<double> min_queue_ms;  // the report's minimum delay above the long floor (steady paths)
    double threshold_ms = 0;             // the standing test's threshold
    double best_received_Bps = 0;        // the best receive rate of this path in long_window_s
  };
  Reading read(Time now, const Report& r, const SendState& state);
  void on_report(Time now, const Report& r, const SendState& state);
  void enter(Phase phase, Time now);
  void set_rate(double rate_Bps, const SendState& state);
  // A report of packets that all came with one TTL, not the previous such
  // report's: the path's hop count changed, and with it its knee.
  void on_new_path(Time now, FloorKey key, const SendState& state);
  // The knee is no longer bracketed: probes double their step again.
  void search_again();
  // A packet sent at `t` or later left the source empty (the application,
  // not the rate, set the pace).
  bool app_limited_since(Time t) const;
  // The receive rate over the reports of the last `window` (bytes over the
  // spans they cover; at least the latest report); 0: no report.
  double received_Bps(Time now, Duration window) const;
  // K lowered to a receive rate, by at most one drain_factor step.
  double lowered_knee(double receive_rate_Bps) const;
  // `stall`: the queue is what waited behind a stalled link (K was not judged).
  void drain(Time now, double receive_rate_Bps, const SendState& state, bool stall = false);
  void cruise(Time now, const SendState& state);
  // [compete]: ask for twice the receive rate whatever the delay says, so the
  // loss floor (TFRC's equation) sets the rate; every base_window_s a dip to
  // kCompeteDip of what arrives shows whether the queue was ours.
  // `settle`: an RTT and a report interval, until reports show a new rate.
  void compete(Time now, const Reading& in, double receive_rate_Bps, Duration settle, const SendState& state);
  // How long a probe must last for its excess over K to build a queue of
  // queue_packets packets, were K the path's capacity.
  Duration probe_detect_time(const SendState& state) const;
  // The next probe's rate: K plus probe_gain K, doubled for each probe passed
  // in a row (at most kMaxProbeDoublings times), and at least the excess that
  // queues queue_packets packets within kLongestProbeDetect.
  double probe_rate_Bps(const SendState& state) const;

  SenderConfig config_;
  double rate_Bps_;
  Phase phase_ = Phase::kStartup;
  Time phase_since_;
  std::optional<double> knee_Bps_;
  int probe_clean_reports_ = 0;  // reports of the probe's packets alone, and what they carried
  double probe_bytes_ = 0, probe_us_ = 0;
  std::optional<Time> last_app_limited_;  // when a packet last left the source empty
  int probes_passed_in_row_ = 0;
  // Whether a queue has shown at K + a step since the last start or outage:
  // then K is known to a step, and probes no longer double.
  bool knee_bracketed_ = false;
  struct Received {
    Time at;
    uint32_t packets, bytes, interval_us;
  };
  std::deque<Received> received_;  // the reports of the last kRateWindow
  Duration cruise_for_;            // how long the current cruise lasts
  bool urgent_next_ = false;
  DelayFloor floor_delay_;  // per TTL and size of the packets timed
  DelayFloor long_floor_;   // the same over long_window_s: what the path gives with no queue
  // The highest receive rate of the last long_window_s: the path's packet
  // time is at most a packet over it, whatever the law's own rate fell to.
  PerPathExtreme<double, std::greater<>> best_received_;
  std::optional<Time> dip_since_;  // [compete]: the dip's start, while it lasts
  double pre_dip_Bps_ = 0;         // [compete]: the rate before the dip
  Duration dip_queue_;             // [compete]: the standing queue when the dip began
  // When and at what K the law last held each path and size (once found
  // there, not in startup), over long_window_s: the latest is the extreme by
  // time. A path the routing returns to starts from it (`path_knees`).
  PerPathExtreme<std::pair<Time, double>, std::greater<>> path_knees_;
  std::optional<std::pair<FloorKey, Time>> steady_key_;  // the path and size of the reports, since when
  std::optional<Time> waited_since_;                     // since when every report's minimum stood above the long floor
  std::optional<int64_t> base_owd_us_;                   // the floor the last judged report was judged on
  uint8_t path_ttl_ = 0;  // of the last report whose packets all came with one TTL; 0: none
  std::optional<FloorSignal> floor_;
  // The receiver's report interval, as its last periodic report (P) spanned;
  // the default until one arrives. The unit of startup's growth, of the
  // time a new rate takes to show, and of the no-feedback timer.
  Duration report_interval_ = kDefaultReportInterval;
  double last_queue_ms_ = 0;
  bool last_judged_queue_ = false;  // whether the last judged report showed a queue
  bool draining_stall_ = false;     // the drain began at a stall
  int64_t queues_ = 0, probes_ = 0, probes_up_ = 0, nofeedback_expiries_ = 0, agent_queues_ = 0, ce_queues_ = 0,
          new_paths_ = 0, known_paths_ = 0, unjudged_ = 0, probes_app_limited_ = 0, queues_app_limited_ = 0,
          stalls_ = 0, detours_ = 0, competes_ = 0, dips_ = 0;
};

using KneeSender = RateSenderWith<KneeLaw>;

}  // namespace mantra::knee
