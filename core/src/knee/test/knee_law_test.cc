// mantra's rate law, rule by rule, with reports built by hand: every report
// arrives 200 ms after the last, echoes a packet sent 100 ms before (RTT
// 100 ms) and covers 200 ms (a receiver with report_interval_ms 200); the delay floor is 20 ms and a queue is a mean
// delay 10 ms or more above it (half a packet time at 50 kB/s).
#include "knee/knee_law.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace mantra::knee {
namespace {

Time ms(int64_t v) { return Time::from_us(v * 1000); }
constexpr double kRate = 50'000;  // bytes/s the path delivers in these reports

struct Path {
  double queue_ms = 0;
  double delivered_Bps = kRate;
  uint32_t ce = 0;
  int32_t r_min = latp::kNoRateLimit;
  double floor_ms = 20;  // the path's delay floor
  uint8_t ttl = 0;       // 0: the driver reads none
  bool ttl_changed = false;
  bool no_delay = false;  // N: no full-size packet in the interval
  bool loss = false;      // L: a loss detected in the interval
};

std::vector<uint8_t> report(Time now, Path p = {}) {
  Report r;
  r.src_port = 4001;
  r.dst_port = 4000;
  r.echo_send_time_us = now.us() - 100'000;
  r.interval_us = 200'000;
  r.periodic = true;  // the receiver's clock: the law learns its 200-ms interval
  r.packets = 10;
  r.bytes = static_cast<uint32_t>(p.delivered_Bps * 0.2);
  r.ce_packets = p.ce;
  r.owd_min_us = static_cast<int64_t>(p.floor_ms * 1000);
  r.owd_mean_us = r.owd_min_us + static_cast<int64_t>(p.queue_ms * 1000);
  r.r_min_Bps = p.r_min;
  r.ttl = p.ttl;
  r.ttl_changed = p.ttl_changed;
  r.no_delay = p.no_delay;
  r.loss_detected = p.loss;
  r.losses = p.loss ? 1 : 0;
  if (p.no_delay) r.owd_min_us = r.owd_mean_us = 0;
  return encode_report(r);
}

class KneeLawTest : public ::testing::Test {
 protected:
  // A greedy source unless told otherwise; no loss floor.
  explicit KneeLawTest(SourceConfig source = {}, bool safety_floor = false)
      : sender{[&source, safety_floor] {
          SenderConfig c;
          c.sending.safety_floor = safety_floor;
          c.sending.source = source;
          return c;
        }()} {}
  // A new sender, no loss floor, with `adjust` applied to its configuration.
  void restart(const std::function<void(SenderConfig&)>& adjust) {
    SenderConfig config;
    config.sending.safety_floor = false;
    adjust(config);
    sender = KneeSender{config};
    sent_to_ = Time{};
  }
  // Reports every 200 ms from `from` to `to` (both included); returns the next time.
  Time feed(Time from, Time to, Path p = {}) {
    Time t = from;
    for (; t <= to; t = t + Duration::millis(200)) {
      send_until(t);
      sender.handle_datagram(t, report(t, p), Ecn::kNotEct);
    }
    return t;
  }
  // The sender sends what its pacing lets it, polled every millisecond (a
  // greedy source, so what it sends is its rate).
  void send_until(Time t) {
    for (sent_to_ = std::max(sent_to_, t - Duration::millis(200)); sent_to_ <= t;
         sent_to_ = sent_to_ + Duration::millis(1)) {
      while (sender.poll_transmit(sent_to_)) {
      }
    }
  }
  Time sent_to_;
  const KneeLaw& law() const { return sender.law(); }
  // One of the law's end-of-run values, by its result key.
  double diagnostic(const std::string& name) const {
    for (const auto& [key, value] : law().diagnostics(sender.state()))
      if (key == name) return value;
    ADD_FAILURE() << "no diagnostic " << name;
    return 0;
  }
  // Startup, then a queue at 1 s: K = 50 kB/s, draining; then cruise from 1.4 s.
  Time to_cruise() {
    Time t = feed(ms(200), ms(800));
    t = feed(t, t, {.queue_ms = 20});
    EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain);
    return feed(t, t + Duration::millis(200));
  }

  KneeSender sender;
};

