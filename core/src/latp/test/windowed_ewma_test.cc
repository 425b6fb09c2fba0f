// LATP's 3-sigma EWMA (§4.1): a step change is followed, a single outlier is
// not, and the weights are the paper's (0.125 inside, 0.875 outside).
#include "latp/windowed_ewma.h"

#include <gtest/gtest.h>

namespace mantra::latp {
namespace {

WindowedEwma settled_at(double v, int samples = 50) {
  WindowedEwma e;
  for (int i = 0; i < samples; ++i) e.update(v + (i % 2 ? 0.01 : -0.01));
  return e;
}

TEST(WindowedEwma, FirstSampleSeedsTheEstimate) {
  WindowedEwma e;
  EXPECT_TRUE(e.update(0.4));
  EXPECT_DOUBLE_EQ(e.value(), 0.4);
  EXPECT_DOUBLE_EQ(e.sigma(), 0.0);
}

TEST(WindowedEwma, SampleInsideWindowGetsWeightSevenEighths) {
  WindowedEwma e = settled_at(0.3);
  const double before = e.value();
  const double x = before + e.sigma();  // one sigma away: inside
  EXPECT_TRUE(e.update(x));
  EXPECT_NEAR(e.value(), 0.125 * before + 0.875 * x, 1e-12);
}

TEST(WindowedEwma, SampleOutsideWindowGetsWeightOneEighth) {
  WindowedEwma e = settled_at(0.3);
  const double before = e.value();
  EXPECT_FALSE(e.update(0.9));
  EXPECT_NEAR(e.value(), 0.875 * before + 0.125 * 0.9, 1e-12);
  EXPECT_GT(e.sigma(), 0.05);  // the window widens after a surprise
}

TEST(WindowedEwma, SingleOutlierIsNotTracked) {
  WindowedEwma e = settled_at(0.3);
  e.update(0.9);
  EXPECT_LT(e.value(), 0.3 + 0.125 * 0.6 + 0.02);  // moved at most an eighth of the way
  for (int i = 0; i < 5; ++i) e.update(0.3);
  EXPECT_NEAR(e.value(), 0.3, 0.01);
}

TEST(WindowedEwma, StepChangeIsTrackedWithinAFewSamples) {
  WindowedEwma e = settled_at(0.3);
  int samples = 0;
  while (std::abs(e.value() - 0.8) > 0.05 && samples < 100) {
    e.update(0.8);
    ++samples;
  }
  EXPECT_LE(samples, 6);  // by the rule: outside, outside, then inside and followed
  for (int i = 0; i < 10; ++i) e.update(0.8);
  EXPECT_NEAR(e.value(), 0.8, 0.005);
}

}  // namespace
}  // namespace mantra::latp
