// The relay's link in virtual time: serialization and the 1-packet device
// queue, drop-tail, RED's regions, seeded loss that repeats, outages, order.
#include "link_model.h"

#include <gtest/gtest.h>

#include <cmath>

namespace mantra::udp {
namespace {

Time us(int64_t v) { return Time::from_us(v); }

TEST(LinkModel, TransmitsAtTheRateAndDelaysByThePropagationTime) {
  LinkConfig c;
  c.rate_bps = 1e6;
  c.overhead_bytes = 0;
  c.delay = Duration::millis(50);
  LinkModel link(c, 1, 0, us(0));
  const auto a = link.on_arrival(us(0), 1000, Ecn::kNotEct);  // 8 ms on the wire
  const auto b = link.on_arrival(us(0), 1000, Ecn::kNotEct);  // waits in the device
  const auto d = link.on_arrival(us(0), 1000, Ecn::kNotEct);  // waits in the queue
  const auto e = link.on_arrival(us(0), 1000, Ecn::kNotEct);  // finds d waiting there
  EXPECT_EQ(a.release, us(58000));
  EXPECT_EQ(b.release, us(66000));
  EXPECT_EQ(d.release, us(74000));
  EXPECT_EQ(e.release, us(82000));
  EXPECT_EQ(a.queued, 0);
  EXPECT_EQ(b.queued, 0);  // a transmits; b takes the device's one waiting slot
  EXPECT_EQ(d.queued, 0);  // what waited before it came
  EXPECT_EQ(e.queued, 1);
  EXPECT_EQ(link.on_arrival(us(16000), 1000, Ecn::kNotEct).queued, 0);  // d entered the device as b began
}

TEST(LinkModel, DropTailDropsBeyondItsLimit) {
  LinkConfig c;
  c.rate_bps = 1e6;
  c.queue_packets = 3;
  LinkModel link(c, 1, 0, us(0));
  int dropped = 0;
  for (int i = 0; i < 10; ++i) dropped += link.on_arrival(us(0), 1000, Ecn::kNotEct).verdict == LinkVerdict::kQueueFull;
  EXPECT_EQ(dropped, 10 - 2 - 3);  // one transmitting, one in the device, three queued
}

TEST(LinkModel, LossDrawsRepeatWithTheSeedAndFollowThePacketNumber) {
  LinkConfig c;
  c.loss = 0.3;
  const auto pattern = [&c](uint64_t seed) {
    LinkModel link(c, seed, 0, us(0));
    std::vector<bool> lost;
    for (int i = 0; i < 2000; ++i)
      lost.push_back(link.on_arrival(us(i), 100, Ecn::kNotEct).verdict == LinkVerdict::kLoss);
    return lost;
  };
  const auto a = pattern(7), b = pattern(7), other = pattern(8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, other);
  const auto n = std::count(a.begin(), a.end(), true);
  EXPECT_NEAR(static_cast<double>(n) / 2000, 0.3, 0.04);
}

TEST(LinkModel, GilbertLossComesInBursts) {
  LinkConfig c;
  c.gilbert = Gilbert{0.01, 0.2, 0.0, 1.0};  // mean burst 5 packets, loss 1/21 of the time
  LinkModel link(c, 3, 0, us(0));
  int lost = 0, bursts = 0;
  bool previous = false;
  for (int i = 0; i < 100000; ++i) {
    const bool l = link.on_arrival(us(i), 100, Ecn::kNotEct).verdict == LinkVerdict::kLoss;
    lost += l;
    bursts += l && !previous;
    previous = l;
  }
  EXPECT_NEAR(lost / 100000.0, 0.01 / 0.21, 0.01);
  EXPECT_NEAR(static_cast<double>(lost) / bursts, 5.0, 0.8);
}

TEST(LinkModel, AnOutageDropsWhatArrivesInIt) {
  LinkConfig c;
  c.outages = {{1.0, 0.5}};
  LinkModel link(c, 1, 0, us(0));
  EXPECT_EQ(link.on_arrival(us(999999), 100, Ecn::kNotEct).verdict, LinkVerdict::kForward);
  EXPECT_EQ(link.on_arrival(us(1000000), 100, Ecn::kNotEct).verdict, LinkVerdict::kOutage);
  EXPECT_EQ(link.on_arrival(us(1499999), 100, Ecn::kNotEct).verdict, LinkVerdict::kOutage);
  EXPECT_EQ(link.on_arrival(us(1500000), 100, Ecn::kNotEct).verdict, LinkVerdict::kForward);
}

TEST(LinkModel, JitterNeverReorders) {
  LinkConfig c;
  c.delay = Duration::millis(10);
  c.jitter = Duration::millis(20);
  LinkModel link(c, 1, 0, us(0));
  Time last;
  for (int i = 0; i < 1000; ++i) {
    const auto d = link.on_arrival(us(i * 100), 100, Ecn::kNotEct);
    EXPECT_GE(d.release, last);
    EXPECT_GE(d.release, us(i * 100) + Duration::millis(10));
    last = d.release;
  }
}

// ns-3's RedQueueDisc is asked for a packet only when a transmission starts,
// so it is idle from the transmission start of the last packet that left it,
// and not while that packet waits in the device's queue: an arrival then ages
// the average by no idle packets (m = 0).
TEST(LinkModel, RedAgesItsAverageFromTheLastTransmissionStart) {
  LinkConfig c;
  c.rate_bps = 1e6;  // 8 ms per 1000-byte packet
  c.overhead_bytes = 0;
  RedConfig red;
  red.limit = 100;
  red.min_th = 50;  // never acts here
  red.max_th = 60;
  red.w_q = 0.1;
  red.link_bps = 1e7;  // 1250 idle packets per second
  red.mean_packet_bytes = 1000;
  c.red = red;
  LinkModel link(c, 1, 0, us(0));
  for (int i = 0; i < 3; ++i) link.on_arrival(us(0), 1000, Ecn::kNotEct);  // on the wire, in the device, waiting
  EXPECT_EQ(link.on_arrival(us(0), 1000, Ecn::kNotEct).queued, 1);         // the 4th: transmits from 24 ms to 32 ms
  EXPECT_NEAR(link.red_average(), 0.1, 1e-12);
  // At 20 ms the queue is empty but the 4th waits in the device: not idle.
  EXPECT_EQ(link.on_arrival(us(20000), 1000, Ecn::kNotEct).queued, 0);  // transmits from 32 ms
  EXPECT_NEAR(link.red_average(), 0.1 * 0.9, 1e-12);
  // At 52.4 ms: idle since 32 ms, when the last packet began: m = floor(1250 * 0.0204) = 25.
  link.on_arrival(us(52400), 1000, Ecn::kNotEct);
  EXPECT_NEAR(link.red_average(), 0.09 * std::pow(0.9, 26), 1e-12);
}

// A queue held far above max_th: RED (gentle, hard drop off, ECN) marks
// ECN-capable packets and drops the others; below min_th it does nothing.
TEST(RedQueue, MarksEctAndDropsNotEctAboveTheThresholds) {
  RedConfig c;
  c.limit = 100;
  c.min_th = 5;
  c.max_th = 15;
  c.max_p = 0.1;
  c.w_q = 0.2;
  c.ecn = true;
  c.hard_drop = false;
  c.link_bps = 1e6;
  c.mean_packet_bytes = 1000;
  RedQueue red(c, us(0));
  int marks = 0, drops = 0;
  for (int i = 0; i < 50; ++i) EXPECT_EQ(red.on_arrival(us(i), 2, true, 0.0), RedVerdict::kEnqueue);  // avg -> 2
  for (int i = 0; i < 200; ++i) {
    const auto v = red.on_arrival(us(100 + i), 40, i % 2 == 0, 0.5);  // avg -> 40 >= 2 max_th: forced
    marks += v == RedVerdict::kMarkForced;
    drops += v == RedVerdict::kDropForced;
  }
  EXPECT_GT(red.average(), 30.0);
  EXPECT_GT(marks, 90);
  EXPECT_GT(drops, 90);
  EXPECT_EQ(red.on_arrival(us(1000), 100, true, 0.5), RedVerdict::kDropFull);  // the limit drops even a mark
}

// Between the thresholds, "wait": after an early action none comes before
// count * p reaches 1, whatever the draw.
TEST(RedQueue, WaitsOneOverPPacketsBetweenEarlyActions) {
  RedConfig c;
  c.limit = 100;
  c.min_th = 0;
  c.max_th = 20;
  c.max_p = 0.5;  // at avg 10: p = 0.25, so 4 packets between actions at least
  c.w_q = 1.0;    // the average is the queue
  c.ecn = true;
  RedQueue red(c, us(0));
  std::vector<int> action_at;
  for (int i = 0; i < 40; ++i)
    if (red.on_arrival(us(i), 10, true, 1e-9) == RedVerdict::kMarkEarly) action_at.push_back(i);
  ASSERT_GE(action_at.size(), 3u);
  for (size_t k = 1; k < action_at.size(); ++k) EXPECT_GE(action_at[k] - action_at[k - 1], 4);
}

}  // namespace
}  // namespace mantra::udp
