// The video's rate over TCP (media/tcp_video_rate.h), without ns-3: the
// filter keeps the largest recent delivery-rate sample (an app-limited one
// only above it), and the rate climbs with gain 2, then probes at 1.25,
// capped by the window.

#include "media/tcp_video_rate.h"

#include <gtest/gtest.h>

namespace mantra::sim {
namespace {

TEST(TcpVideoRate, StartsUpAtGainTwoThenProbesAQuarterAboveOnceEveryFourGops) {
  TcpVideoRate r;
  EXPECT_EQ(r.at_gop(1e9), 0);  // no sample yet: rung 0
  r.on_sample(1.0, {100000, 0.1, false}, 0.1);
  EXPECT_DOUBLE_EQ(r.at_gop(1e9), 200000);
  r.on_sample(1.5, {200000, 0.1, false}, 0.1);
  EXPECT_DOUBLE_EQ(r.at_gop(1e9), 400000);
  EXPECT_TRUE(r.in_startup());
  // The estimate stops growing by a quarter: three GOPs, then probing.
  r.on_sample(2.0, {220000, 0.1, false}, 0.1);
  EXPECT_DOUBLE_EQ(r.at_gop(1e9), 440000);
  EXPECT_DOUBLE_EQ(r.at_gop(1e9), 440000);
  EXPECT_DOUBLE_EQ(r.at_gop(1e9), 220000);  // the third without growth ends startup
  EXPECT_FALSE(r.in_startup());
  std::vector<double> cycle;
  for (int i = 0; i < 8; ++i) cycle.push_back(r.at_gop(1e9));
  EXPECT_EQ(cycle, (std::vector<double>{275000, 220000, 220000, 220000, 275000, 220000, 220000, 220000}));
  EXPECT_DOUBLE_EQ(r.at_gop(150000), 150000);  // the window caps it
}

TEST(TcpVideoRate, TheFilterKeepsTheLargestRecentSampleAndAppLimitedOnesOnlyAbove) {
  TcpVideoRate r;
  r.on_sample(1.0, {500000, 0.1, false}, 0.1);
  r.on_sample(1.2, {300000, 0.1, true}, 0.1);  // app-limited, below: left out
  EXPECT_DOUBLE_EQ(r.estimate_bps(), 500000);
  r.on_sample(1.5, {600000, 0.1, true}, 0.1);  // app-limited, above: taken
  EXPECT_DOUBLE_EQ(r.estimate_bps(), 600000);
  // With no new sample the estimate stands, however long.
  EXPECT_DOUBLE_EQ(r.estimate_bps(), 600000);
  // Samples not app-limited and lower push it out after 10 sRTT (1 s here).
  r.on_sample(2.4, {200000, 0.1, false}, 0.1);
  EXPECT_DOUBLE_EQ(r.estimate_bps(), 600000);
  r.on_sample(2.6, {250000, 0.1, false}, 0.1);
  EXPECT_DOUBLE_EQ(r.estimate_bps(), 250000);
  r.on_sample(2.7, {900000, 0.05, false}, 0.1);  // over less than one sRTT: bunched ACKs, left out
  EXPECT_DOUBLE_EQ(r.estimate_bps(), 250000);
}

}  // namespace
}  // namespace mantra::sim
