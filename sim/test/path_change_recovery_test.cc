// The recovery time after a path change: the rule of measurement/path_change_recovery.h.
#include "measurement/path_change_recovery.h"

#include <gtest/gtest.h>

namespace mantra::sim {
namespace {

// 100 packets/s of 1000 bytes from `from_s` (included) to `to_s` (excluded),
// the first one on a new path if `changed`.
void arrive(PathChangeRecovery& r, double from_s, double to_s, bool changed = false, double per_s = 100) {
  for (double t = from_s; t < to_s - 1e-9; t += 1 / per_s) {
    r.on_arrival(t, 1000, changed);
    changed = false;
  }
}

TEST(PathChangeRecovery, AChangeWithoutAnOutageRecoversAtOnce) {
  PathChangeRecovery r;
  arrive(r, 0, 5);
  arrive(r, 5, 8, true);
  const auto s = r.summary();
  EXPECT_EQ(s["changes"], 1);
  EXPECT_NEAR(s["median_s"].get<double>(), 0.01, 1e-6);  // one packet gap
  EXPECT_EQ(s["within_2s_share"], 1.0);
}

TEST(PathChangeRecovery, AnOutageCountsAndTheRateMustReturnToEightyPercent) {
  PathChangeRecovery r;
  arrive(r, 0, 5);               // the old path's last delivery at 4.99 s
  arrive(r, 6.5, 12, true, 50);  // 1.5 s of nothing, then half the rate: never 80 %
  EXPECT_EQ(r.summary()["unrecovered"], 1);
  EXPECT_TRUE(r.summary()["median_s"].is_null());
  // Full rate again. The earlier rate is 201 packets over 2 s; [t - 1, t] holds
  // 80.4 of them once 50 (1 - x) + 100 x + 1 >= 80.4: x = 0.59, at 12.62 s.
  arrive(r, 12, 14, false, 100);
  const auto s = r.summary();
  EXPECT_EQ(s["unrecovered"], 0);
  EXPECT_NEAR(s["median_s"].get<double>(), 12.62 - 4.99, 0.011);
  EXPECT_EQ(s["within_2s_share"], 0.0);
}

TEST(PathChangeRecovery, ChangesDuringARecoveryAreOneDisruptionAndEarlyOnesDoNotCount) {
  PathChangeRecovery r;
  arrive(r, 0, 1);
  arrive(r, 1, 3, true);        // under 2 s of history: too early to have an earlier rate
  arrive(r, 3.5, 4, true, 20);  // an outage, then a slow path
  arrive(r, 4, 4.5, true, 20);  // another path before the rate came back
  arrive(r, 4.5, 6, false, 100);
  const auto s = r.summary();
  EXPECT_EQ(s["too_early"], 1);
  EXPECT_EQ(s["changes"], 1);
  EXPECT_EQ(s["merged"], 1);
  EXPECT_EQ(s["unrecovered"], 0);
}

}  // namespace
}  // namespace mantra::sim
