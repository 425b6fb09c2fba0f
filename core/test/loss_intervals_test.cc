// RFC 5348 §5.2-§5.5: loss events, weighted average, history discounting.
#include "common/loss_intervals.h"

#include <gtest/gtest.h>

#include <vector>

namespace mantra {
namespace {

constexpr Duration kRtt = Duration::millis(100);

// Builds a history whose intervals are [I_0, I_1, ...] (I_0 the open one),
// with loss events one second apart so each loss is a new event.
LossIntervals history(const std::vector<int>& intervals, bool discounting) {
  LossIntervals h(discounting);
  const size_t k = intervals.size() - 1;
  int64_t seq = 0;
  Time t = Time::zero();
  h.on_loss(seq, t, kRtt);
  h.set_first_interval(intervals[k]);  // the synthetic I_1 of the first event
  for (size_t j = k - 1; j >= 1; --j) {
    seq += intervals[j];
    t += Duration::seconds(1);
    h.on_highest_seq(seq - 1);  // the packets of the interval arrived
    h.on_loss(seq, t, kRtt);
  }
  h.on_highest_seq(seq + intervals[0] - 1);
  return h;
}

TEST(Rfc5348Section5_4, AverageOfEightEqualIntervalsIgnoresShortOpenInterval) {
  auto h = history({50, 100, 100, 100, 100, 100, 100, 100, 100}, false);
  EXPECT_DOUBLE_EQ(h.open_interval(), 50);
  EXPECT_DOUBLE_EQ(h.loss_event_rate(), 0.01);
}

TEST(Rfc5348Section5_4, LongOpenIntervalRaisesTheMean) {
  auto h = history({500, 100, 100, 100, 100, 100, 100, 100, 100}, false);
  EXPECT_NEAR(h.mean_interval(), 166.667, 1e-3);
  EXPECT_NEAR(h.loss_event_rate(), 0.006, 1e-9);
}

TEST(Rfc5348Section5_4, WeightsOneToPointTwo) {
  // [0, 10, 20, ..., 80]: (10+20+30+40+0.8*50+0.6*60+0.4*70+0.2*80)/6 = 36.667
  auto h = history({1, 10, 20, 30, 40, 50, 60, 70, 80}, false);
  EXPECT_NEAR(h.mean_interval(), 36.667, 1e-3);
}

TEST(Rfc5348Section5_4, FewerThanEightIntervals) {
  EXPECT_DOUBLE_EQ(history({5, 100}, false).loss_event_rate(), 0.01);
  EXPECT_DOUBLE_EQ(history({200, 100}, false).loss_event_rate(), 0.005);
  EXPECT_DOUBLE_EQ(history({30, 100, 200}, false).mean_interval(), 150);
}

TEST(Rfc5348Section5_4, OnlyEightIntervalsAreKept) {
  auto h = history({1, 100, 100, 100, 100, 100, 100, 100, 100, 5000, 5000}, false);
  EXPECT_EQ(h.closed().size(), 8u);
  EXPECT_DOUBLE_EQ(h.mean_interval(), 100);
}

TEST(Rfc5348Section5_5, DiscountingHalvesOldHistoryWeight) {
  // [1000, 100x8]: DF = max(0.5, 2*100/1000) = 0.5 -> I_mean = 1250/3.5.
  auto h = history({1000, 100, 100, 100, 100, 100, 100, 100, 100}, true);
  EXPECT_NEAR(h.mean_interval(), 357.142857, 1e-5);
}

TEST(Rfc5348Section5_5, DiscountFactorBetweenHalfAndOne) {
  // [300, 100x8]: DF = 2/3 -> I_mean = (300 + 500*2/3) / (1 + 5*2/3) = 146.15.
  auto h = history({300, 100, 100, 100, 100, 100, 100, 100, 100}, true);
  EXPECT_NEAR(h.mean_interval(), 146.1538, 1e-3);
}

TEST(Rfc5348Section5_5, NoDiscountWhileOpenIntervalIsShort) {
  auto with = history({150, 100, 100, 100, 100, 100, 100, 100, 100}, true);
  auto without = history({150, 100, 100, 100, 100, 100, 100, 100, 100}, false);
  EXPECT_DOUBLE_EQ(with.mean_interval(), without.mean_interval());
}

TEST(Rfc5348Section5_5, DiscountSticksToHistoryAfterTheNextEvent) {
  // A long interval of 1000 closes with DF = 0.5 on the old 100s; afterwards
  // the average weighs the old intervals at half.
  auto h = history({10, 1000, 100, 100, 100, 100, 100, 100, 100}, true);
  // closed: 1000 (DF 1, weight w_1), then 7 x 100 (DF 0.5, weights w_2..w_8).
  double tot = 1000 * 1.0, w = 1.0;
  const double weights[] = {1, 1, 1, 0.8, 0.6, 0.4, 0.2};
  for (double wi : weights) {
    tot += 100 * wi * 0.5;
    w += wi * 0.5;
  }
  EXPECT_NEAR(h.mean_interval(), tot / w, 1e-9);
}

TEST(Rfc5348Section5_2, LossesWithinOneRttAreOneEvent) {
  LossIntervals h(false);
  EXPECT_TRUE(h.on_loss(10, Time::from_us(1000000), kRtt));
  EXPECT_FALSE(h.on_loss(12, Time::from_us(1050000), kRtt));  // 50 ms later
  EXPECT_FALSE(h.on_loss(15, Time::from_us(1100000), kRtt));  // exactly T_old + R
  EXPECT_TRUE(h.on_loss(20, Time::from_us(1100001), kRtt));
  EXPECT_EQ(h.loss_events(), 2);
  ASSERT_EQ(h.closed().size(), 1u);
  EXPECT_DOUBLE_EQ(h.closed()[0], 10);  // between the first losses of the events
}

TEST(Rfc5348Section5_3, NoLossMeansZeroRate) {
  LossIntervals h;
  h.on_highest_seq(1000);
  EXPECT_DOUBLE_EQ(h.loss_event_rate(), 0.0);
}

}  // namespace
}  // namespace mantra
