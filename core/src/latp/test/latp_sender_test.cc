// LATP sender (§4.3): every rate rule, with reports built by hand.
#include "latp/latp_sender.h"

#include <gtest/gtest.h>

namespace mantra::latp {
namespace {

Time ms(int64_t v) { return Time::from_us(v * 1000); }

// A report received at `now` that yields an RTT sample of exactly 100 ms.
std::vector<uint8_t> report(Time now, double r_avg, double s, bool loss = false) {
  Feedback f;
  f.src_port = 4001;
  f.dst_port = 4000;
  f.timestamp_echo_ms = static_cast<uint16_t>((now.us() / 1000 - 100) % 65536);
  f.rate_feedback_Bps = static_cast<int32_t>(r_avg);
  f.receive_rate_Bps = static_cast<uint32_t>(s);
  f.loss_detected = loss;
  return encode_feedback(f);
}

std::vector<DataHeader> send_due(LatpSender& s, Time now) {
  std::vector<DataHeader> out;
  while (auto d = s.poll_transmit(now)) out.push_back(*decode_data(d->bytes));
  return out;
}

// Past slow start: rate 50 kB/s, RTT 100 ms, last change at 1000 ms.
LatpSender steady(double rate = 50000) {
  LatpSender s;
  send_due(s, ms(0));
  s.handle_datagram(ms(500), report(ms(500), 1e6, rate * 9 / 16), Ecn::kNotEct);  // slow start: 2s = 9/8 rate
  s.handle_datagram(ms(1000), report(ms(1000), -1, rate), Ecn::kNotEct);          // exits it, cut by 1/9
  EXPECT_NEAR(s.law().rate_Bps(), rate, 1);
  EXPECT_FALSE(s.law().in_slow_start());
  return s;
}

TEST(LatpSender, StartsAtOnePacketPerSecondAskingForFeedback) {
  LatpSender s;
  const auto first = send_due(s, ms(0));
  ASSERT_EQ(first.size(), 1u);
  EXPECT_TRUE(first[0].urgent);
  EXPECT_EQ(first[0].rtt_ms, 0);  // no RTT estimate yet
  EXPECT_EQ(first[0].rate_feedback_Bps, kNoRateLimit);
  EXPECT_TRUE(send_due(s, ms(999)).empty());
  EXPECT_EQ(send_due(s, ms(1000)).size(), 1u);
}

TEST(LatpSender, SlowStartSetsTwiceTheReceiveRateOncePerRtt) {
  LatpSender s;
  send_due(s, ms(0));
  s.handle_datagram(ms(100), report(ms(100), 1e6, 1000), Ecn::kNotEct);
  EXPECT_TRUE(s.law().in_slow_start());
  EXPECT_NEAR(s.law().rate_Bps(), 1000.0 / 0.1, 1);  // max(2s = 2000, X/rtt = 10000)
  s.handle_datagram(ms(150), report(ms(150), 1e6, 20000), Ecn::kNotEct);
  EXPECT_NEAR(s.law().rate_Bps(), 10000, 1);  // less than an RTT since the last update
  s.handle_datagram(ms(200), report(ms(200), 1e6, 20000), Ecn::kNotEct);
  EXPECT_NEAR(s.law().rate_Bps(), 40000, 1);
  auto d = send_due(s, ms(200));
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d.back().rtt_ms, 100);
  EXPECT_FALSE(d.back().urgent);
}

TEST(LatpSender, NegativeFeedbackEndsSlowStartAndCutsANinth) {
  LatpSender s;
  send_due(s, ms(0));
  s.handle_datagram(ms(100), report(ms(100), 1e6, 30000), Ecn::kNotEct);
  ASSERT_NEAR(s.law().rate_Bps(), 60000, 1);
  s.handle_datagram(ms(150), report(ms(150), -5000, 30000), Ecn::kNotEct);
  EXPECT_FALSE(s.law().in_slow_start());
  EXPECT_NEAR(s.law().rate_Bps(), 60000 * 8.0 / 9, 1);
}

TEST(LatpSender, DecreaseIsAtMostOncePerRtt) {
  LatpSender s = steady();
  const double r0 = s.law().rate_Bps();
  s.handle_datagram(ms(1050), report(ms(1050), -1, 60000), Ecn::kNotEct);
  EXPECT_DOUBLE_EQ(s.law().rate_Bps(), r0);  // 50 ms after the last cut
  s.handle_datagram(ms(1100), report(ms(1100), -1, 60000), Ecn::kNotEct);
  EXPECT_NEAR(s.law().rate_Bps(), r0 * 8 / 9, 1e-6);
}

TEST(LatpSender, IncreaseIsBoundedByOnePacketPerRttElapsed) {
  LatpSender s = steady();
  const double r0 = s.law().rate_Bps();
  // Large spare capacity and receive rate: S + N X/rtt binds, N = 1.
  s.handle_datagram(ms(1100), report(ms(1100), 1e6, 1e6), Ecn::kNotEct);
  EXPECT_NEAR(s.law().rate_Bps(), r0 + 10000, 1);
  // Two RTTs later: N = 2.
  s.handle_datagram(ms(1300), report(ms(1300), 1e6, 1e6), Ecn::kNotEct);
  EXPECT_NEAR(s.law().rate_Bps(), r0 + 30000, 1);
}

TEST(LatpSender, IncreaseIsBoundedByRateFeedbackAndTwiceReceiveRate) {
  LatpSender s = steady();
  const double r0 = s.law().rate_Bps();
  s.handle_datagram(ms(1500), report(ms(1500), 0.06 * r0, 1e6), Ecn::kNotEct);  // S + R_avg binds
  EXPECT_NEAR(s.law().rate_Bps(), r0 * 1.06, 2);
  const double r1 = s.law().rate_Bps();
  s.handle_datagram(ms(2000), report(ms(2000), 1e6, 0.52 * r1), Ecn::kNotEct);  // 2s binds
  EXPECT_NEAR(s.law().rate_Bps(), 1.04 * r1, 2);
}

TEST(LatpSender, SmallPositiveFeedbackHolds) {
  LatpSender s = steady();
  const double r0 = s.law().rate_Bps();
  s.handle_datagram(ms(1500), report(ms(1500), 0.05 * r0, 1e6), Ecn::kNotEct);
  EXPECT_DOUBLE_EQ(s.law().rate_Bps(), r0);
  s.handle_datagram(ms(1600), report(ms(1600), 0, 1e6), Ecn::kNotEct);
  EXPECT_DOUBLE_EQ(s.law().rate_Bps(), r0);
}

TEST(LatpSender, NoFeedbackForFourRttsHalvesAndAsksForFeedback) {
  LatpSender s = steady();
  const double r0 = s.law().rate_Bps();
  ASSERT_EQ(*s.poll_timeout() <= ms(1400), true);
  send_due(s, ms(1399));
  s.handle_timeout(ms(1399));
  EXPECT_DOUBLE_EQ(s.law().rate_Bps(), r0);
  s.handle_timeout(ms(1400));
  EXPECT_NEAR(s.law().rate_Bps(), r0 / 2, 1e-6);
  std::vector<DataHeader> d;
  for (int t = 1400; t < 1500; ++t) {
    for (const auto& h : send_due(s, ms(t))) d.push_back(h);
  }
  ASSERT_GE(d.size(), 2u);
  EXPECT_TRUE(d.front().urgent);
  EXPECT_FALSE(d.back().urgent);
}

TEST(LatpSender, NeverBelowOnePacketPerRtt) {
  LatpSender s = steady(12000);
  for (int i = 0; i < 40; ++i) {
    const Time t = ms(1100 + 100 * i);
    s.handle_datagram(t, report(t, -1e5, 0), Ecn::kNotEct);
  }
  EXPECT_NEAR(s.law().rate_Bps(), 10000, 1);  // X/rtt = 1000 B / 100 ms
}

TEST(LatpSender, SourceRateCapsThePacing) {
  SenderConfig c;
  c.sending.source = {SourceKind::kConstant, Rate::kbps(80)};  // 10 kB/s: one 1000-byte packet per 100 ms
  LatpSender s(c);
  send_due(s, ms(0));
  s.handle_datagram(ms(100), report(ms(100), 1e6, 1e6), Ecn::kNotEct);
  EXPECT_GT(s.law().rate_Bps(), 1e6);
  size_t sent = 0;
  for (int t = 100; t < 1100; ++t) sent += send_due(s, ms(t)).size();
  EXPECT_EQ(sent, 10u);
}

TEST(LatpSender, RejectsForeignAndMalformedReports) {
  LatpSender s;
  send_due(s, ms(0));
  auto foreign = report(ms(100), 1, 1);
  foreign[3] = 9;  // another destination port
  s.handle_datagram(ms(100), foreign, Ecn::kNotEct);
  s.handle_datagram(ms(100), std::vector<uint8_t>(19, 0), Ecn::kNotEct);
  EXPECT_EQ(s.stats().datagrams_rejected, 2);
  EXPECT_FALSE(s.law().has_report());
}

TEST(LatpSender, ParametersAreCheckedStrictly) {
  SenderConfig c;
  EXPECT_EQ(LatpLaw::parse({{"packet_size", 1000}, {"delta", 0.1}}, c), "");
  EXPECT_NE(LatpLaw::parse({{"packet_size", 10}}, c), "");
  EXPECT_NE(LatpLaw::parse({{"decrease_fraction", 1}}, c), "");
  EXPECT_NE(LatpLaw::parse({{"dleta", 0.1}}, c), "");
}

}  // namespace
}  // namespace mantra::latp
