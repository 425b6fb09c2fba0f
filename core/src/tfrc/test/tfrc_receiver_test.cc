// RFC 5348 §5, §6: the TFRC receiver's reports, driven by hand-made data.
#include "tfrc/tfrc_receiver.h"

#include <gtest/gtest.h>

#include "common/throughput_equation.h"

namespace mantra::tfrc {
namespace {

// Test time starts at 1 s so that send timestamps (20 ms earlier) stay positive.
Time ms(int64_t v) { return Time::from_us(1'000'000 + v * 1000); }

void data(TfrcReceiver& r, uint32_t seq, Time now, Duration rtt, Ecn ecn = Ecn::kNotEct) {
  DataHeader h;
  h.seq = seq;
  h.timestamp = now - Duration::millis(20);  // sent 20 ms ago
  h.sender_rtt = rtt;
  r.handle_datagram(now, encode_data(h, 1000), ecn);
}

std::optional<Feedback> report(TfrcReceiver& r, Time now) {
  if (auto t = r.poll_timeout(); t && *t <= now) r.handle_timeout(now);
  auto d = r.poll_transmit(now);
  if (!d) return std::nullopt;
  auto f = decode_feedback(d->bytes);
  EXPECT_TRUE(f);
  return *f;
}

constexpr Duration kRtt = Duration::millis(100);

TEST(Rfc5348Section6_3, FirstPacketIsReportedAtOnce) {
  TfrcReceiver r;
  data(r, 0, ms(20), kRtt);
  auto f = report(r, ms(20));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->x_recv_bytes_per_s, 0u);
  EXPECT_EQ(f->p, 0.0);
  EXPECT_EQ(f->t_recvdata, ms(0));
  EXPECT_EQ(f->t_delay, Duration::zero());
  EXPECT_EQ(*r.poll_timeout(), ms(120));  // next report one RTT later
}

TEST(Rfc5348Section6_2, ReportsOncePerRttWithReceiveRate) {
  TfrcReceiver r;
  data(r, 0, ms(0), kRtt);
  report(r, ms(0));
  for (uint32_t i = 1; i <= 10; ++i) {
    data(r, i, ms(10 * i), kRtt);
    if (i < 10) {
      EXPECT_FALSE(report(r, ms(10 * i)));
    }
  }
  auto f = report(r, ms(100));
  ASSERT_TRUE(f);
  // 10 packets of 1000 bytes in (0, 100 ms]: 100000 B/s.
  EXPECT_EQ(f->x_recv_bytes_per_s, 100000u);
  EXPECT_EQ(f->highest_seq, 10u);
}

TEST(Rfc5348Section6_2, NoReportWithoutNewData) {
  TfrcReceiver r;
  data(r, 0, ms(0), kRtt);
  report(r, ms(0));
  EXPECT_FALSE(report(r, ms(100)));
  EXPECT_FALSE(r.poll_timeout());  // idle until data arrives
  data(r, 1, ms(500), kRtt);
  EXPECT_TRUE(report(r, ms(500)));  // first data after idleness: report at once
}

TEST(Rfc5348Section6_1, NewLossEventIsReportedAtOnceWithSyntheticInterval) {
  TfrcReceiver r;
  uint32_t seq = 0;
  // 100 packets per second for one second: 100000 B/s.
  for (int t = 0; t < 1000; t += 10) {
    data(r, seq++, ms(t), kRtt);
    report(r, ms(t));
  }
  seq++;  // one packet lost
  data(r, seq++, ms(1010), kRtt);
  data(r, seq++, ms(1020), kRtt);
  EXPECT_EQ(r.loss_event_rate(), 0.0);
  data(r, seq++, ms(1030), kRtt);  // third later packet: loss declared
  auto f = report(r, ms(1030));
  ASSERT_TRUE(f);
  // §6.3.1: I_1 = 1/p for which X(p) = X_recv of the last RTT: 9 packets
  // arrived in (930 ms, 1030 ms], 90000 B/s. I_0 (3 packets) is shorter.
  const double p = tfrc_loss_rate_for(1000, 0.1, 90000);
  EXPECT_NEAR(f->p, p, p * 1e-6);
  EXPECT_GT(f->p, 0.0);
}

TEST(Rfc5348Section5_1, EcnCeMarkCountsAsLoss) {
  TfrcReceiver r;
  for (uint32_t i = 0; i < 20; ++i) {
    data(r, i, ms(10 * i), kRtt);
    report(r, ms(10 * i));
  }
  data(r, 20, ms(200), kRtt, Ecn::kCe);
  auto f = report(r, ms(200));
  ASSERT_TRUE(f);
  EXPECT_GT(f->p, 0.0);
  EXPECT_EQ(r.intervals().loss_events(), 1);
}

TEST(Rfc5348Section6, WithoutSenderRttEveryPacketIsReported) {
  TfrcReceiver r;
  for (uint32_t i = 0; i < 3; ++i) {
    data(r, i, ms(100 * i), Duration::zero());
    EXPECT_TRUE(report(r, ms(100 * i)));
  }
}

TEST(TfrcReceiver, GarbageIsCountedNotParsed) {
  TfrcReceiver r;
  std::vector<uint8_t> junk = {0x10, 0, 0, 0, 1};
  r.handle_datagram(ms(0), junk, Ecn::kNotEct);
  EXPECT_EQ(r.stats().datagrams_rejected, 1);
  EXPECT_FALSE(r.poll_transmit(ms(0)));
}

}  // namespace
}  // namespace mantra::tfrc
