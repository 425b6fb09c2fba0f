// LATP receiver's R_avg (§4.2): eta 0.5 inside R_avg ± 3 sigma_R; values
// outside wait in the suspect window and are taken only when three arrive
// within one RTT.
#include "latp/rate_feedback_filter.h"

#include <gtest/gtest.h>

namespace mantra::latp {
namespace {

Time ms(int64_t v) { return Time::from_us(v * 1000); }
const Duration kRtt = Duration::millis(100);

// R_avg settled near 50 kB/s with sigma about 1 kB/s, at time 1 s.
RateFeedbackFilter settled() {
  RateFeedbackFilter f;
  for (int i = 0; i < 100; ++i) f.add(ms(i * 10), 50000 + (i % 2 ? 1000 : -1000), kRtt);
  return f;
}

TEST(RateFeedbackFilter, InsideWindowAveragesWithEtaHalf) {
  RateFeedbackFilter f = settled();
  const double before = f.value();
  f.add(ms(1000), before + 1500, kRtt);
  EXPECT_NEAR(f.value(), before + 750, 1e-9);
  EXPECT_EQ(f.suspects(), 0u);
}

TEST(RateFeedbackFilter, SingleOutlierIsHeldAsSuspect) {
  RateFeedbackFilter f = settled();
  const double before = f.value();
  f.add(ms(1000), -20000, kRtt);
  EXPECT_DOUBLE_EQ(f.value(), before);
  EXPECT_EQ(f.suspects(), 1u);
}

TEST(RateFeedbackFilter, ThreeOutliersWithinOneRttAreTaken) {
  RateFeedbackFilter f = settled();
  const int64_t changes = f.changes_accepted();
  for (int i = 0; i < 3; ++i) f.add(ms(1000 + 30 * i), -20000, kRtt);
  // Folded in order with eta 0.5: 50k -> 15k -> -2.5k -> -11.25k.
  EXPECT_NEAR(f.value(), -11250, 600);
  EXPECT_LT(f.value(), 0);
  EXPECT_EQ(f.suspects(), 0u);
  EXPECT_EQ(f.changes_accepted(), changes + 1);
}

TEST(RateFeedbackFilter, OutliersSpreadOverMoreThanAnRttAreNotTaken) {
  RateFeedbackFilter f = settled();
  const double before = f.value();
  const int64_t changes = f.changes_accepted();
  // 150 ms apart: each older suspect has left the window when the next comes.
  for (int i = 0; i < 3; ++i) {
    f.add(ms(1000 + 150 * i), -20000, kRtt);
    f.add(ms(1000 + 150 * i + 1), before, kRtt);  // normal values between them
  }
  EXPECT_NEAR(f.value(), before, 100);
  EXPECT_EQ(f.changes_accepted(), changes);
}

}  // namespace
}  // namespace mantra::latp