TEST_F(KneeLawTest, StartsAtOnePacketPer100MsAndGrowsByTheGainEachReportInterval) {
  EXPECT_NEAR(law().rate_Bps(), 10'000, 1);
  feed(ms(200), ms(600));
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kStartup);
  EXPECT_NEAR(law().rate_Bps(), 10'000 * 1.15 * 1.15 * 1.15, 1);
}

TEST_F(KneeLawTest, AQueueEndsStartupAtTheReceiveRateAndDrainsBelowIt) {
  Time t = feed(ms(200), ms(800));
  feed(t, t, {.queue_ms = 20, .delivered_Bps = 40'000});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain);
  // The receive rate of the reports of the last 500 ms: (10 + 10 + 8 kB) over 600 ms.
  ASSERT_TRUE(law().knee_Bps());
  EXPECT_NEAR(*law().knee_Bps(), 28'000 / 0.6, 1);
  EXPECT_NEAR(law().rate_Bps(), 0.85 * 28'000 / 0.6, 1);
}

TEST_F(KneeLawTest, DelayBelowHalfAPacketTimeIsNoQueue) {
  feed(ms(200), ms(800), {.queue_ms = 9});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kStartup);
}

TEST_F(KneeLawTest, DrainEndsInCruiseAMarginBelowTheKnee) {
  to_cruise();
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kCruise);
  EXPECT_NEAR(law().rate_Bps(), 0.97 * kRate, 1);
}

TEST_F(KneeLawTest, ADrainingQueueWaitsAndAGrowingOneLowersTheKnee) {
  Time t = feed(ms(200), ms(800));
  t = feed(t, t, {.queue_ms = 40});
  t = feed(t, t + Duration::millis(200), {.queue_ms = 30});  // shrinking: keep draining
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain);
  EXPECT_NEAR(*law().knee_Bps(), kRate, 1);
  // Growing below the drain rate: the receive rate, (10 + 10 + 2 kB) over 600 ms, is
  // the path's; K falls to it, but by at most one drain step.
  feed(t, t, {.queue_ms = 60, .delivered_Bps = 10'000});
  EXPECT_NEAR(*law().knee_Bps(), 0.85 * kRate, 1);
  EXPECT_NEAR(law().rate_Bps(), 0.85 * 22'000 / 0.6, 1);  // below what the path delivers
}

// A delay that grows while the path delivers at least the drain rate is the
// delay moving (a bottleneck that lags, a retry), not a lower capacity.
TEST_F(KneeLawTest, AGrowingQueueThePathDeliversTheDrainRateThroughKeepsTheKnee) {
  Time t = feed(ms(200), ms(800));
  t = feed(t, t, {.queue_ms = 40});
  t = feed(t, t + Duration::millis(200), {.queue_ms = 30});
  ASSERT_EQ(law().phase(), KneeLaw::Phase::kDrain);
  feed(t, t, {.queue_ms = 60, .delivered_Bps = 0.9 * kRate});  // above 0.85 K
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain);
  EXPECT_NEAR(*law().knee_Bps(), kRate, 1);
}

TEST_F(KneeLawTest, CruiseProbesAStepAboveTheKneeAndAPassedProbeRaisesIt) {
  Time t = to_cruise();
  t = feed(t, t + Duration::millis(3800));
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kProbe);
  EXPECT_NEAR(law().rate_Bps(), 1.03 * kRate, 1);
  // The probe must last an RTT and a report interval, plus the time its 3 %
  // excess takes to queue half a packet (333 ms): three reports are not enough.
  t = feed(t, t + Duration::millis(400), {.delivered_Bps = 1.03 * kRate});
  EXPECT_NEAR(law().rate_Bps(), 1.03 * kRate, 1);
  feed(t, t + Duration::millis(200), {.delivered_Bps = 1.03 * kRate});
  EXPECT_NEAR(*law().knee_Bps(), 1.03 * kRate, 1);
  EXPECT_NEAR(law().rate_Bps(), 1.03 * 1.06 * kRate, 1);  // passed in a row: twice the step
}

// A sender held below its rate (the loss floor, a slow host) sees no queue:
// K rises only to what arrived, and startup to twice the receive rate.
TEST_F(KneeLawTest, APassedProbeRaisesTheKneeOnlyToWhatArrived) {
  Time t = to_cruise();
  t = feed(t, t + Duration::millis(3800));
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kProbe);
  feed(t, t + Duration::millis(600), {.delivered_Bps = 1.01 * kRate});
  EXPECT_NEAR(*law().knee_Bps(), 1.01 * kRate, 1);
}

// An application that sends 30 kB/s whatever the law allows (a video at a
// rung below K): its source runs dry after every packet.
class KneeLawAppLimitedTest : public KneeLawTest {
 protected:
  KneeLawAppLimitedTest() : KneeLawTest({SourceKind::kConstant, Rate::bytes_per_sec(30'000), 100}) {}
};

// A probe the application held below its rate tested less than that rate:
// K rises to the probe's rate all the same (so the application can step up
// and test it), but to at most twice what arrived.
TEST_F(KneeLawAppLimitedTest, AProbeTheApplicationHeldBelowItsRateRaisesTheKneeToAtMostTwiceWhatArrived) {
  Time t = to_cruise();
  t = feed(t, t + Duration::millis(3800));
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kProbe);
  t = feed(t, t + Duration::millis(600), {.delivered_Bps = 30'000});
  EXPECT_NEAR(*law().knee_Bps(), 1.03 * kRate, 1);  // not 30 kB/s, as a greedy sender's would be
  feed(t, t + Duration::millis(20'000), {.delivered_Bps = 30'000});
  EXPECT_NEAR(*law().knee_Bps(), 2 * 30'000, 1);
}

// On a new path, the first queue sets K to the receive rate where the sender
// filled its rate; an application-limited sender's reports carry the
// application's rate, so its known K falls by at most one drain step.
TEST_F(KneeLawAppLimitedTest, OnANewPathAQueueLowersAKnownKneeByAtMostADrainStep) {
  Time t = feed(ms(200), ms(800), {.ttl = 61});
  t = feed(t, t, {.queue_ms = 20, .ttl = 61});
  t = feed(t, t + Duration::millis(200), {.ttl = 61});
  ASSERT_NEAR(*law().knee_Bps(), kRate, 1);
  t = feed(t, t + Duration::millis(400), {.delivered_Bps = 30'000, .ttl = 59});  // two hops more
  ASSERT_EQ(law().phase(), KneeLaw::Phase::kStartup);
  feed(t, t, {.queue_ms = 30, .delivered_Bps = 30'000, .ttl = 59});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain);
  EXPECT_NEAR(*law().knee_Bps(), 0.85 * kRate, 1);
}

TEST_F(KneeLawTest, OnANewPathAQueueSetsTheKneeToTheReceiveRate) {
  Time t = feed(ms(200), ms(800), {.ttl = 61});
  t = feed(t, t, {.queue_ms = 20, .ttl = 61});
  t = feed(t, t + Duration::millis(200), {.ttl = 61});
  t = feed(t, t + Duration::millis(400), {.delivered_Bps = 30'000, .ttl = 59});
  ASSERT_EQ(law().phase(), KneeLaw::Phase::kStartup);
  feed(t, t, {.queue_ms = 30, .delivered_Bps = 30'000, .ttl = 59});
  EXPECT_NEAR(*law().knee_Bps(), 30'000, 1);
}

// A path the routing returns to within the long window starts from the K
// the law held there: no startup, no overshoot to a queue (`path_knees` 0:
// startup, as on a path never seen).
TEST_F(KneeLawTest, APathReturnedToStartsFromItsKneeThere) {
  for (const bool path_knees : {false, true}) {
    restart([&](SenderConfig& config) { config.path_knees = path_knees; });
    Time t = feed(ms(200), ms(800), {.ttl = 61});
    t = feed(t, t, {.queue_ms = 20, .ttl = 61});
    t = feed(t, t + Duration::millis(200), {.ttl = 61});
    ASSERT_EQ(law().phase(), KneeLaw::Phase::kCruise);
    // Two hops more: searched afresh, K = 30 kB/s there.
    t = feed(t, t + Duration::millis(400), {.delivered_Bps = 30'000, .ttl = 59});
    ASSERT_EQ(law().phase(), KneeLaw::Phase::kStartup);
    t = feed(t, t, {.queue_ms = 30, .delivered_Bps = 30'000, .ttl = 59});
    t = feed(t, t + Duration::millis(1000), {.delivered_Bps = 30'000, .ttl = 59});
    ASSERT_EQ(law().phase(), KneeLaw::Phase::kCruise);
    ASSERT_NEAR(*law().knee_Bps(), 30'000, 1);
    // Back on the first path.
    feed(t, t, {.ttl = 61});
    if (!path_knees) {
      EXPECT_EQ(law().phase(), KneeLaw::Phase::kStartup);
      EXPECT_NEAR(*law().knee_Bps(), 30'000, 1);  // forgotten at the next queue
    } else {
      EXPECT_EQ(law().phase(), KneeLaw::Phase::kRecover);
      EXPECT_NEAR(*law().knee_Bps(), kRate, 1);
      EXPECT_NEAR(law().rate_Bps(), 0.85 * kRate, 1);  // a drain step below it, and recovering
    }
  }
}

// Not a K of longer ago than the long window: the path may have changed.
TEST_F(KneeLawTest, APathsKneeIsForgottenAfterTheLongWindow) {
  Time t = feed(ms(200), ms(800), {.ttl = 61});
  t = feed(t, t, {.queue_ms = 20, .ttl = 61});
  t = feed(t, t + Duration::millis(200), {.ttl = 61});
  t = feed(t, t + Duration::millis(400), {.delivered_Bps = 30'000, .ttl = 59});
  t = feed(t, t, {.queue_ms = 30, .delivered_Bps = 30'000, .ttl = 59});
  t = feed(t, t + Duration::seconds(61), {.delivered_Bps = 30'000, .ttl = 59});
  feed(t, t, {.ttl = 61});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kStartup);
}

TEST_F(KneeLawTest, StartupGrowsToAtMostTwiceTheReceiveRate) {
  feed(ms(200), ms(3000), {.delivered_Bps = 6'000});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kStartup);
  EXPECT_NEAR(law().rate_Bps(), 12'000, 1);
}

// The bound stops growth and never lowers the rate: the first report covers
// one packet and no span, and the reports after an outage carry little.
TEST_F(KneeLawTest, TheStartupBoundNeverLowersTheRate) {
  Report first;
  first.src_port = 4001;
  first.dst_port = 4000;
  first.echo_send_time_us = ms(100).us();
  first.packets = 1;
  first.bytes = 1000;
  first.owd_min_us = first.owd_mean_us = 20'000;
  while (sender.poll_transmit(ms(200))) {
  }
  sender.handle_datagram(ms(200), encode_report(first), Ecn::kNotEct);
  EXPECT_NEAR(law().rate_Bps(), 10'000, 1);  // not lowered to 1 packet/s: no receive rate yet
  feed(ms(400), ms(1200), {.delivered_Bps = 1'000});
  EXPECT_GE(law().rate_Bps(), 10'000);  // held, not lowered to twice what arrives
  EXPECT_LE(law().rate_Bps(), 10'000 * 1.15);
}

TEST_F(KneeLawTest, ALowKneeProbesByAtLeastHalfAPacketPerHalfSecond) {
  // A false start leaves K at 5 kB/s: 3 % of it (150 B/s) would take 3.3 s to
  // queue half a packet; the step is 1000 B/s (20 %) instead.
  // (Half a packet time at 10 kB/s, the rate then, is 50 ms.)
  Time t = feed(ms(200), ms(200), {.queue_ms = 80, .delivered_Bps = 5'000});
  ASSERT_NEAR(*law().knee_Bps(), 5'000, 1);
  t = feed(t, t + Duration::millis(4600), {.delivered_Bps = 5'000});
  ASSERT_EQ(law().phase(), KneeLaw::Phase::kProbe);
  EXPECT_NEAR(law().rate_Bps(), 5'000 + 1'000, 1);
}

TEST_F(KneeLawTest, AFailedProbeKeepsTheKneeAndDoublesTheCruise) {
  Time t = to_cruise();
  t = feed(t, t + Duration::millis(3800));
  ASSERT_EQ(law().phase(), KneeLaw::Phase::kProbe);
  t = feed(t, t, {.queue_ms = 15});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain);
  EXPECT_NEAR(*law().knee_Bps(), kRate, 1);
  t = feed(t, t + Duration::millis(200));
  ASSERT_EQ(law().phase(), KneeLaw::Phase::kCruise);
  t = feed(t, t + Duration::millis(7600));  // 8 s: not yet
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kCruise);
  t = feed(t, t + Duration::millis(400), {.delivered_Bps = 1.03 * kRate});  // the path carries the probe
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kProbe);
  EXPECT_NEAR(law().rate_Bps(), 1.03 * kRate, 1);
  // The knee is bracketed now: a passed probe no longer doubles the next step.
  feed(t, t + Duration::millis(600), {.delivered_Bps = 1.03 * kRate});
  EXPECT_NEAR(*law().knee_Bps(), 1.03 * kRate, 1);
  EXPECT_NEAR(law().rate_Bps(), 1.03 * 1.03 * kRate, 1);
}

TEST_F(KneeLawTest, AQueueInCruiseLowersTheKneeByAtMostOneProbeStep) {
  Time t = to_cruise();
  feed(t, t, {.queue_ms = 30, .delivered_Bps = 20'000});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain);
  EXPECT_NEAR(*law().knee_Bps(), 0.97 * kRate, 1);
}

// A link that fails frames until its MAC gives up (a bad channel): the
// packets behind it wait, and the report that carries the loss shows their
// queue after a clean one. The queue is drained; K is not judged by it.
TEST_F(KneeLawTest, AStallInCruiseDrainsButKeepsTheKnee) {
  Time t = to_cruise();
  t = feed(t, t, {.queue_ms = 60, .delivered_Bps = 20'000, .loss = true});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain);
  EXPECT_NEAR(*law().knee_Bps(), kRate, 1);
  // Drained: cruise at the same K.
  feed(t, t + Duration::millis(200));
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kCruise);
  EXPECT_NEAR(law().rate_Bps(), 0.97 * kRate, 1);
}

// A queue that stood before the loss is not a stall (a drop-tail queue that
// overflowed): K falls as at any queue in cruise.
TEST_F(KneeLawTest, ALossWithAQueueThatStoodBeforeLowersTheKnee) {
  Time t = to_cruise();
  t = feed(t, t, {.queue_ms = 30, .delivered_Bps = 20'000});
  ASSERT_NEAR(*law().knee_Bps(), 0.97 * kRate, 1);
  t = feed(t, t + Duration::millis(200), {.queue_ms = 35, .delivered_Bps = 20'000});
  // Still growing once the drain has had its RTT and report interval.
  feed(t, t, {.queue_ms = 40, .delivered_Bps = 20'000, .loss = true});
  EXPECT_NEAR(*law().knee_Bps(), 0.85 * 0.97 * kRate, 1);
}

TEST_F(KneeLawTest, AStallInAProbeIsNoVerdictOnIt) {
  Time t = to_cruise();
  t = feed(t, t + Duration::millis(3800));
  ASSERT_EQ(law().phase(), KneeLaw::Phase::kProbe);
  t = feed(t, t, {.queue_ms = 60, .loss = true});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain);
  EXPECT_NEAR(*law().knee_Bps(), kRate, 1);
  t = feed(t, t + Duration::millis(200));
  ASSERT_EQ(law().phase(), KneeLaw::Phase::kCruise);
  // The cruise is as long as before (4 s), not twice as long, and the knee
  // is not bracketed: the next passed probe still doubles the step.
  t = feed(t, t + Duration::millis(3800));
  ASSERT_EQ(law().phase(), KneeLaw::Phase::kProbe);
  feed(t, t + Duration::millis(600), {.delivered_Bps = 1.03 * kRate});
  EXPECT_NEAR(*law().knee_Bps(), 1.03 * kRate, 1);
  EXPECT_NEAR(law().rate_Bps(), 1.03 * 1.06 * kRate, 1);
}

// A route repaired in the interval (the TTL changed): the packets that
// waited for it read as a queue on the longer path's floor, with no loss.
// Drained like a stall, K kept while the queue grows over such reports;
// without the stall rule it lowers K.
TEST_F(KneeLawTest, AQueueOverADetourDrainsButKeepsTheKnee) {
  for (const bool stalls : {true, false}) {
    restart([stalls](SenderConfig& config) { config.stalls = stalls; });
    Time t = feed(ms(200), ms(800), {.ttl = 61});
    t = feed(t, t, {.queue_ms = 20, .ttl = 61});
    t = feed(t, t + Duration::millis(200), {.ttl = 61});
    ASSERT_EQ(law().phase(), KneeLaw::Phase::kCruise);
    const Path detour{.queue_ms = 60, .delivered_Bps = 20'000, .ttl = 61, .ttl_changed = true};
    t = feed(t, t, detour);
    EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain);
    // Still growing, and the path delivering less than the drain rate.
    t = feed(t, t, {.queue_ms = 70, .delivered_Bps = 20'000, .ttl = 61, .ttl_changed = true});
    t = feed(t, t, {.queue_ms = 80, .delivered_Bps = 20'000, .ttl = 61, .ttl_changed = true});
    if (!stalls) {
      EXPECT_LT(*law().knee_Bps(), 0.95 * kRate) << "without the rule a detour lowers K";
      continue;
    }
    EXPECT_NEAR(*law().knee_Bps(), kRate, 1);
    feed(t, t + Duration::millis(200), {.ttl = 61});
    EXPECT_EQ(law().phase(), KneeLaw::Phase::kCruise);
    EXPECT_NEAR(law().rate_Bps(), 0.97 * kRate, 1);
    EXPECT_EQ(diagnostic("detour_reports"), 3);
    EXPECT_EQ(diagnostic("stall_reports"), 3);
  }
}

TEST_F(KneeLawTest, AStallInStartupHoldsTheRateAndSetsNoKnee) {
  Time t = feed(ms(200), ms(600));
  const double before = law().rate_Bps();
  t = feed(t, t, {.queue_ms = 60, .delivered_Bps = 20'000, .loss = true});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kStartup);
  EXPECT_FALSE(law().knee_Bps());
  EXPECT_NEAR(law().rate_Bps(), before, 1);
  feed(t, t);
  EXPECT_NEAR(law().rate_Bps(), before * 1.15, 1);
}

// A queue the law's drains do not empty: another flow holds it (a loss-based
// TCP fills a drop-tail queue and keeps it full) and takes the path, so the
// law gets a fifth of what it got before. With the safety floor on (mantra's
// default), the law competes. Settling is an RTT (100 ms) and a report
// interval (200 ms); half a packet at the best receive rate (50 kB/s) is
// 10 ms; every packet of a standing report waits 100 ms. Every report
// carries a TTL (the path's hop count), as the test needs.
class KneeLawCompeteTest : public KneeLawTest {
 protected:
  KneeLawCompeteTest() : KneeLawTest({}, true) {}
  static constexpr uint8_t kTtl = 60;
  Time feed(Time from, Time to, Path p = {}) {
    p.ttl = kTtl;
    return KneeLawTest::feed(from, to, p);
  }
  static constexpr double kStarved = 10'000;  // bytes/s: a fifth of the path's best
  static constexpr Path kStanding{.delivered_Bps = kStarved, .floor_ms = 120};
  // 10.2 s of a clean, steady path, then a standing queue until the law competes.
  Time to_compete() {
    Time t = feed(ms(200), ms(10200));
    for (int i = 0; i < 20 && law().phase() != KneeLaw::Phase::kCompete; ++i) t = feed(t, t, kStanding);
    return t;
  }
};

TEST_F(KneeLawCompeteTest, AQueueEveryReportWaitedInForFourSettlingTimesIsAnotherFlows) {
  Time t = feed(ms(200), ms(10200));
  t = feed(t, t + Duration::millis(800), kStanding);  // 5 reports, 1.0 s of waiting: not yet 4 x 300 ms
  EXPECT_NE(law().phase(), KneeLaw::Phase::kCompete);
  feed(t, t + Duration::millis(200), kStanding);
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kCompete);
  // The law asks for twice the receive rate: the safety floor (TFRC's
  // equation; with no loss, twice the receive rate) sets what is sent.
  EXPECT_NEAR(law().rate_Bps(), 2 * kStarved, 1);
}

TEST_F(KneeLawCompeteTest, NotWhereTheLawGetsWhatThePathGaveIt) {
  // A chain whose capacity fell to the drain's rate holds a standing queue
  // too; the law gets 0.85 of its best, so no other flow takes the path.
  Time t = feed(ms(200), ms(10200));
  feed(t, t + Duration::millis(3000), {.delivered_Bps = 0.85 * kRate, .floor_ms = 120});
  EXPECT_NE(law().phase(), KneeLaw::Phase::kCompete);
}

TEST_F(KneeLawCompeteTest, OneReportAtTheFloorRestartsTheWait) {
  Time t = feed(ms(200), ms(10200));
  t = feed(t, t + Duration::millis(800), kStanding);
  t = feed(t, t);  // a packet crossed with no queue
  feed(t, t + Duration::millis(800), kStanding);
  EXPECT_NE(law().phase(), KneeLaw::Phase::kCompete);
}

TEST_F(KneeLawCompeteTest, TheWaitBeginsAtAQueueTheLawReadsItself) {
  // Other mantra flows share the path: the law gets a fifth of its best, and
  // their queue stands above the long floor by more than half a packet at
  // that best rate (10 ms) but below the law's own threshold, half a packet
  // at its K (13.6 ms). The law does not drain, so no drain failed to empty it.
  Time t = feed(ms(200), ms(10200));
  t = feed(t, t, {.queue_ms = 20, .delivered_Bps = kStarved});  // K: 36.7 kB/s over the last 500 ms
  t = feed(t, t + Duration::millis(400), {.delivered_Bps = kStarved});
  ASSERT_EQ(law().phase(), KneeLaw::Phase::kCruise);
  t = feed(t, t + Duration::millis(2000), {.delivered_Bps = kStarved, .floor_ms = 32});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kCruise);
  // A queue the law reads (25 ms): it drains, and four settling times later
  // the queue that stood through its drains is another flow's.
  t = feed(t, t + Duration::millis(800), {.delivered_Bps = kStarved, .floor_ms = 45});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain);
  feed(t, t + Duration::millis(200), {.delivered_Bps = kStarved, .floor_ms = 45});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kCompete);
}

TEST_F(KneeLawCompeteTest, NotOnAPathOfLessThanTheFloorWindow) {
  // A path that has just come carries its first, queued packets.
  Time t = feed(ms(200), ms(2000));
  feed(t, t + Duration::millis(3000), kStanding);
  EXPECT_NE(law().phase(), KneeLaw::Phase::kCompete);
}

TEST_F(KneeLawTest, NotWithoutTheSafetyFloor) {
  // With nothing to follow, competing would be sending blind.
  Time t = feed(ms(200), ms(10200), {.ttl = 60});
  feed(t, t + Duration::millis(3000), {.delivered_Bps = 10'000, .floor_ms = 120, .ttl = 60});
  EXPECT_NE(law().phase(), KneeLaw::Phase::kCompete);
}

TEST_F(KneeLawCompeteTest, NotWithoutTheHopCount) {
  // Reports without a TTL: one floor for every path, so a longer path's
  // floor would stand above a shorter one's for the whole long window.
  Time t = KneeLawTest::feed(ms(200), ms(10200));
  KneeLawTest::feed(t, t + Duration::millis(3000), kStanding);
  EXPECT_NE(law().phase(), KneeLaw::Phase::kCompete);
}

TEST_F(KneeLawCompeteTest, ADipThatEmptiesTheQueueSearchesTheKneeAgain) {
  Time t = to_compete();
  ASSERT_EQ(law().phase(), KneeLaw::Phase::kCompete);
  t = feed(t, t + Duration::millis(9800), kStanding);
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kCompete);
  t = feed(t, t, kStanding);  // 10 s in [compete]: the dip, half of what arrives
  EXPECT_NEAR(law().rate_Bps(), 0.5 * kStarved, 1);
  feed(t, t);  // the queue emptied: it was the law's own
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kStartup);
  EXPECT_FALSE(law().knee_Bps());
}

TEST_F(KneeLawCompeteTest, AQueueThatOutlastsTheDipIsStillAnotherFlows) {
  Time t = to_compete();
  t = feed(t, t + Duration::millis(9800), kStanding);
  ASSERT_NEAR(law().rate_Bps(), 0.5 * kStarved, 1);  // the dip began at this feed's last report
  // The dip lasts two settling times (600 ms) and twice the standing queue
  // (100 ms): at half the rate a queue of the law's own would be gone.
  t = feed(t, t + Duration::millis(400), kStanding);  // 200-600 ms into the dip
  EXPECT_NEAR(law().rate_Bps(), 0.5 * kStarved, 1);
  feed(t, t + Duration::millis(200), kStanding);  // 800 ms
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kCompete);
  EXPECT_NEAR(law().rate_Bps(), 2 * kStarved, 1);
}

TEST_F(KneeLawCompeteTest, NoReportsHalveTheRateAndTheLawCompetesOn) {
  to_compete();
  ASSERT_EQ(law().phase(), KneeLaw::Phase::kCompete);
  sender.handle_timeout(sender.state().nofeedback_deadline().value());
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kCompete);
  EXPECT_NEAR(law().rate_Bps(), kStarved, 1);
}

TEST_F(KneeLawTest, ACeMarkIsAQueueAndTheAgentsRateOnlyWhenAsked) {
  Time t = feed(ms(200), ms(400), {.r_min = -5000});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kStartup);  // agent_signal is off by default
  feed(t, t, {.ce = 1});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain);

  SenderConfig c;
  c.agent_signal = true;
  KneeSender with_agents(c);
  with_agents.poll_transmit(ms(0));
  with_agents.handle_datagram(ms(200), report(ms(200), {.r_min = -5000}), Ecn::kNotEct);
  EXPECT_EQ(with_agents.law().phase(), KneeLaw::Phase::kDrain);
}

TEST_F(KneeLawTest, NoReportsHalveTheRateAndRecoveryReturnsToTheKnee) {
  Time t = to_cruise();
  ASSERT_TRUE(sender.poll_timeout());
  const Time deadline = sender.state().nofeedback_deadline().value();
  EXPECT_EQ(deadline, t - Duration::millis(200) + Duration::millis(800));  // 4 report intervals
  sender.handle_timeout(deadline);
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kRecover);
  EXPECT_NEAR(law().rate_Bps(), 0.97 * kRate / 2, 1);
  t = feed(deadline + Duration::millis(100), deadline + Duration::millis(1100));
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kCruise);
  EXPECT_NEAR(law().rate_Bps(), 0.97 * kRate, 1);
}

TEST_F(KneeLawTest, TheDelayFloorFollowsALongerPathAfterItsWindow) {
  Time t = to_cruise();
  // The path grows by 15 ms: a queue at first, a floor 10 s later.
  for (int i = 0; i < 60; ++i, t = t + Duration::millis(200)) {
    while (sender.poll_transmit(t)) {
    }
    auto bytes = report(t);
    auto rep = *decode_report(bytes);
    rep.owd_min_us += 15'000;
    rep.owd_mean_us += 15'000;
    sender.handle_datagram(t, encode_report(rep), Ecn::kNotEct);
  }
  EXPECT_NEAR(diagnostic("delay_floor_ms"), 35, 0.01);
  EXPECT_NEAR(diagnostic("last_queue_ms"), 0, 0.01);
}

TEST_F(KneeLawTest, AReportEchoingNoPacketSentIsRefused) {
  while (sender.poll_transmit(ms(0))) {
  }
  auto rep = *decode_report(report(ms(200)));
  rep.echo_send_time_us = -1;
  sender.handle_datagram(ms(200), encode_report(rep), Ecn::kNotEct);
  rep.echo_send_time_us = ms(100).us();
  rep.elapsed_us = 100'001;  // arrived before it was sent
  sender.handle_datagram(ms(200), encode_report(rep), Ecn::kNotEct);
  EXPECT_EQ(sender.stats().datagrams_rejected, 2);
  EXPECT_FALSE(sender.state().has_rtt());
}

// A path two hops longer has a floor 30 ms higher. Without the TTL its
// delay reads as a queue on the old floor; with it, the new path gets its
// own floor and the cruise goes on.
TEST_F(KneeLawTest, ALongerPathsFloorIsNoQueueWhereTheTtlShowsIt) {
  struct Case {
    uint8_t ttl;    // 0: the driver reads none
    bool path_ttl;  // the law uses it
  };
  for (const Case c : {Case{0, true}, Case{61, false}, Case{61, true}}) {
    const bool uses_ttl = c.ttl != 0 && c.path_ttl;
    restart([&](SenderConfig& config) { config.path_ttl = c.path_ttl; });
    Time t = feed(ms(200), ms(800), {.ttl = c.ttl});
    t = feed(t, t, {.queue_ms = 20, .ttl = c.ttl});
    t = feed(t, t + Duration::millis(200), {.ttl = c.ttl});
    ASSERT_EQ(law().phase(), KneeLaw::Phase::kCruise);
    const uint8_t longer = c.ttl == 0 ? 0 : c.ttl - 2;
    // An interval with packets of both paths: with the TTL, the new path has
    // no floor yet and the delay says nothing.
    t = feed(t, t, {.queue_ms = 10, .floor_ms = 35, .ttl = longer, .ttl_changed = c.ttl != 0});
    EXPECT_EQ(law().phase(), uses_ttl ? KneeLaw::Phase::kCruise : KneeLaw::Phase::kDrain);
    feed(t, t + Duration::millis(400), {.floor_ms = 50, .ttl = longer});
    if (!uses_ttl) {
      EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain) << "no TTL: the longer path reads as a queue";
    } else {
      // A path of another hop count: its knee is searched again from the rate
      // that crosses, with no queue read from its floor.
      EXPECT_EQ(law().phase(), KneeLaw::Phase::kStartup);
      EXPECT_GT(law().rate_Bps(), 0.97 * kRate);
    }
  }
}

// A path that keeps changing leaves no floor: then the law holds its rate
// (no growth on a report that cannot show a queue), and a mark still counts.
TEST_F(KneeLawTest, ReportsWithNoFloorHoldTheRateAndAMarkStillCounts) {
  Time t = feed(ms(200), ms(600), {.ttl = 61});
  const double rate = law().rate_Bps();
  // Every interval has packets of two paths, and the floors of 10 s ago are gone.
  t = feed(t + Duration::seconds(11), t + Duration::seconds(13), {.ttl = 60, .ttl_changed = true});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kStartup);
  EXPECT_NEAR(law().rate_Bps(), rate, 1);
  EXPECT_EQ(diagnostic("unjudged_reports"), 11);          // 13 s - 11 s, a report every 200 ms
  feed(t, t, {.ce = 1, .ttl = 61, .ttl_changed = true});  // a mark is the path's queue, not a detour
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain);
  EXPECT_TRUE(law().knee_Bps());
}

TEST_F(KneeLawTest, AReportWithNoDelayChangesNothingAndLeavesTheFloor) {
  Time t = to_cruise();
  const double rate = law().rate_Bps();
  t = feed(t, t + Duration::millis(600), {.no_delay = true});  // its zeros are not a floor
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kCruise);
  EXPECT_NEAR(law().rate_Bps(), rate, 1);
  feed(t, t, {.queue_ms = 15});  // still judged on the 20-ms floor
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain);
}

TEST_F(KneeLawTest, WithoutTheDelaySignalOnlyMarksAreAQueue) {
  restart([](SenderConfig& config) { config.delay_signal = false; });
  Time t = feed(ms(200), ms(800), {.queue_ms = 100});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kStartup);
  feed(t, t, {.ce = 1});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain);
}

TEST_F(KneeLawTest, AnIntervalOverTwoPathsIsJudgedOnTheLongerOnesFloor) {
  Time t = feed(ms(200), ms(800), {.ttl = 61});
  t = feed(t, t, {.queue_ms = 20, .ttl = 61});
  t = feed(t, t + Duration::millis(200), {.ttl = 61});
  t = feed(t, t + Duration::millis(200), {.floor_ms = 50, .ttl = 59});  // the longer path, in its own floor
  ASSERT_EQ(law().phase(), KneeLaw::Phase::kStartup);
  t = feed(t, t + Duration::millis(200), {.ttl = 61});  // and back: its K again, recovering to the cruise
  const KneeLaw::Phase back = law().phase();
  ASSERT_NE(back, KneeLaw::Phase::kDrain);
  // Packets over both: a mean 5 ms above the longer path's floor is no queue;
  // 15 ms above it is.
  t = feed(t, t, {.queue_ms = 35, .floor_ms = 20, .ttl = 61, .ttl_changed = true});
  EXPECT_EQ(law().phase(), back);
  feed(t, t, {.queue_ms = 45, .floor_ms = 20, .ttl = 61, .ttl_changed = true});
  EXPECT_EQ(law().phase(), KneeLaw::Phase::kDrain);
}

TEST(KneeLawData, AsksForEcnSoAMarkingQueueShowsUnlessToldNot) {
  for (const bool ecn : {true, false}) {
    SenderConfig c;
    c.ecn = ecn;
    KneeSender sender(c);
    const auto d = sender.poll_transmit(Time::from_us(0));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->ecn, ecn ? Ecn::kEct0 : Ecn::kNotEct);
  }
}

TEST(KneeLawParse, RefusesValuesOutsideTheirRange) {
  SenderConfig c;
  EXPECT_EQ(KneeLaw::parse({{"cruise_margin", 1}}, c), "cruise_margin must be in [0, 1)");
  EXPECT_EQ(KneeLaw::parse({{"probe_reports", 1.5}}, c), "probe_reports must be a whole number in [1, 100]");
  EXPECT_EQ(KneeLaw::parse({{"cruise_max_s", 1}}, c), "cruise_max_s must be in [cruise_s, 3600]");
  EXPECT_EQ(KneeLaw::parse({{"delay_signal", 2}}, c), "delay_signal must be 0 or 1");
  EXPECT_EQ(KneeLaw::parse({{"path_ttl", 0.5}}, c), "path_ttl must be 0 or 1");
  EXPECT_EQ(KneeLaw::parse({}, c), "");
  EXPECT_TRUE(c.sending.safety_floor);  // on unless asked off
  EXPECT_FALSE(c.agent_signal);
  EXPECT_TRUE(c.delay_signal);
  EXPECT_TRUE(c.path_ttl);
  EXPECT_TRUE(c.ecn);
  EXPECT_EQ(KneeLaw::parse({{"ecn", 3}}, c), "ecn must be 0 or 1");
  EXPECT_EQ(KneeLaw::parse({{"stalls", 2}}, c), "stalls must be 0 or 1");
  EXPECT_EQ(KneeLaw::parse({}, c), "");
  EXPECT_TRUE(c.stalls);
  EXPECT_TRUE(c.compete);
  EXPECT_EQ(KneeLaw::parse({{"compete", 0.5}}, c), "compete must be 0 or 1");
  EXPECT_EQ(KneeLaw::parse({{"long_window_s", 5}}, c), "long_window_s must be in [base_window_s, 3600]");
}

}  // namespace
}  // namespace mantra::knee
