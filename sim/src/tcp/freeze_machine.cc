#include "tcp/freeze_machine.h"

namespace mantra::sim {
namespace {

// An event the machine takes and TCP never sees.
FreezeActions held() {
  FreezeActions a;
  a.pass_to_tcp = false;
  return a;
}

}  // namespace

const char* freeze_state_name(FreezeState state) {
  switch (state) {
    case FreezeState::kNormal:
      return "NORMAL";
    case FreezeState::kFrozen:
      return "FROZEN";
    case FreezeState::kProbing:
      return "PROBING";
  }
  return "?";
}

FreezeActions FreezeMachine::freeze(double now_s, bool retransmit_head, double timer_s) {
  state_ = FreezeState::kFrozen;
  dup_acks_ = 0;
  frozen_since_s_ = now_s;
  FreezeActions a;
  a.pass_to_tcp = false;
  a.freeze = true;
  a.retransmit_head = retransmit_head;
  a.arm_timer_s = timer_s;
  return a;
}

FreezeActions FreezeMachine::resume(double now_s, bool halve, bool go_back, bool pass_to_tcp) {
  (state_ == FreezeState::kFrozen ? counters_.resumes_from_frozen : counters_.resumes_from_probing)++;
  counters_.frozen_s += now_s - frozen_since_s_;
  state_ = FreezeState::kNormal;
  dup_acks_ = 0;
  FreezeActions a;
  a.pass_to_tcp = pass_to_tcp;
  a.resume = true;
  a.halve_window = halve;
  a.go_back = go_back;
  a.cancel_timer = true;
  return a;
}

FreezeActions FreezeMachine::probe() {
  ++counters_.timer_expiries;
  ++counters_.probes;
  state_ = FreezeState::kProbing;
  FreezeActions a;
  a.pass_to_tcp = false;
  a.send_probe = true;
  a.arm_timer_s = config_.probe_interval_s;
  return a;
}

FreezeActions FreezeMachine::on_ack(double now_s, AckKind kind) {
  switch (state_) {
    case FreezeState::kNormal:
      if (config_.trigger == FreezeTrigger::kLoss && kind == AckKind::kDuplicate &&
          ++dup_acks_ == config_.dup_ack_threshold) {
        ++counters_.loss_freezes;
        return freeze(now_s, true, config_.frozen_timer_s);
      }
      if (kind == AckKind::kNew) dup_acks_ = 0;
      return {};
    case FreezeState::kFrozen:
      // Freeze-Probing: N+1 arrived within T_frozen, a short-term anomaly.
      if (config_.trigger == FreezeTrigger::kLoss && kind == AckKind::kNew) {
        return resume(now_s, config_.halve == HalveOnResume::kBoth, false, true);
      }
      ++counters_.acks_ignored;  // more dup ACKs of the same loss; ELFN: anything before a probe
      return held();
    case FreezeState::kProbing: {
      // Any ACK answers the probe: a route exists again. An ACK that does not
      // cover N+1 says what was in flight was lost: go back to N+1.
      const bool halve = config_.halve != HalveOnResume::kNever;
      const bool covers_head = kind == AckKind::kNew;
      return resume(now_s, halve, !covers_head, covers_head);
    }
  }
  return {};
}

FreezeActions FreezeMachine::on_rto(double now_s) {
  if (state_ != FreezeState::kNormal) return held();       // the timer is stopped when frozen
  if (config_.trigger != FreezeTrigger::kLoss) return {};  // ELFN: TCP's own timeout
  ++counters_.loss_freezes;
  ++counters_.rto_freezes;
  return freeze(now_s, true, config_.frozen_timer_s);
}

FreezeActions FreezeMachine::on_notice(double now_s) {
  if (config_.trigger != FreezeTrigger::kNotice || state_ != FreezeState::kNormal) {
    ++counters_.notices_ignored;
    return held();
  }
  ++counters_.notice_freezes;
  return freeze(now_s, false, config_.probe_interval_s);
}

FreezeActions FreezeMachine::on_timer(double) {
  if (state_ == FreezeState::kNormal) return held();  // a stale timer: nothing to do
  return probe();
}

FreezeCounters FreezeMachine::counters(double now_s) const {
  FreezeCounters c = counters_;
  if (state_ != FreezeState::kNormal) c.frozen_s += now_s - frozen_since_s_;
  return c;
}

}  // namespace mantra::sim
