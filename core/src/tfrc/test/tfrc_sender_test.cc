// RFC 5348 §4: the TFRC sender's rate rules, driven by hand-made feedback.
#include "tfrc/tfrc_sender.h"

#include <gtest/gtest.h>

#include "common/throughput_equation.h"

namespace mantra::tfrc {
namespace {

Time ms(int64_t v) { return Time::from_us(v * 1000); }

// Feeds a report echoing a packet sent at `sent` and arriving now - 0 delay.
void feedback(RateSender& s, Time now, Time sent, double x_recv, double p) {
  Feedback f;
  f.t_recvdata = sent;
  f.t_delay = Duration::zero();
  f.x_recv_bytes_per_s = static_cast<uint32_t>(x_recv);
  f.p = p;
  s.handle_datagram(now, encode_feedback(f), Ecn::kNotEct);
}

// Sends everything due at `now`.
int send_due(RateSender& s, Time now) {
  int n = 0;
  while (s.poll_transmit(now)) ++n;
  return n;
}

// Lets the sender pace its packets from `from_ms` to `to_ms`, in 1 ms steps.
void pace(RateSender& s, int from_ms, int to_ms) {
  for (int t = from_ms; t < to_ms; ++t) send_due(s, ms(t));
}

TEST(Rfc5348Section4_2, StartsAtOnePacketPerSecondWithTwoSecondTimer) {
  TfrcSender s;
  EXPECT_EQ(send_due(s, ms(0)), 1);
  EXPECT_DOUBLE_EQ(s.law().rate_bytes_per_s(), 1000.0);
  EXPECT_EQ(*s.poll_timeout(), ms(1000));
  EXPECT_EQ(*s.state().nofeedback_deadline(), ms(2000));
}

TEST(Rfc5348Section4_2, FirstRttSampleSetsTheInitialRate) {
  TfrcSender s;
  send_due(s, ms(0));
  feedback(s, ms(100), ms(0), 0, 0);
  ASSERT_TRUE(s.state().has_rtt());
  EXPECT_EQ(s.state().rtt().smoothed(), Duration::millis(100));
  // W_init = min(4s, max(2s, 4380)) = 4000 bytes for s = 1000.
  EXPECT_DOUBLE_EQ(s.law().rate_bytes_per_s(), 40000.0);
  // Nofeedback timer: max(4R, 2s/X) = max(400 ms, 50 ms).
  EXPECT_EQ(*s.state().nofeedback_deadline(), ms(500));
}

TEST(Rfc5348Section4_3, RttSampleSubtractsReceiverDelay) {
  TfrcSender s;
  send_due(s, ms(0));
  Feedback f;
  f.t_recvdata = ms(0);
  f.t_delay = Duration::millis(30);
  s.handle_datagram(ms(130), encode_feedback(f), Ecn::kNotEct);
  EXPECT_EQ(s.state().rtt().smoothed(), Duration::millis(100));
}

TEST(Rfc5348Section4_3, SlowStartDoublesOncePerRttCappedByTwiceReceiveRate) {
  TfrcSender s;
  send_due(s, ms(0));
  feedback(s, ms(100), ms(0), 0, 0);  // X = 40000
  pace(s, 100, 150);
  feedback(s, ms(150), ms(50), 100000, 0);  // less than one RTT since tld: no doubling
  EXPECT_DOUBLE_EQ(s.law().rate_bytes_per_s(), 40000.0);
  pace(s, 150, 205);
  feedback(s, ms(205), ms(105), 100000, 0);  // one RTT later: doubles to 80000
  EXPECT_NEAR(s.law().rate_bytes_per_s(), 80000.0, 1e-6);
  // Receiver saw only 30000 B/s for two RTTs: the cap is 2*max(X_recv_set).
  pace(s, 205, 500);
  feedback(s, ms(500), ms(400), 30000, 0);
  pace(s, 500, 800);
  feedback(s, ms(800), ms(700), 30000, 0);
  EXPECT_NEAR(s.law().rate_bytes_per_s(), 60000.0, 1e-6);
  EXPECT_NEAR(s.law().receive_limit(), 60000.0, 1e-6);
}

TEST(Rfc5348Section4_3, LossMovesToTheEquationRate) {
  TfrcSender s;
  send_due(s, ms(0));
  feedback(s, ms(100), ms(0), 0, 0);
  feedback(s, ms(200), ms(100), 500000, 0.01);
  const double expected = tfrc_rate(1000, s.state().rtt().smoothed().secs(), 0.01);
  EXPECT_NEAR(s.law().rate_bytes_per_s(), expected, 1e-6);
}

TEST(Rfc5348Section4_3, EquationRateLimitedByTwiceReceiveRate) {
  TfrcSender s;
  send_due(s, ms(0));
  feedback(s, ms(100), ms(0), 0, 0);
  pace(s, 100, 250);
  feedback(s, ms(250), ms(150), 20000, 0.001);  // equation allows ~380 kB/s
  EXPECT_NEAR(s.law().rate_bytes_per_s(), 40000.0, 1e-6);
}

TEST(Rfc5348Section4_3, NeverBelowOnePacketPerTmbi) {
  TfrcSender s;
  send_due(s, ms(0));
  feedback(s, ms(100), ms(0), 0, 0);
  feedback(s, ms(2000), ms(0), 1, 1.0);  // R ~ 0.29 s, p = 1: equation ~ 14 B/s
  EXPECT_NEAR(s.law().rate_bytes_per_s(), 1000.0 / 64.0, 1e-9);
}

TEST(Rfc5348Section4_4, NofeedbackTimerHalvesInSlowStart) {
  TfrcSender s;
  send_due(s, ms(0));
  feedback(s, ms(100), ms(0), 0, 0);                        // X = 40000, deadline 500 ms
  for (int t = 100; t <= 500; t += 25) send_due(s, ms(t));  // not idle
  s.handle_timeout(ms(500));
  EXPECT_DOUBLE_EQ(s.law().rate_bytes_per_s(), 20000.0);
  EXPECT_EQ(*s.state().nofeedback_deadline(), ms(900));  // restarted with max(4R, 2s/X)
}

TEST(Rfc5348Section4_4, NofeedbackWithLossHalvesTheEquationRate) {
  TfrcSender s;
  send_due(s, ms(0));
  feedback(s, ms(100), ms(0), 0, 0);
  feedback(s, ms(200), ms(100), 400000, 0.02);
  const double x_bps = tfrc_rate(1000, s.state().rtt().smoothed().secs(), 0.02);  // < 2*X_recv
  ASSERT_NEAR(s.law().rate_bytes_per_s(), x_bps, 1e-6);
  for (int t = 200; t <= 600; t += 5) send_due(s, ms(t));
  s.handle_timeout(*s.state().nofeedback_deadline());
  // Update_Limits(X_Bps/2): X_recv_set = {X_Bps/4}, so X = min(X_Bps, X_Bps/2).
  EXPECT_NEAR(s.law().rate_bytes_per_s(), x_bps / 2.0, 1e-6);
}

TEST(Rfc5348Section4_4, NofeedbackBeforeAnyFeedbackHalves) {
  TfrcSender s;
  send_due(s, ms(0));
  send_due(s, ms(1000));
  s.handle_timeout(ms(2000));
  EXPECT_DOUBLE_EQ(s.law().rate_bytes_per_s(), 500.0);
}

TEST(Rfc5348Section8_2_1, LossWhileDataLimitedCapsAtReducedReceiveRate) {
  SenderConfig c;
  c.sending.source = {SourceKind::kConstant, Rate::bps(80000)};  // the source makes 10000 B/s, far below X
  TfrcSender s(c);
  send_due(s, ms(0));
  feedback(s, ms(100), ms(0), 0, 0);
  for (int t = 100; t < 2000; t += 100) {
    pace(s, t, t + 100);
    feedback(s, ms(t + 100), ms(t), 10000, 0);
  }
  // A new loss event in a data-limited interval: X_recv_set is halved and
  // X_recv enters at 0.85 x, and the limit is max(X_recv_set), not twice it.
  pace(s, 2000, 2100);
  feedback(s, ms(2100), ms(2000), 10000, 0.001);
  EXPECT_NEAR(s.law().rate_bytes_per_s(), 8500.0, 1e-6);
}

TEST(Rfc5348Section8_2_1, LossWhileNotDataLimitedUsesTwiceReceiveRate) {
  TfrcSender s;  // always backlogged
  send_due(s, ms(0));
  feedback(s, ms(100), ms(0), 0, 0);
  for (int t = 100; t < 2000; t += 100) {
    pace(s, t, t + 100);
    feedback(s, ms(t + 100), ms(t), 10000, 0);
  }
  pace(s, 2000, 2100);
  feedback(s, ms(2100), ms(2000), 10000, 0.001);
  EXPECT_NEAR(s.law().rate_bytes_per_s(), 20000.0, 1e-6);
}

TEST(Rfc5348Section4_6, PacketsArePacedAtTheAllowedRate) {
  TfrcSender s;
  send_due(s, ms(0));
  feedback(s, ms(100), ms(0), 0, 0);  // 40000 B/s: one packet per 25 ms
  int sent = 0;
  for (int t = 100; t < 1100; ++t) sent += send_due(s, ms(t));
  EXPECT_NEAR(sent, 40, 1);
}

TEST(TfrcSender, RejectsGarbageAndDataPackets) {
  TfrcSender s;
  send_due(s, ms(0));
  std::vector<uint8_t> junk = {0x11, 0, 0};
  s.handle_datagram(ms(10), junk, Ecn::kNotEct);
  EXPECT_EQ(s.stats().datagrams_rejected, 1);
  EXPECT_FALSE(s.state().has_rtt());
}

}  // namespace
}  // namespace mantra::tfrc
