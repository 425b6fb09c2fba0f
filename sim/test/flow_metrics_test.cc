// Flow summaries: smoothness as the LATP paper defines it, jitter, loss, Jain.
#include "measurement/flow_metrics.h"

#include <gtest/gtest.h>

namespace mantra::sim {
namespace {

FlowSpec flow(double start, double stop) {
  FlowSpec f;
  f.protocol = "tfrc";
  f.start_s = start;
  f.stop_s = stop;
  return f;
}

// A sample with a path after an interval without goodput is blocked; one
// without a path is unreachable, never blocked; the first sample is neither.
TEST(FlowMetrics, ASampleWithAPathAfterAnIntervalWithoutGoodputIsBlocked) {
  FlowMetrics m(flow(0, 20), 1.0, 10.0, 0, 1e9);
  m.on_hop_sample(3);  // first: nothing to judge
  m.on_goodput(0.5, 1000);
  m.on_hop_sample(3);             // delivered since: not blocked
  m.on_hop_sample(4);             // nothing since: blocked
  m.on_hop_sample(std::nullopt);  // no path: unreachable
  m.on_goodput(4.5, 1000);
  m.on_hop_sample(2);  // delivered since: not blocked
  const auto j = m.summary()["path_hops"];
  EXPECT_DOUBLE_EQ(j["unreachable_share"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(j["blocked_share"].get<double>(), 0.25);  // 1 of the 4 samples with a path
}

TEST(FlowMetrics, SmoothnessIsMeanOfMinOverMaxPerWindow) {
  FlowMetrics m(flow(0, 20), 1.0, 10.0, 0, 1e9);
  // Window 1: 100 bytes per second except 50 in one second -> 0.5.
  // Window 2: constant -> 1.0.
  for (int s = 0; s < 20; ++s) m.on_goodput(s + 0.5, (s == 3) ? 50 : 100);
  EXPECT_DOUBLE_EQ(m.summary()["smoothness"].get<double>(), 0.75);
}

TEST(FlowMetrics, SilentSecondMakesWindowRatioZero) {
  FlowMetrics m(flow(10, 20), 1.0, 10.0, 0, 1e9);
  for (int s = 10; s < 20; ++s)
    if (s != 15) m.on_goodput(s + 0.5, 1000);
  EXPECT_DOUBLE_EQ(m.summary()["smoothness"].get<double>(), 0.0);
}

TEST(FlowMetrics, DelayJitterLossAndThroughput) {
  FlowMetrics m(flow(0, 10), 1.0, 10.0, 0, 1e9);
  for (int i = 0; i < 4; ++i) m.on_sent(i, 1000);
  m.on_arrival(0.010, 0.0);
  m.on_arrival(1.030, 1.0);
  m.on_arrival(2.020, 2.0);
  for (int i = 0; i < 3; ++i) m.on_goodput(i + 1, 1000);
  auto j = m.summary();
  EXPECT_NEAR(j["delay_ms"]["mean"].get<double>(), 20.0, 1e-9);
  EXPECT_NEAR(j["delay_ms"]["p50"].get<double>(), 20.0, 1e-9);
  EXPECT_NEAR(j["jitter_ms"].get<double>(), 15.0, 1e-9);  // (|30-10| + |20-30|) / 2
  EXPECT_NEAR(j["plr"].get<double>(), 0.25, 1e-12);
  EXPECT_NEAR(j["throughput_kbps"].get<double>(), 2.4, 1e-12);  // 3000 bytes over 10 s
  EXPECT_EQ(j["series"]["t"].size(), 10u);
  const auto& cdf = j["delay_cdf_ms"];
  ASSERT_EQ(cdf.size(), 101u);  // percentiles 0..100
  EXPECT_NEAR(cdf[0].get<double>(), 10.0, 1e-9);
  EXPECT_NEAR(cdf[25].get<double>(), 15.0, 1e-9);
  EXPECT_NEAR(cdf[100].get<double>(), 30.0, 1e-9);
}

TEST(FlowMetrics, DuplicatesCountApartFromArrivals) {
  FlowMetrics m(flow(0, 10), 1.0, 10.0, 0, 1e9);
  for (int i = 0; i < 2; ++i) m.on_sent(i, 1000);
  m.on_arrival(0.010, 0.0);
  m.on_goodput(0.010, 1000);
  m.on_duplicate(0.500);
  m.on_duplicate(0.600);
  auto j = m.summary();
  EXPECT_EQ(j["received"].get<int64_t>(), 1);
  EXPECT_EQ(j["duplicates"].get<int64_t>(), 2);
  EXPECT_NEAR(j["plr"].get<double>(), 0.5, 1e-12);
}

TEST(FlowMetrics, APacketSentAtTheWindowStartCountsOnArrival) {
  // Sent at 1 s, the flow's start and the window's; it arrives 15 ns later.
  // Its send time reconstructed as arrival minus delay is 0.9999999999999999 s
  // (1.000000015 - 0.000000015 in doubles), outside the window: it was sent
  // but never received. Counted by the sender's own clock reading, it counts.
  FlowMetrics m(flow(1, 10), 1.0, 10.0, 0, 1e9);
  m.on_sent(1.0, 1000);
  m.on_arrival(1.000000015, 1.0);
  auto j = m.summary();
  EXPECT_EQ(j["received"].get<int64_t>(), 1);
  EXPECT_DOUBLE_EQ(j["plr"].get<double>(), 0.0);
}

TEST(FlowMetrics, NoArrivalsLeaveDelayUndefined) {
  FlowMetrics m(flow(0, 10), 1.0, 10.0, 0, 1e9);
  m.on_sent(1, 1000);
  auto j = m.summary();
  EXPECT_TRUE(j["delay_ms"]["mean"].is_null());
  EXPECT_TRUE(j["delay_ms"]["p95"].is_null());
  EXPECT_TRUE(j["jitter_ms"].is_null());
  EXPECT_TRUE(j["delay_cdf_ms"].empty());
  EXPECT_DOUBLE_EQ(j["plr"].get<double>(), 1.0);
}

TEST(FlowMetrics, OnlyTheMeasurementWindowCounts) {
  FlowMetrics m(flow(10, 40), 1.0, 10.0, 20, 30);  // the steady period is [20, 30]
  for (int s = 10; s < 40; ++s) {
    m.on_sent(s + 0.1, 1000);
    // Before 20 s a 1 s delay and half the bytes; afterwards 10 ms, all bytes.
    const double delay = s < 20 ? 1.0 : 0.010;
    m.on_arrival(s + 0.1 + delay, s + 0.1);
    m.on_goodput(s + 0.1 + delay, s < 20 ? 500 : 1000);
  }
  auto j = m.summary();
  EXPECT_EQ(j["sent"].get<int>(), 10);      // sent at 20.1 .. 29.1
  EXPECT_EQ(j["received"].get<int>(), 10);  // the same packets
  EXPECT_NEAR(j["delay_ms"]["mean"].get<double>(), 10.0, 1e-9);
  // Delivered in [20, 30]: 19.1 + 1 s arrives at 20.1 with 500 bytes, then 10 x 1000.
  EXPECT_NEAR(j["throughput_kbps"].get<double>(), 10500 * 8 / 10.0 / 1e3, 1e-9);
  // One window, [20, 30): 1000 bytes a second, 1500 in the first (the late 500).
  EXPECT_NEAR(j["smoothness"].get<double>(), 1000.0 / 1500.0, 1e-12);
  EXPECT_EQ(j["measured"]["from"].get<double>(), 20);
  EXPECT_EQ(j["series"]["t"].size(), 30u);  // the series still covers the whole flow
}

TEST(FlowMetrics, JainIndex) {
  EXPECT_DOUBLE_EQ(*jain_index({5, 5, 5, 5}), 1.0);
  EXPECT_DOUBLE_EQ(*jain_index({1, 0, 0, 0}), 0.25);
  EXPECT_NEAR(*jain_index({1, 2}), 0.9, 1e-12);
  EXPECT_FALSE(jain_index({0, 0}));  // nobody got anything: not "perfectly fair"
  EXPECT_FALSE(jain_index({}));
}

}  // namespace
}  // namespace mantra::sim
