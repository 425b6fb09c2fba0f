// LATP node agent (§4.1): busyness between transmission attempts, MAC
// throughput from ready-to-ACK times, the sign of P, and R = min(R, P).
#include "latp/node_agent.h"

#include <gtest/gtest.h>

#include "latp/latp_wire.h"

namespace mantra::latp {
namespace {

Time us(int64_t v) { return Time::from_us(v); }
Duration dus(int64_t v) { return Duration::micros(v); }

// Attempts every 1000 us; before each, `busy_us` of reception ending 100 us
// before the attempt (well over DIFS); the attempt itself transmits 200 us.
void attempts_with_busy(NodeAgent& a, int count, int64_t busy_us, int64_t t0 = 0) {
  for (int i = 0; i < count; ++i) {
    const int64_t t = t0 + 1000 * (i + 1);
    if (busy_us > 0) a.on_channel_busy(us(t - 100 - busy_us), dus(busy_us));
    a.on_transmit(us(t), dus(200));
  }
}

std::vector<uint8_t> data_packet(int32_t r) {
  DataHeader h;
  h.rate_feedback_Bps = r;
  std::vector<uint8_t> bytes;
  encode_data(h, 100, bytes);
  return bytes;
}

TEST(NodeAgent, BusynessIsTheBusyShareBetweenAttempts) {
  NodeAgent a;
  // Each 1000 us interval: 200 us own transmission + 300 us reception = 0.5.
  attempts_with_busy(a, 20, 300);
  ASSERT_TRUE(a.busyness().has_value());
  EXPECT_NEAR(a.busyness().value(), 0.5, 1e-9);
}

TEST(NodeAgent, ResponsesASifsAfterReceptionAreNotAttempts) {
  NodeAgent a;
  a.on_transmit(us(1000), dus(200));      // RTS: attempt
  a.on_channel_busy(us(1210), dus(100));  // CTS received
  a.on_transmit(us(1320), dus(4000));     // data a SIFS later: same exchange
  a.on_channel_busy(us(5330), dus(100));  // ACK
  a.on_transmit(us(7000), dus(200));      // next RTS after idle: attempt
  const auto d = a.diagnostics();
  EXPECT_EQ(d[0].first, "attempts");
  EXPECT_EQ(d[0].second, 2);
  // Busy 200 + 100 + 4000 + 100 of the 6000 us between the two attempts.
  EXPECT_NEAR(a.busyness().value(), 4400.0 / 6000.0, 1e-9);
}

TEST(NodeAgent, ThroughputIsBytesOverReadyToAck) {
  NodeAgent a;
  a.on_mac_acked(us(0), us(8000), Bytes(1000));  // 1000 B in 8 ms = 125 kB/s
  EXPECT_NEAR(a.throughput_Bps().value(), 125000, 1e-6);
}

TEST(NodeAgent, PermissibleThroughputIsPositiveBelowThresholdAndNegativeAbove) {
  NodeAgent quiet;
  attempts_with_busy(quiet, 20, 300);  // B = 0.5
  quiet.on_mac_acked(us(0), us(8000), Bytes(1000));
  EXPECT_NEAR(*quiet.permissible_Bps(), (0.95 - 0.5) * 125000 / 0.5, 1e-6);

  NodeAgent busy;
  attempts_with_busy(busy, 20, 790);  // B = 0.99 > B_TH
  busy.on_mac_acked(us(0), us(8000), Bytes(1000));
  EXPECT_NEAR(busy.busyness().value(), 0.99, 1e-9);
  EXPECT_LT(*busy.permissible_Bps(), 0);
}

TEST(NodeAgent, IdleChannelGivesThresholdTimesThroughput) {
  NodeAgent a;
  a.on_transmit(us(0), dus(0));
  a.on_transmit(us(1000), dus(0));  // B_sample = 0
  a.on_mac_acked(us(0), us(8000), Bytes(1000));
  EXPECT_NEAR(*a.permissible_Bps(), 0.95 * 125000, 1e-6);
}

TEST(NodeAgent, StampsTheMinimumAndOnlyWithAnEstimate) {
  NodeAgent a;
  auto packet = data_packet(kNoRateLimit);
  EXPECT_FALSE(a.on_egress(packet));  // no B and T yet: R left as it is
  attempts_with_busy(a, 20, 300);
  a.on_mac_acked(us(0), us(8000), Bytes(1000));
  const double p = *a.permissible_Bps();  // 112500

  EXPECT_TRUE(a.on_egress(packet));
  EXPECT_EQ(decode_data(packet)->rate_feedback_Bps, static_cast<int32_t>(p));

  auto tighter = data_packet(1000);  // an upstream node was busier
  EXPECT_FALSE(a.on_egress(tighter));
  EXPECT_EQ(decode_data(tighter)->rate_feedback_Bps, 1000);

  auto feedback = encode_feedback(Feedback{});
  const auto copy = feedback;
  EXPECT_FALSE(a.on_egress(feedback));  // feedback packets pass untouched
  EXPECT_EQ(feedback, copy);
}

TEST(NodeAgent, ParametersAreCheckedStrictly) {
  NodeAgentConfig c;
  EXPECT_EQ(NodeAgent::parse({{"busyness_threshold", 0.9}}, c), "");
  EXPECT_DOUBLE_EQ(c.busyness_threshold, 0.9);
  EXPECT_NE(NodeAgent::parse({{"busyness_threshold", 1.5}}, c), "");
  EXPECT_NE(NodeAgent::parse({{"b_th", 0.9}}, c), "");
}

}  // namespace
}  // namespace mantra::latp
