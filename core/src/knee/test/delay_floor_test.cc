// mantra's delay floor: the window's minimum, one per TTL (hop count) and
// size class of the packets timed.
#include "knee/delay_floor.h"

#include <gtest/gtest.h>

namespace mantra::knee {
namespace {

Time s(int64_t v) { return Time::from_us(v * 1'000'000); }

TEST(DelayFloor, IsTheMinimumOverTheWindow) {
  DelayFloor f(Duration::seconds(10));
  f.add(s(0), {61}, 30'000);
  f.add(s(5), {61}, 40'000);
  EXPECT_EQ(f.of({61}), 30'000);
  f.add(s(11), {61}, 45'000);  // the 30 ms of t = 0 is out of the window
  EXPECT_EQ(f.of({61}), 40'000);
  f.add(s(16), {61}, 50'000);
  EXPECT_EQ(f.of({61}), 45'000);
}

TEST(DelayFloor, KeepsAFloorPerTtlAndForgetsAPathNotSeen) {
  DelayFloor f(Duration::seconds(10));
  f.add(s(0), {61}, 20'000);
  f.add(s(1), {59}, 30'000);  // two hops more
  EXPECT_EQ(f.of({61}), 20'000);
  EXPECT_EQ(f.of({59}), 30'000);
  EXPECT_EQ(f.highest(), 30'000);
  EXPECT_FALSE(f.of({60}));
  f.add(s(10), {61}, 25'000);
  EXPECT_EQ(f.of({61}), 20'000);  // t = 0 is still within 10 s
  f.expire(s(12));
  EXPECT_FALSE(f.of({59}));
  EXPECT_EQ(f.of({61}), 25'000);
  EXPECT_EQ(f.highest(), 25'000);
  f.expire(s(21));
  EXPECT_FALSE(f.highest());
}

// A video's larger frames are not judged on its smaller frames' floor: on a
// multi-hop radio every hop sends every byte.
TEST(DelayFloor, KeepsAFloorPerSizeClass) {
  EXPECT_EQ(FloorKey::of(61, 1000), FloorKey::of(61, 950));  // within 1.11 of each other, one class
  EXPECT_NE(FloorKey::of(61, 1000), FloorKey::of(61, 200));
  EXPECT_NE(FloorKey::of(61, 1000), FloorKey::of(59, 1000));
  EXPECT_EQ(FloorKey::of(61, 0).size_class, 0);  // not known: one class of its own
  EXPECT_EQ(FloorKey::of(61, 1).size_class, 1);
  EXPECT_EQ(FloorKey::of(61, 65535).size_class, 106);
  DelayFloor f(Duration::seconds(10));
  f.add(s(0), FloorKey::of(61, 200), 6'000);
  f.add(s(1), FloorKey::of(61, 1000), 20'000);
  EXPECT_EQ(f.of(FloorKey::of(61, 1000)), 20'000);
  EXPECT_EQ(f.of(FloorKey::of(61, 200)), 6'000);
}

}  // namespace
}  // namespace mantra::knee
