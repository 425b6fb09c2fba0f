// RankWindow: the ranking rule (ranker_test.cc) against the latest samples
// only.
#include "common/rank_window.h"

#include <gtest/gtest.h>

namespace mantra {
namespace {

TEST(RankWindow, OldSamplesLeaveTheWindow) {
  RankWindow w(10, 0.3, 10);
  for (int i = 0; i < 10; ++i) w.classify_and_add(100);  // old regime: high values
  for (int i = 0; i < 10; ++i) w.classify_and_add(i);    // new regime replaces them
  EXPECT_EQ(w.size(), 10u);
  EXPECT_EQ(w.classify_and_add(50), Level::kHigh);  // would be LOW against the old samples
}

TEST(RankWindow, HoldsAtMostItsCapacityAndDropsTheOldestOfEqualValues) {
  RankWindow w(12, 0.3, 10);
  for (int i = 0; i < 12; ++i) w.classify_and_add(i < 6 ? 0 : 1);  // 0 x 6, 1 x 6
  EXPECT_EQ(w.size(), 12u);
  for (int i = 0; i < 6; ++i) w.classify_and_add(1);  // the six 0s leave, oldest first
  EXPECT_EQ(w.size(), 12u);
  EXPECT_EQ(w.classify_and_add(0.5), Level::kLow);   // 12 of 12 above
  EXPECT_EQ(w.classify_and_add(1), Level::kMiddle);  // 1 below (0.5), 0 above
}

}  // namespace
}  // namespace mantra
