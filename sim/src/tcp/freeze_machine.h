// The sender's freeze of TCP Freeze-Probing (Wang & Fan, J. Software 2005,
// section 3) and of ELFN (Holland & Vaidya 1999), as a state machine with no
// ns-3 in it: TCP events in, actions out. VariantTcpSocket carries the actions
// out on a real ns-3 socket; docs/protocols/freeze-probing.md and elfn.md
// give the readings.
//
// Freeze-Probing (trigger kLoss), N = the last cumulatively ACKed segment:
//
//            3rd dup ACK, or RTO / retransmit N+1, freeze, arm T_frozen
//   NORMAL ─────────────────────────────────────────────▶ FROZEN ◀─┐ dup ACK /
//    ▲   ▲                                                  │   │  └─ ignored
//    │   └── ACK above N (N+1 arrived) / [halve], resume ───┘   │
//    │                                                          │ T_frozen / probe,
//    │                                                          ▼ arm T_probe
//    └────── any ACK / halve, resume [go back to N+1] ──── PROBING ◀─┐ T_probe /
//                                                                  └─ probe again
// ELFN (trigger kNotice):
//
//   NORMAL ── notice / freeze, arm T_probe ──▶ FROZEN (every ACK ignored)
//   FROZEN ── T_probe / probe, arm T_probe ──▶ PROBING ── T_probe / probe again
//   PROBING ── any ACK / resume [go back to N+1] ──▶ NORMAL (window kept)
//
// "freeze": no data is sent and the retransmission timer is stopped;
// "resume": sending starts again and the timer restarts with the RTO kept
// from before the freeze. A probe answered by an ACK that does not cover N+1
// says what was in flight was lost in the outage: the sender goes back to
// N+1 and sends the window again at once (as ns-2's agents do after a
// timeout, but without backoff or a window cut), rather than repairing the
// holes one timeout or three duplicate ACKs at a time.
// Halving: ssthresh = max(cwnd/2, 2 segments), cwnd = max(cwnd/2, 1 segment).
#pragma once

#include <cstdint>
#include <optional>

namespace mantra::sim {

enum class FreezeState { kNormal, kFrozen, kProbing };
enum class FreezeTrigger {
  kLoss,    // Freeze-Probing: 3 duplicate ACKs or a retransmission timeout
  kNotice,  // ELFN: a link-failure notice from the network
};
// When the congestion window is halved on leaving the freeze (Freeze-Probing).
enum class HalveOnResume {
  kBoth,          // FROZEN -> NORMAL and PROBING -> NORMAL (default)
  kAfterProbing,  // PROBING -> NORMAL only
  kNever,         // ELFN: resume with the frozen window
};

struct FreezeConfig {
  FreezeTrigger trigger = FreezeTrigger::kLoss;
  double frozen_timer_s = 2.0;    // T_frozen (the paper's 2 s); unused by ELFN
  double probe_interval_s = 2.0;  // T_probe (the paper's 2 s; ELFN's 2 s)
  HalveOnResume halve = HalveOnResume::kBoth;
  int dup_ack_threshold = 3;
};

// What the socket must do: retransmit N+1, send a probe, freeze or resume,
// halve, (re)arm or cancel the machine's timer; then pass the event on to
// TCP's own handling or not; then go back to N+1.
struct FreezeActions {
  bool pass_to_tcp = true;
  bool freeze = false;
  bool resume = false;
  bool halve_window = false;
  bool retransmit_head = false;  // segment N+1
  bool go_back = false;          // everything outstanding is lost: send again from N+1
  bool send_probe = false;
  bool cancel_timer = false;
  std::optional<double> arm_timer_s;
};

// What an arriving ACK says, classified by the socket before TCP sees it.
enum class AckKind {
  kNew,        // acknowledges data above N
  kDuplicate,  // RFC 5681's duplicate: ACK == N, data outstanding, no payload
  kOther,      // e.g. a window update with nothing outstanding
};

struct FreezeCounters {
  int64_t loss_freezes = 0;          // NORMAL -> FROZEN on 3 dup ACKs or RTO (the paper's cycles)
  int64_t rto_freezes = 0;           // of which on a timeout
  int64_t notice_freezes = 0;        // NORMAL -> FROZEN on an ELFN notice
  int64_t notices_ignored = 0;       // notices that arrived while not NORMAL
  int64_t timer_expiries = 0;        // T_frozen and T_probe expiries (the model's n)
  int64_t probes = 0;                // probes sent
  int64_t resumes_from_frozen = 0;   // FROZEN -> NORMAL
  int64_t resumes_from_probing = 0;  // PROBING -> NORMAL
  int64_t acks_ignored = 0;          // ACKs held back while FROZEN
  double frozen_s = 0;               // time spent in FROZEN and PROBING
};

class FreezeMachine {
 public:
  explicit FreezeMachine(const FreezeConfig& config) : config_(config) {}

  FreezeActions on_ack(double now_s, AckKind kind);
  // A retransmission timeout; `pass_to_tcp` false: TCP must not back off.
  FreezeActions on_rto(double now_s);
  FreezeActions on_notice(double now_s);
  // The machine's own timer (T_frozen or T_probe) expired.
  FreezeActions on_timer(double now_s);

  FreezeState state() const { return state_; }
  const FreezeConfig& config() const { return config_; }
  // Counters, with the time of a freeze still under way counted up to `now_s`.
  FreezeCounters counters(double now_s) const;

 private:
  FreezeActions freeze(double now_s, bool retransmit_head, double timer_s);
  FreezeActions resume(double now_s, bool halve, bool go_back, bool pass_to_tcp);
  FreezeActions probe();

  FreezeConfig config_;
  FreezeState state_ = FreezeState::kNormal;
  int dup_acks_ = 0;
  double frozen_since_s_ = 0;
  FreezeCounters counters_;
};

const char* freeze_state_name(FreezeState state);

}  // namespace mantra::sim
