// Every transition of the freeze machine (tcp/freeze_machine.h), driven by
// scripted event sequences: Freeze-Probing's NORMAL / FROZEN / PROBING and
// ELFN's notice-driven freeze.
#include "tcp/freeze_machine.h"

#include <gtest/gtest.h>

namespace mantra::sim {
namespace {

FreezeConfig freeze_probing(HalveOnResume halve = HalveOnResume::kBoth) {
  FreezeConfig c;
  c.trigger = FreezeTrigger::kLoss;
  c.frozen_timer_s = 2.0;
  c.probe_interval_s = 3.0;  // unlike T_frozen, so the test tells them apart
  c.halve = halve;
  return c;
}

FreezeConfig elfn() {
  FreezeConfig c;
  c.trigger = FreezeTrigger::kNotice;
  c.frozen_timer_s = c.probe_interval_s = 2.0;
  c.halve = HalveOnResume::kNever;
  return c;
}

// Three duplicate ACKs take a Freeze-Probing sender to FROZEN.
FreezeMachine frozen_by_dup_acks(HalveOnResume halve = HalveOnResume::kBoth) {
  FreezeMachine m(freeze_probing(halve));
  m.on_ack(1.0, AckKind::kDuplicate);
  m.on_ack(1.1, AckKind::kDuplicate);
  m.on_ack(1.2, AckKind::kDuplicate);
  return m;
}

TEST(FreezeMachine, TwoDupAcksPassToTcpAndStayNormal) {
  FreezeMachine m(freeze_probing());
  for (double t : {1.0, 1.1}) {
    const FreezeActions a = m.on_ack(t, AckKind::kDuplicate);
    EXPECT_TRUE(a.pass_to_tcp);
    EXPECT_FALSE(a.freeze);
  }
  EXPECT_EQ(m.state(), FreezeState::kNormal);
}

TEST(FreezeMachine, ThirdDupAckRetransmitsNPlusOneAndFreezes) {
  FreezeMachine m(freeze_probing());
  m.on_ack(1.0, AckKind::kDuplicate);
  m.on_ack(1.1, AckKind::kDuplicate);
  const FreezeActions a = m.on_ack(1.2, AckKind::kDuplicate);
  EXPECT_EQ(m.state(), FreezeState::kFrozen);
  EXPECT_FALSE(a.pass_to_tcp);  // no fast recovery, no window cut yet
  EXPECT_TRUE(a.retransmit_head);
  EXPECT_TRUE(a.freeze);
  EXPECT_FALSE(a.halve_window);
  ASSERT_TRUE(a.arm_timer_s);
  EXPECT_DOUBLE_EQ(*a.arm_timer_s, 2.0);  // T_frozen
  EXPECT_EQ(m.counters(1.2).loss_freezes, 1);
}

TEST(FreezeMachine, NewAckBetweenDupAcksRestartsTheCount) {
  FreezeMachine m(freeze_probing());
  m.on_ack(1.0, AckKind::kDuplicate);
  m.on_ack(1.1, AckKind::kDuplicate);
  m.on_ack(1.2, AckKind::kNew);
  m.on_ack(1.3, AckKind::kDuplicate);
  m.on_ack(1.4, AckKind::kDuplicate);
  EXPECT_EQ(m.state(), FreezeState::kNormal);
  EXPECT_TRUE(m.on_ack(1.5, AckKind::kDuplicate).freeze);
}

TEST(FreezeMachine, RtoInNormalRetransmitsAndFreezesWithoutBackoff) {
  FreezeMachine m(freeze_probing());
  const FreezeActions a = m.on_rto(5.0);
  EXPECT_EQ(m.state(), FreezeState::kFrozen);
  EXPECT_FALSE(a.pass_to_tcp);  // TCP's own timeout (backoff, cwnd = 1) does not run
  EXPECT_TRUE(a.retransmit_head);
  EXPECT_TRUE(a.freeze);
  EXPECT_EQ(m.counters(5.0).rto_freezes, 1);
}

TEST(FreezeMachine, FrozenToNormalOnTheAckOfNPlusOneHalvesByDefault) {
  FreezeMachine m = frozen_by_dup_acks();
  const FreezeActions a = m.on_ack(1.5, AckKind::kNew);
  EXPECT_EQ(m.state(), FreezeState::kNormal);
  EXPECT_TRUE(a.pass_to_tcp);
  EXPECT_TRUE(a.resume);
  EXPECT_TRUE(a.halve_window);
  EXPECT_TRUE(a.cancel_timer);
  EXPECT_FALSE(a.retransmit_head);
  EXPECT_FALSE(a.go_back);
  const FreezeCounters c = m.counters(1.5);
  EXPECT_EQ(c.resumes_from_frozen, 1);
  EXPECT_NEAR(c.frozen_s, 0.3, 1e-12);
}

TEST(FreezeMachine, FrozenToNormalKeepsTheWindowWhenHalvingOnlyAfterProbing) {
  FreezeMachine m = frozen_by_dup_acks(HalveOnResume::kAfterProbing);
  const FreezeActions a = m.on_ack(1.5, AckKind::kNew);
  EXPECT_EQ(m.state(), FreezeState::kNormal);
  EXPECT_FALSE(a.halve_window);
  EXPECT_TRUE(a.resume);
}

TEST(FreezeMachine, FrozenHoldsBackFurtherDupAcksAndTheRto) {
  FreezeMachine m = frozen_by_dup_acks();
  for (double t : {1.3, 1.4, 1.5, 1.6}) EXPECT_FALSE(m.on_ack(t, AckKind::kDuplicate).pass_to_tcp);
  EXPECT_FALSE(m.on_rto(1.7).pass_to_tcp);
  EXPECT_EQ(m.state(), FreezeState::kFrozen);
  EXPECT_EQ(m.counters(1.7).acks_ignored, 4);
  EXPECT_EQ(m.counters(1.7).loss_freezes, 1);  // one loss, one cycle
}

TEST(FreezeMachine, FrozenTimerExpiryProbes) {
  FreezeMachine m = frozen_by_dup_acks();
  const FreezeActions a = m.on_timer(3.2);
  EXPECT_EQ(m.state(), FreezeState::kProbing);
  EXPECT_TRUE(a.send_probe);
  EXPECT_FALSE(a.pass_to_tcp);
  ASSERT_TRUE(a.arm_timer_s);
  EXPECT_DOUBLE_EQ(*a.arm_timer_s, 3.0);  // T_probe
  EXPECT_EQ(m.counters(3.2).timer_expiries, 1);
}

TEST(FreezeMachine, ProbeTimerExpiryProbesAgain) {
  FreezeMachine m = frozen_by_dup_acks();
  m.on_timer(3.2);
  const FreezeActions a = m.on_timer(6.2);
  EXPECT_EQ(m.state(), FreezeState::kProbing);
  EXPECT_TRUE(a.send_probe);
  const FreezeCounters c = m.counters(6.2);
  EXPECT_EQ(c.probes, 2);
  EXPECT_EQ(c.timer_expiries, 2);  // the model's n
}

TEST(FreezeMachine, AnsweredProbeThatCoversNPlusOneResumesAndHalves) {
  for (HalveOnResume halve : {HalveOnResume::kBoth, HalveOnResume::kAfterProbing}) {
    FreezeMachine m = frozen_by_dup_acks(halve);
    m.on_timer(3.2);
    const FreezeActions a = m.on_ack(3.5, AckKind::kNew);
    EXPECT_EQ(m.state(), FreezeState::kNormal);
    EXPECT_TRUE(a.halve_window);
    EXPECT_TRUE(a.pass_to_tcp);
    EXPECT_FALSE(a.go_back);
    EXPECT_EQ(m.counters(3.5).resumes_from_probing, 1);
  }
}

TEST(FreezeMachine, AnsweredProbeThatMissesNPlusOneGoesBackToIt) {
  FreezeMachine m = frozen_by_dup_acks();
  m.on_timer(3.2);
  const FreezeActions a = m.on_ack(3.5, AckKind::kDuplicate);
  EXPECT_EQ(m.state(), FreezeState::kNormal);
  EXPECT_TRUE(a.resume);
  EXPECT_TRUE(a.go_back);
  EXPECT_FALSE(a.pass_to_tcp);  // a duplicate must not start a new count in TCP
}

TEST(FreezeMachine, FreezeProbingIgnoresNotices) {
  FreezeMachine m(freeze_probing());
  EXPECT_FALSE(m.on_notice(1.0).freeze);
  EXPECT_EQ(m.state(), FreezeState::kNormal);
}

TEST(FreezeMachine, ElfnFreezesOnANoticeWithoutRetransmitting) {
  FreezeMachine m(elfn());
  const FreezeActions a = m.on_notice(4.0);
  EXPECT_EQ(m.state(), FreezeState::kFrozen);
  EXPECT_TRUE(a.freeze);
  EXPECT_FALSE(a.retransmit_head);
  ASSERT_TRUE(a.arm_timer_s);
  EXPECT_DOUBLE_EQ(*a.arm_timer_s, 2.0);
  EXPECT_EQ(m.counters(4.0).notice_freezes, 1);
}

TEST(FreezeMachine, ElfnLeavesLossesToTcp) {
  FreezeMachine m(elfn());
  for (double t : {1.0, 1.1, 1.2, 1.3}) EXPECT_TRUE(m.on_ack(t, AckKind::kDuplicate).pass_to_tcp);
  EXPECT_TRUE(m.on_rto(2.0).pass_to_tcp);
  EXPECT_EQ(m.state(), FreezeState::kNormal);
}

TEST(FreezeMachine, ElfnFrozenIgnoresAcksAndNoticesUntilAProbe) {
  FreezeMachine m(elfn());
  m.on_notice(4.0);
  EXPECT_FALSE(m.on_ack(4.1, AckKind::kNew).pass_to_tcp);
  EXPECT_FALSE(m.on_notice(4.2).freeze);
  EXPECT_EQ(m.state(), FreezeState::kFrozen);
  EXPECT_EQ(m.counters(4.2).notices_ignored, 1);
  EXPECT_TRUE(m.on_timer(6.0).send_probe);
  EXPECT_EQ(m.state(), FreezeState::kProbing);
}

TEST(FreezeMachine, ElfnResumesWithTheFrozenWindow) {
  FreezeMachine m(elfn());
  m.on_notice(4.0);
  m.on_timer(6.0);
  const FreezeActions a = m.on_ack(6.1, AckKind::kNew);
  EXPECT_EQ(m.state(), FreezeState::kNormal);
  EXPECT_TRUE(a.resume);
  EXPECT_FALSE(a.halve_window);
  EXPECT_NEAR(m.counters(6.1).frozen_s, 2.1, 1e-12);
}

TEST(FreezeMachine, StaleTimerInNormalDoesNothing) {
  FreezeMachine m(freeze_probing());
  const FreezeActions a = m.on_timer(1.0);
  EXPECT_FALSE(a.send_probe);
  EXPECT_EQ(m.state(), FreezeState::kNormal);
}

}  // namespace
}  // namespace mantra::sim
