// Every rule of the RSC-VAR receiver (tcp/rsc_var_machine.h), driven by
// scripted arrivals: the start from the first RTT, AT and its fluctuation,
// K's switch, eq. 9 in both states, the slow-start exits, the receive
// timeout, the ACK queue and the advertised window.
#include "tcp/rsc_var_machine.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace mantra::sim {
namespace {

constexpr uint32_t kMss = 1460;

// A machine past its first RTT sample (`rtt_s`) at t = 0.
RscVarMachine started(double rtt_s, RscVarConfig c = {}) {
  RscVarMachine m(c);
  m.on_rtt_sample(0.0, rtt_s);
  return m;
}

// Segments of kMss at from_s + i * gap_s while before until_s; returns the
// next time of the grid. Gaps that do not divide sRTT keep window edges clear
// of arrivals, so every full window holds the same number of segments.
double steady(RscVarMachine& m, double from_s, double until_s, double gap_s) {
  int i = 0;
  for (; from_s + i * gap_s < until_s - 1e-9; ++i) m.on_data(from_s + i * gap_s, kMss);
  return from_s + i * gap_s;
}

// Ten segments at once, then one, alternately, every gap_s.
double bursty(RscVarMachine& m, double from_s, double until_s, double gap_s) {
  int i = 0;
  for (; from_s + i * gap_s < until_s - 1e-9; ++i) {
    for (int s = 0; s < (i % 2 == 0 ? 10 : 1); ++s) m.on_data(from_s + i * gap_s, kMss);
  }
  return from_s + i * gap_s;
}

TEST(RscVarMachine, NormalUntilTheFirstRttThenHalfOfIt) {
  RscVarMachine m({});
  EXPECT_EQ(m.state(), RscVarState::kNormal);
  EXPECT_TRUE(m.on_ack(1, 0));  // a normal receiver: the ACK leaves at once
  EXPECT_FALSE(m.on_data(0.1, kMss).has_value());
  EXPECT_FALSE(m.advertised_window_bytes(kMss).has_value());
  m.on_rtt_sample(0.5, 0.4);
  EXPECT_EQ(m.state(), RscVarState::kSlowStart);
  EXPECT_DOUBLE_EQ(m.t_base_s(), 0.2);
  EXPECT_DOUBLE_EQ(m.srtt_s(), 0.4);
  m.on_rtt_sample(0.9, 0.8);  // RFC 6298: 7/8 0.4 + 1/8 0.8
  EXPECT_DOUBLE_EQ(m.srtt_s(), 0.45);
  EXPECT_DOUBLE_EQ(m.t_base_s(), 0.2);  // only the first sample sets T_base
}

TEST(RscVarMachine, SteadyArrivalsDoNotFluctuate) {
  RscVarMachine m = started(0.1);
  steady(m, 1.0, 3.0, 0.03);  // 4 segments in every sRTT window
  EXPECT_NEAR(m.var_at(), 0.0, 1e-9);
  EXPECT_NEAR(m.t_ack_s(), m.t_base_s(), 1e-12);  // exp(0)
  EXPECT_EQ(m.k(), 50);
}

TEST(RscVarMachine, FluctuationIsTheSampleStandardDeviationOverTheMean) {
  RscVarConfig c;
  c.k_normal = c.k_congestion = 3;
  c.update_srtts = 1e9;  // no T_base update in this test
  RscVarConfig a = c;
  a.dispersion = RscVarDispersion::kMeanAbs;
  RscVarMachine m = started(1.0, c);
  RscVarMachine n = started(1.0, a);
  for (RscVarMachine* x : {&m, &n}) {
    x->on_data(8.0, kMss);  // the first data: no sample in its first sRTT (and out of the window by 10 s)
    // AT (sRTT 1 s): 1460, 2920, 4380 B/s
    x->on_data(10.0, kMss);
    x->on_data(10.1, kMss);
    x->on_data(10.2, kMss);
  }
  // mean 2920, deviations -1460, 0, 1460: sqrt(2 * 1460^2 / 2) / 2920 = 0.5; (1460 + 1460) / (2 * 2920) = 0.5
  EXPECT_NEAR(m.var_at(), 0.5, 1e-12);
  EXPECT_NEAR(n.var_at(), 0.5, 1e-12);
  // Three segments more at 10.3: AT 8760; the last three samples 2920, 4380, 8760 tell the readings apart.
  m.on_data(10.3, 3 * kMss);
  n.on_data(10.3, 3 * kMss);
  const double mean = (2920.0 + 4380.0 + 8760.0) / 3;
  const double sd = std::sqrt((std::pow(2920 - mean, 2) + std::pow(4380 - mean, 2) + std::pow(8760 - mean, 2)) / 2);
  const double mad = (std::abs(2920 - mean) + std::abs(4380 - mean) + std::abs(8760 - mean)) / 2;
  EXPECT_NEAR(m.var_at(), sd / mean, 1e-12);
  EXPECT_NEAR(n.var_at(), mad / mean, 1e-12);
}

TEST(RscVarMachine, KDropsToFiveWhileTheLongTermFluctuationExceedsThetaCo) {
  RscVarConfig c;
  c.update_srtts = 1e9;
  RscVarMachine m = started(1.0, c);
  double t = steady(m, 1.0, 14.0, 0.15);  // 7 segments per window, 80 samples
  EXPECT_EQ(m.k(), 50);
  EXPECT_NEAR(m.var_at(), 0.0, 1e-9);
  // A burst of 20 segments at once: AT climbs by one segment per sample.
  for (int i = 0; i < 20; ++i) m.on_data(t + 0.05, kMss);
  EXPECT_EQ(m.k(), 5);
  // VAR_AT over the last five of a steady climb (22..26 segments, say) is small.
  EXPECT_LT(m.var_at(), 0.1);
  // Steady again until the last 50 samples agree.
  steady(m, t + 0.1, t + 14.0, 0.15);
  EXPECT_EQ(m.k(), 50);
  EXPECT_NEAR(m.var_at(), 0.0, 1e-9);
}

TEST(RscVarMachine, TheLiteralKRuleFlipsKOnACalmShortWindow) {
  RscVarConfig c;
  c.update_srtts = 1e9;
  c.k_from_long_term = false;
  RscVarMachine m = started(1.0, c);
  const double t = steady(m, 1.0, 14.0, 0.15);
  std::vector<int> ks;
  for (int i = 0; i < 20; ++i) {
    m.on_data(t + 0.05, kMss);
    ks.push_back(m.k());
  }
  // Once VAR over 50 passes theta_co, K alternates: 5 (calm climb) -> 50 (high) -> 5 ...
  int flips = 0;
  for (size_t i = 1; i < ks.size(); ++i) flips += ks[i] != ks[i - 1] ? 1 : 0;
  EXPECT_GE(flips, 4);
}

TEST(RscVarMachine, SlowStartShortensTBaseByAlphaEveryTwoSrttsWhenSteady) {
  RscVarMachine m = started(0.2);  // T_base 0.1, updates every 0.4 s
  const double t0 = m.t_base_s();
  double t = steady(m, 0.05, 0.8, 0.03);  // samples from 0.26; an update at 0.41
  EXPECT_EQ(m.counters().updates, 1);
  EXPECT_NEAR(m.t_base_s(), 0.9 * t0, 1e-12);
  steady(m, t, 0.9, 0.03);  // the next at 0.83
  EXPECT_EQ(m.counters().updates, 2);
  EXPECT_NEAR(m.t_base_s(), 0.81 * t0, 1e-12);
  EXPECT_EQ(m.state(), RscVarState::kSlowStart);
}

TEST(RscVarMachine, HighFluctuationInSlowStartGrowsTBaseByBetaAndEndsSlowStart) {
  RscVarConfig c;
  c.update_srtts = 10;  // the first update at 2 s, after many samples
  RscVarMachine m = started(0.2, c);
  const double t0 = m.t_base_s();
  // Events further apart than sRTT: each window holds one burst of 10 or one segment.
  bursty(m, 0.06, 2.1, 0.25);  // the update at 2.06 (a burst's first segment)
  ASSERT_GT(m.var_average(), 0.3);
  EXPECT_EQ(m.counters().updates, 1);
  EXPECT_NEAR(m.t_base_s(), 1.2 * t0, 1e-12);
  EXPECT_EQ(m.state(), RscVarState::kCongestionAvoidance);
  EXPECT_NEAR(m.counters().slow_start_end_s, 2.06, 1e-9);
}

TEST(RscVarMachine, SlowStartEndsWhenTBaseStaysTheSameForTheStablePeriod) {
  RscVarConfig c;
  c.theta_ss_low = 0.0;  // nothing is below it and nothing above theta_ss_high: T_base never changes
  c.theta_ss_high = 1e9;
  c.ss_stable_updates = 3;
  RscVarMachine m = started(0.2, c);
  const double t0 = m.t_base_s();
  const double t = steady(m, 0.05, 1.0, 0.03);  // updates at 0.41 and 0.83: two unchanged
  EXPECT_EQ(m.counters().updates, 2);
  EXPECT_EQ(m.state(), RscVarState::kSlowStart);
  steady(m, t, 1.3, 0.03);  // the third at 1.25
  EXPECT_EQ(m.counters().updates, 3);
  EXPECT_EQ(m.state(), RscVarState::kCongestionAvoidance);
  EXPECT_DOUBLE_EQ(m.t_base_s(), t0);
}

TEST(RscVarMachine, CongestionAvoidanceMovesTBaseByGammaDownAndDeltaUp) {
  RscVarConfig c;
  c.ss_stable_updates = 1;
  c.theta_ss_low = 0.0;  // slow start ends at the first update, T_base unchanged
  RscVarMachine m = started(0.2, c);
  const double t0 = m.t_base_s();
  double t = steady(m, 0.05, 0.8, 0.03);
  ASSERT_EQ(m.state(), RscVarState::kCongestionAvoidance);
  EXPECT_DOUBLE_EQ(m.t_base_s(), t0);
  t = steady(m, t, 0.9, 0.03);  // steady: VAR-bar 0 < 0.05: minus 1 ms at 0.83
  EXPECT_EQ(m.counters().updates, 2);
  EXPECT_NEAR(m.t_base_s(), t0 - 0.001, 1e-12);
  // Bursts until VAR-bar (the mean of the last 50 VAR_AT) is above 0.15: the updates then add 3 ms each.
  const int64_t updates = m.counters().updates;
  const double before = m.t_base_s();
  bursty(m, t, t + 6.0, 0.07);
  ASSERT_GT(m.var_average(), 0.15);
  const int64_t more = m.counters().updates - updates;
  EXPECT_GE(more, 10);
  EXPECT_GT(m.t_base_s(), before);
  EXPECT_LE(m.t_base_s(), before + 0.003 * static_cast<double>(more) + 1e-12);
  const double steps_ms = (m.t_base_s() - before) * 1000;
  EXPECT_NEAR(steps_ms, std::round(steps_ms), 1e-6);  // whole steps of -1 and +3 ms
}

TEST(RscVarMachine, ReceiveTimeoutIsFourSrttsAndGrowsTBaseByBeta) {
  RscVarMachine m = started(0.25);
  const std::optional<double> due = m.on_data(1.0, kMss);
  const double t0 = m.t_base_s();  // after the update this arrival brought
  ASSERT_TRUE(due.has_value());
  EXPECT_DOUBLE_EQ(*due, 2.0);  // 1.0 + 4 * 0.25
  m.on_receive_timeout(2.0);
  EXPECT_NEAR(m.t_base_s(), 1.2 * t0, 1e-12);
  EXPECT_EQ(m.counters().timeouts, 1);
  EXPECT_EQ(m.state(), RscVarState::kCongestionAvoidance);
}

TEST(RscVarMachine, AckQueueKeepsEachAckNumberAndReleasesOnePerTimerExpiry) {
  RscVarConfig c;
  c.update_srtts = 1e9;
  RscVarMachine m = started(0.1, c);  // T_base 0.05
  EXPECT_FALSE(m.on_ack(1461, 700));
  EXPECT_FALSE(m.on_ack(2921, 710));
  EXPECT_FALSE(m.on_ack(2921, 720));  // a duplicate ACK queues as it is, with its own echo
  EXPECT_EQ(m.ack_queue_length(), 3u);
  EXPECT_DOUBLE_EQ(*m.next_ack_at_s(), 0.0);  // nothing paced yet: the head may leave at once
  const QueuedAck first = *m.on_ack_timer(1.00);
  EXPECT_EQ(first.ack, 1461u);
  EXPECT_EQ(first.echo, 700u);
  EXPECT_NEAR(*m.next_ack_at_s(), 1.05, 1e-12);  // T_ack = T_base * exp(0) after the last one sent
  EXPECT_EQ(m.on_ack_timer(1.05)->echo, 710u);
  const QueuedAck third = *m.on_ack_timer(1.10);
  EXPECT_EQ(third.ack, 2921u);
  EXPECT_EQ(third.echo, 720u);
  EXPECT_FALSE(m.next_ack_at_s().has_value());
  EXPECT_FALSE(m.on_ack_timer(1.15).has_value());
  EXPECT_EQ(m.counters().acks_queued, 3);
}

TEST(RscVarMachine, AdvertisedWindowIsSrttOverTAckWholeSegmentsAtLeastOne) {
  RscVarMachine m = started(0.4);  // T_base 0.2, VAR 0: 0.4 / 0.2 = 2 segments
  EXPECT_EQ(*m.advertised_window_bytes(kMss), 2 * kMss);
  RscVarMachine r = started(0.5);  // sRTT 0.5 after a second sample of 1.1 s: 0.575 / 0.25 = 2.3: 3 segments
  r.on_rtt_sample(1.0, 1.1);
  EXPECT_DOUBLE_EQ(r.srtt_s(), 0.575);
  EXPECT_EQ(*r.advertised_window_bytes(kMss), 3 * kMss);
  RscVarConfig c;
  c.min_t_base_s = 1.0;  // T_ack above sRTT: still one segment
  RscVarMachine n = started(0.4, c);
  EXPECT_EQ(*n.advertised_window_bytes(kMss), kMss);
}

TEST(RscVarMachine, TBaseStaysWithinItsGuards) {
  RscVarConfig c;
  c.ss_stable_updates = 1;
  c.theta_ss_low = 0.0;
  RscVarMachine m = started(0.004, c);  // T_base 2 ms; CA takes 1 ms off per steady update
  steady(m, 0.01, 0.4, 0.0003);
  EXPECT_EQ(m.state(), RscVarState::kCongestionAvoidance);
  EXPECT_DOUBLE_EQ(m.t_base_s(), c.min_t_base_s);
  for (int i = 0; i < 100; ++i) m.on_receive_timeout(1.0 + i);  // 1.2^100 times
  EXPECT_DOUBLE_EQ(m.t_base_s(), c.max_t_base_s);
}

}  // namespace
}  // namespace mantra::sim
