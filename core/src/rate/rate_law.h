// The hooks through which a rate-based protocol plugs into the one rate
// sender (rate/rate_sender.h), the way a congestion-control module plugs
// into one TCP sender: the sender owns the plumbing (start, sequence
// numbers, the application's data, pacing, the no-feedback timer, counting,
// the RTT estimator), the law owns the rate and its packets' formats.
//
// Order of calls, per event (S: plumbing, L: law):
//   start        S: start, arm the no-feedback timer after
//                   L.nofeedback_interval()                L.on_start
//   data due     S: head of the source, L.data_paused()? ──► L.write_data
//                   (header stamping), count, pace at L.pacing_rate()
//   datagram in  L.on_datagram (decode with its wire; take RTT samples
//                   through SendState; update the rate) ──► if taken: S pulls
//                   the next send to last send + s/allowed rate (a faster rate
//                   applies at once) and re-arms the no-feedback timer
//   no feedback  L.on_nofeedback ──► S re-arms as the law answers
//   rate update  at L.rate_update_due(): L.on_rate_update, which moves the
//                   due time on (TF-WMFC's Δ and its ramp every RTT)
//   control      at L.control_due(): L.make_control (a sender report every T,
//                   a probe): sent ahead of data
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "mantra/endpoint.h"
#include "rate/send_state.h"

namespace mantra {

// What the sender stamps into one data packet; the law's wire lays it out.
struct DataStamp {
  uint32_t seq = 0;  // the sender's count of data packets, from 0
  Time now;
  int64_t bytes = 0;  // the whole datagram, header included
  // No other packet waited when this one was sent: the application, not the
  // rate, sets the pace (a greedy source never is).
  bool app_limited = false;
};

// What the law did with a datagram from the receiver.
enum class ReportOutcome {
  kRejected,  // not a report of this flow: counted as rejected
  kIgnored,   // a report, accepted but not acted on (a closed flow)
  kTaken,     // acted on: the plumbing re-arms its timers
};

// What the receiver last measured, for the safety floor (rate_sender.h): the
// loss event rate over every loss, whatever the protocol made of it, and the
// receive rate. A law gives it from its own reports; none until it has one.
struct FloorSignal {
  double loss_event_rate = 0;  // 0: no loss seen yet
  double receive_rate_Bps = 0;
};

// How the no-feedback timer goes on after it fired.
struct NofeedbackNext {
  enum class Kind { kRestart, kAfter, kStop } kind = Kind::kRestart;
  Duration after;  // kAfter only
  static NofeedbackNext restart() { return {}; }
  static NofeedbackNext in(Duration d) { return {Kind::kAfter, d}; }
  static NofeedbackNext stop() { return {Kind::kStop, {}}; }
};

class RateLaw {
 public:
  virtual ~RateLaw() = default;

  // -- the wire
  // Bytes of the law's data header: the smallest packet it can send.
  virtual size_t data_header_bytes() const = 0;
  // Writes a data packet of stamp.bytes: the header, then zero filler.
  virtual void write_data(const DataStamp& stamp, const SendState& state, std::vector<uint8_t>& out) = 0;
  // The ECN codepoint data packets ask for.
  virtual Ecn data_ecn() const { return Ecn::kNotEct; }
  // A datagram from the receiver, decoded by the law's wire.
  virtual ReportOutcome on_datagram(Time now, std::span<const uint8_t> bytes, SendState& state) = 0;

  // -- the rate
  virtual Rate allowed_rate(const SendState& state) const = 0;
  // The rate packets are spaced at; the allowed rate unless the law smooths
  // it (TFRC's oscillation reduction).
  virtual Rate pacing_rate(const SendState& state) const { return allowed_rate(state); }
  // The gap before the next data packet, given the nominal one (its size at
  // the pacing rate); the nominal gap unless the law jitters it (CBR's
  // interval_jitter, ns-2's random_).
  virtual Duration next_gap(Duration nominal) { return nominal; }
  virtual void on_start(Time /*now*/, const SendState& /*state*/) {}
  // Whether the law reads SendState::interval_was_data_limited (then the
  // plumbing records every send, and the law trims the record).
  virtual bool wants_send_log() const { return false; }
  // Whether data waits (ADTFRC while it probes a broken path).
  virtual bool data_paused() const { return false; }

  // -- timers
  // The no-feedback interval from now; nullopt: the law has no such timer.
  virtual std::optional<Duration> nofeedback_interval(const SendState& state) const = 0;
  virtual NofeedbackNext on_nofeedback(Time /*now*/, const SendState& /*state*/) { return NofeedbackNext::restart(); }
  // A rate update of the law's own clock, independent of feedback: when it
  // is next due (nullopt: none). on_rate_update must move it past `now`.
  virtual std::optional<Time> rate_update_due() const { return std::nullopt; }
  virtual void on_rate_update(Time /*now*/, const SendState& /*state*/) {}
  // A control packet of the sender's own (a sender report, a probe): when it
  // is next due, and the packet itself when it is.
  virtual std::optional<Time> control_due() const { return std::nullopt; }
  virtual std::optional<Datagram> make_control(Time /*now*/, const SendState& /*state*/) { return std::nullopt; }

  // The receiver's measurements for the safety floor, from the last report
  // that carried them; nullopt: none (yet, or the protocol has no reports).
  virtual std::optional<FloorSignal> floor_signal() const { return std::nullopt; }

  // Protocol diagnostics, in the law's order.
  virtual std::vector<std::pair<std::string, double>> diagnostics(const SendState& state) const = 0;
};

}  // namespace mantra
