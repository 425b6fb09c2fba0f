// mantra's receiver: what one report says about the packets since the last
// (one-way delays, marks, the lowest R, the receive span), when it reports,
// and whose packets it takes.
#include "knee/knee_receiver.h"

#include <gtest/gtest.h>

namespace mantra::knee {
namespace {

Time ms(int64_t v) { return Time::from_us(v * 1000); }

std::vector<uint8_t> data(uint32_t seq, Time sent, int32_t r = latp::kNoRateLimit, uint16_t rtt_ms = 50,
                          uint16_t src_port = 4000, size_t bytes = 1000) {
  DataHeader h;
  h.latp.src_port = src_port;
  h.latp.dst_port = 4001;
  h.latp.seq = seq;
  h.latp.rtt_ms = rtt_ms;
  h.latp.rate_feedback_Bps = r;
  h.send_time_us = sent.us();
  std::vector<uint8_t> b;
  encode_data(h, bytes, b);
  return b;
}

std::optional<Report> report(KneeReceiver& r, Time now) {
  auto d = r.poll_transmit(now);
  if (!d) return std::nullopt;
  return *decode_report(d->bytes);
}

TEST(KneeReceiver, ReportsTheDelaysMarksAndLowestRateOfTheInterval) {
  KneeReceiver r;
  r.handle_datagram(ms(30), data(0, ms(0)), Ecn::kEct0);  // the first packet is answered at once
  const auto first = report(r, ms(30));
  ASSERT_TRUE(first);
  EXPECT_FALSE(first->periodic);
  r.handle_datagram(ms(60), data(1, ms(40)), Ecn::kEct0);
  r.handle_datagram(ms(110), data(2, ms(80), 9000), Ecn::kCe);
  r.handle_datagram(ms(150), data(3, ms(120), 12000), Ecn::kEct0);
  EXPECT_FALSE(report(r, ms(150)));  // the clock: max(RTT 50 ms, 400 ms) after the last report
  r.handle_timeout(ms(429));
  EXPECT_FALSE(report(r, ms(429)));
  r.handle_timeout(ms(430));
  const auto rep = report(r, ms(430));
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->packets, 3u);
  EXPECT_EQ(rep->bytes, 3000u);
  EXPECT_EQ(rep->ce_packets, 1u);
  EXPECT_EQ(rep->owd_min_us, 20'000);
  EXPECT_EQ(rep->owd_mean_us, 26'667);  // (20 + 30 + 30) / 3 ms
  EXPECT_EQ(rep->r_min_Bps, 9000);      // the packet no node bounded does not count
  EXPECT_EQ(rep->interval_us, 400'000u);
  EXPECT_TRUE(rep->periodic);
  EXPECT_EQ(rep->echo_send_time_us, ms(120).us());
  EXPECT_EQ(rep->elapsed_us, 280'000u);
  EXPECT_EQ(rep->highest_seq, 3u);
  EXPECT_FALSE(rep->loss_detected);
  EXPECT_EQ(rep->loss_event_rate_ppb, 0u);
}

TEST(KneeReceiver, ReportsTheTtlAndWhetherItChangedInTheInterval) {
  KneeReceiver r;
  r.handle_datagram_with_ttl(ms(30), data(0, ms(0)), Ecn::kNotEct, 61);
  auto rep = report(r, ms(30));
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->ttl, 61);
  EXPECT_FALSE(rep->ttl_changed);
  r.handle_datagram_with_ttl(ms(60), data(1, ms(40)), Ecn::kNotEct, 61);
  r.handle_datagram_with_ttl(ms(110), data(2, ms(80)), Ecn::kNotEct, 63);  // two hops fewer
  r.handle_timeout(ms(430));
  rep = report(r, ms(430));
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->ttl, 63);
  EXPECT_TRUE(rep->ttl_changed);
  // One TTL since: the next report is of one path; a change across two
  // intervals is the later interval's.
  r.handle_datagram_with_ttl(ms(450), data(3, ms(420)), Ecn::kNotEct, 63);
  r.handle_timeout(ms(830));
  rep = report(r, ms(830));
  EXPECT_FALSE(rep->ttl_changed);
  r.handle_datagram_with_ttl(ms(850), data(4, ms(820)), Ecn::kNotEct, 60);
  r.handle_timeout(ms(1230));
  rep = report(r, ms(1230));
  EXPECT_TRUE(rep->ttl_changed);
  EXPECT_EQ(rep->ttl, 60);
}

// A multi-hop radio's floor grows with the packet's size: only the
// full-size packets' delays are the interval's, and N says none came.
TEST(KneeReceiver, TimesOnlyFullSizePacketsAndSaysWhenNoneCame) {
  KneeReceiver r;
  r.handle_datagram(ms(10), data(0, ms(0), latp::kNoRateLimit, 50, 4000, 1000), Ecn::kNotEct);
  report(r, ms(10));
  r.handle_datagram(ms(45), data(1, ms(40), latp::kNoRateLimit, 50, 4000, 200), Ecn::kNotEct);     // 5 ms, small
  r.handle_datagram(ms(110), data(2, ms(80), latp::kNoRateLimit, 50, 4000, 950), Ecn::kNotEct);    // 30 ms, full
  r.handle_datagram(ms(140), data(3, ms(120), latp::kNoRateLimit, 50, 4000, 1000), Ecn::kNotEct);  // 20 ms, full
  r.handle_timeout(ms(410));
  auto rep = report(r, ms(410));
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->packets, 3u);
  EXPECT_EQ(rep->owd_min_us, 20'000);
  EXPECT_EQ(rep->owd_mean_us, 25'000);
  EXPECT_FALSE(rep->no_delay);
  r.handle_datagram(ms(450), data(4, ms(440), latp::kNoRateLimit, 50, 4000, 300), Ecn::kNotEct);
  r.handle_timeout(ms(810));
  rep = report(r, ms(810));
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->packets, 1u);
  EXPECT_TRUE(rep->no_delay);
  EXPECT_EQ(rep->timed_bytes, 0);
}

// The full size is the largest of the last 2 s: a sender that steps down to
// smaller packets (a video at a lower rung) has its delays timed again
// within 2 s, not never, and each report says which size its delays are of.
TEST(KneeReceiver, TheFullSizeIsTheLargestOfTheLastTwoSeconds) {
  KneeReceiver r;
  r.handle_datagram(ms(10), data(0, ms(0), latp::kNoRateLimit, 50, 4000, 1000), Ecn::kNotEct);
  auto rep = report(r, ms(10));
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->timed_bytes, 1000);
  uint32_t seq = 1;
  Time t = ms(410);
  for (; t <= ms(2010); t = t + Duration::millis(400)) {  // 300-byte packets, 6 ms each, within 2 s of the 1000
    r.handle_datagram(t - Duration::millis(100),
                      data(seq++, t - Duration::millis(106), latp::kNoRateLimit, 50, 4000, 300), Ecn::kNotEct);
    r.handle_timeout(t);
    rep = report(r, t);
    ASSERT_TRUE(rep);
    EXPECT_TRUE(rep->no_delay);
  }
  r.handle_datagram(t - Duration::millis(100),
                    data(seq++, t - Duration::millis(106), latp::kNoRateLimit, 50, 4000, 300),
                    Ecn::kNotEct);  // 2.3 s after the 1000-byte packet: the 300 bytes are the full size
  r.handle_timeout(t);
  rep = report(r, t);
  ASSERT_TRUE(rep);
  EXPECT_FALSE(rep->no_delay);
  EXPECT_EQ(rep->timed_bytes, 300);
  EXPECT_EQ(rep->owd_min_us, 6'000);
}

TEST(KneeReceiver, WithoutATtlReportsNone) {
  KneeReceiver r;
  r.handle_datagram(ms(30), data(0, ms(0)), Ecn::kNotEct);
  const auto rep = report(r, ms(30));
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->ttl, 0);
  EXPECT_FALSE(rep->ttl_changed);
}

TEST(KneeReceiver, ReportsALossAtOnceWithTheLossEventRate) {
  KneeReceiver r;
  r.handle_datagram(ms(10), data(0, ms(0)), Ecn::kNotEct);
  report(r, ms(10));
  for (uint32_t seq = 2; seq <= 4; ++seq) r.handle_datagram(ms(10 + 10 * seq), data(seq, ms(10 * seq)), Ecn::kNotEct);
  const auto rep = report(r, ms(50));  // three later packets: seq 1 is lost
  ASSERT_TRUE(rep);
  EXPECT_TRUE(rep->loss_detected);
  EXPECT_FALSE(rep->periodic);
  EXPECT_EQ(rep->losses, 1u);
  EXPECT_GT(rep->loss_event_rate_ppb, 0u);
}

TEST(KneeReceiver, ReportsAtTheIntervalItIsGiven) {
  ReceiverConfig c;
  EXPECT_EQ(KneeReceiver::parse({{"report_interval_ms", 5}}, c), "report_interval_ms must be in [10, 10000]");
  ASSERT_EQ(KneeReceiver::parse({{"report_interval_ms", 100}}, c), "");
  KneeReceiver r(c);
  r.handle_datagram(ms(10), data(0, ms(0)), Ecn::kNotEct);
  report(r, ms(10));
  r.handle_datagram(ms(50), data(1, ms(40)), Ecn::kNotEct);
  EXPECT_EQ(r.poll_timeout(), ms(110));
}

TEST(KneeReceiver, ASendTimeFromAnyClockSaturatesTheDelay) {
  KneeReceiver r;
  r.handle_datagram(ms(10), data(0, Time::from_us(INT64_MIN)), Ecn::kNotEct);
  auto rep = report(r, ms(10));
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->owd_min_us, INT64_MAX);
  EXPECT_EQ(rep->owd_mean_us, INT64_MAX);
}

TEST(KneeReceiver, TakesOnlyItsFirstSendersPackets) {
  KneeReceiver r;
  r.handle_datagram(ms(10), data(0, ms(0)), Ecn::kNotEct);
  r.handle_datagram(ms(20), data(1, ms(10), latp::kNoRateLimit, 50, 5555), Ecn::kNotEct);
  r.handle_datagram(ms(20), std::vector<uint8_t>(10, 0), Ecn::kNotEct);
  EXPECT_EQ(r.stats().datagrams_received, 1);
  EXPECT_EQ(r.stats().datagrams_rejected, 2);
}

}  // namespace
}  // namespace mantra::knee
