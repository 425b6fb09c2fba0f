// LATP receiver (§4.2): R_avg from the packets' R, loss found by three later
// packets and reported at once with L set, periodic feedback every RTT with
// the receive rate, and the connection's ports.
#include "latp/latp_receiver.h"

#include <gtest/gtest.h>

namespace mantra::latp {
namespace {

Time ms(int64_t v) { return Time::from_us(v * 1000); }

std::vector<uint8_t> data(uint32_t seq, int32_t r, uint16_t rtt_ms = 100, uint16_t ts = 0, bool urgent = false) {
  DataHeader h;
  h.src_port = 4000;
  h.dst_port = 4001;
  h.seq = seq;
  h.rate_feedback_Bps = r;
  h.rtt_ms = rtt_ms;
  h.timestamp_ms = ts;
  h.urgent = urgent;
  std::vector<uint8_t> b;
  encode_data(h, 1000, b);
  return b;
}

std::optional<Feedback> feedback(LatpReceiver& r, Time now) {
  auto d = r.poll_transmit(now);
  if (!d) return std::nullopt;
  EXPECT_EQ(d->kind, DatagramKind::kFeedback);
  return *decode_feedback(d->bytes);
}

TEST(LatpReceiver, AnswersTheFirstPacketAndThenOncePerRtt) {
  LatpReceiver r;
  r.handle_datagram(ms(0), data(0, 50000, 100, 7), Ecn::kNotEct);
  auto f = feedback(r, ms(3));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->src_port, 4001);  // ports swapped back to the sender
  EXPECT_EQ(f->dst_port, 4000);
  EXPECT_EQ(f->timestamp_echo_ms, 7);
  EXPECT_EQ(f->elapsed_ms, 3);
  EXPECT_EQ(f->rate_feedback_Bps, 50000);
  EXPECT_EQ(*r.poll_timeout(), ms(103));
  for (int i = 1; i < 10; ++i) r.handle_datagram(ms(10 * i), data(i, 50000), Ecn::kNotEct);
  EXPECT_FALSE(feedback(r, ms(95)));
  r.handle_timeout(ms(103));
  f = feedback(r, ms(103));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->feedback_id, 9u);
  EXPECT_FALSE(f->loss_detected);
  // Nine 1000-byte packets in the last max(RTT, 100 ms since the report).
  EXPECT_NEAR(f->receive_rate_Bps, 9000 / 0.1, 1);
}

TEST(LatpReceiver, LossIsReportedAtOnceWithTheLossBit) {
  LatpReceiver r;
  r.handle_datagram(ms(0), data(0, 50000), Ecn::kNotEct);
  ASSERT_TRUE(feedback(r, ms(0)));
  for (uint32_t seq : {2u, 3u}) r.handle_datagram(ms(10 * seq), data(seq, 50000), Ecn::kNotEct);
  EXPECT_FALSE(feedback(r, ms(31)));  // two later packets: not yet lost
  r.handle_datagram(ms(40), data(4, 50000), Ecn::kNotEct);
  const auto f = feedback(r, ms(40));
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->loss_detected);
  const auto s = r.stats();
  EXPECT_EQ(s.diagnostics[0].first, "losses");
  EXPECT_EQ(s.diagnostics[0].second, 1);
}

TEST(LatpReceiver, NegativeRateFeedbackReachesTheSenderAfterThreeInAnRtt) {
  LatpReceiver r;
  for (uint32_t i = 0; i < 50; ++i) r.handle_datagram(ms(2 * i), data(i, 50000 + (i % 2 ? 500 : -500)), Ecn::kNotEct);
  for (uint32_t i = 50; i < 53; ++i) r.handle_datagram(ms(2 * i), data(i, -30000), Ecn::kNotEct);
  r.handle_datagram(ms(110), data(53, 0, 100, 0, /*urgent=*/true), Ecn::kNotEct);
  const auto f = feedback(r, ms(110));
  ASSERT_TRUE(f);
  EXPECT_LT(f->rate_feedback_Bps, 0);
}

TEST(LatpReceiver, UnboundedRIsNotAMeasurement) {
  LatpReceiver r;
  r.handle_datagram(ms(0), data(0, kNoRateLimit), Ecn::kNotEct);
  r.handle_datagram(ms(1), data(1, 40000), Ecn::kNotEct);
  EXPECT_DOUBLE_EQ(r.rate_feedback().value(), 40000);
}

TEST(LatpReceiver, RejectsOtherConnectionsAndGarbage) {
  LatpReceiver r;
  r.handle_datagram(ms(0), data(0, 1), Ecn::kNotEct);
  auto other = data(1, 1);
  other[1] ^= 1;  // another source port
  r.handle_datagram(ms(1), other, Ecn::kNotEct);
  r.handle_datagram(ms(2), std::vector<uint8_t>{1, 2, 3}, Ecn::kNotEct);
  r.handle_datagram(ms(3), encode_feedback(Feedback{}), Ecn::kNotEct);
  EXPECT_EQ(r.stats().datagrams_rejected, 3);
  EXPECT_EQ(r.stats().datagrams_received, 1);
}

TEST(LatpReceiver, UrgentPacketIsAnsweredAtOnce) {
  LatpReceiver r;
  r.handle_datagram(ms(0), data(0, 1), Ecn::kNotEct);
  ASSERT_TRUE(feedback(r, ms(0)));
  r.handle_datagram(ms(20), data(1, 1, 100, 0, true), Ecn::kNotEct);
  EXPECT_TRUE(feedback(r, ms(20)));
}

}  // namespace
}  // namespace mantra::latp
