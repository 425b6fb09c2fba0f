// The windowed minimum and maximum: the extreme of the values of the last
// window, and nothing once every value is older than it.
#include "common/window_extreme.h"

#include <gtest/gtest.h>

#include <functional>
#include <utility>

namespace mantra {
namespace {

Time s(int64_t v) { return Time::from_us(v * 1'000'000); }

TEST(WindowExtreme, KeepsTheLeastOrGreatestOfTheWindow) {
  WindowExtreme<int64_t, std::less<>> low(Duration::seconds(10));
  WindowExtreme<int64_t, std::greater<>> high(Duration::seconds(10));
  EXPECT_FALSE(low.extreme());
  for (const auto& [t, v] : {std::pair{0, 30}, {5, 40}, {8, 20}, {12, 35}}) {
    low.add(s(t), v);
    high.add(s(t), v);
  }
  EXPECT_EQ(low.extreme(), 20);
  EXPECT_EQ(high.extreme(), 40);  // t = 5 is still within 10 s of t = 12
  high.expire(s(16));             // now it is not: the greatest since is 35
  EXPECT_EQ(high.extreme(), 35);
  low.expire(s(23));
  EXPECT_TRUE(low.empty());
  EXPECT_FALSE(low.extreme());
}

}  // namespace
}  // namespace mantra
