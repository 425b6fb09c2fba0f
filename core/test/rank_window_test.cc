// RankWindow: HIGH / LOW as the top / bottom 30 % of recent samples (ADTFRC
// Table II's classification).
#include "common/rank_window.h"

#include <gtest/gtest.h>

namespace mantra {
namespace {

RankWindow filled(std::initializer_list<double> xs, size_t capacity = 100) {
  RankWindow w(capacity, 0.3, 10);
  for (double x : xs) w.classify_and_add(x);
  return w;
}

TEST(RankWindow, NothingIsExtremeBeforeTheMinimumSampleCount) {
  RankWindow w(100, 0.3, 10);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(w.classify_and_add(i * 100.0), Level::kMiddle) << i;
  EXPECT_EQ(w.classify_and_add(1e9), Level::kHigh);
}

TEST(RankWindow, TopAndBottomThirtyPercentOfTheWindow) {
  auto w = filled({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  EXPECT_EQ(filled({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}).classify_and_add(7.5), Level::kHigh);    // 7 of 10 below
  EXPECT_EQ(filled({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}).classify_and_add(6.5), Level::kMiddle);  // 6 of 10 below
  EXPECT_EQ(filled({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}).classify_and_add(3.5), Level::kLow);     // 7 of 10 above
  EXPECT_EQ(w.classify_and_add(4.5), Level::kMiddle);
}

TEST(RankWindow, AValueEqualToMostSamplesIsNeitherExtreme) {
  auto w = filled({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(w.classify_and_add(0), Level::kMiddle);  // a usually-zero ratio at zero
  EXPECT_EQ(w.classify_and_add(0.1), Level::kHigh);
}

TEST(RankWindow, OldSamplesLeaveTheWindow) {
  RankWindow w(10, 0.3, 10);
  for (int i = 0; i < 10; ++i) w.classify_and_add(100);  // old regime: high values
  for (int i = 0; i < 10; ++i) w.classify_and_add(i);    // new regime replaces them
  EXPECT_EQ(w.size(), 10u);
  EXPECT_EQ(w.classify_and_add(50), Level::kHigh);  // would be LOW against the old samples
}

}  // namespace
}  // namespace mantra
