// Unit arithmetic: the unit of a result follows from the units of its inputs.
#include "mantra/units.h"

#include <gtest/gtest.h>

namespace mantra {
namespace {

TEST(Units, BytesOverRateIsSerialisationTime) {
  EXPECT_EQ(Bytes(1000) / Rate::bps(2000000), Duration::millis(4));
  EXPECT_EQ(Bytes(1) / Rate::zero(), Duration::infinite());
}

TEST(Units, RateTimesDurationIsBytes) { EXPECT_EQ(Rate::kbps(180) * Duration::seconds(2), Bytes(45000)); }

TEST(Units, BytesOverDurationIsRate) {
  EXPECT_EQ(Bytes(125000) / Duration::seconds(1), Rate::bps(1000000));
  EXPECT_EQ(Bytes(1) / Duration::zero(), Rate::zero());
}

TEST(Units, TimeMinusTimeIsDuration) {
  const Time a = Time::from_us(5000), b = Time::from_us(2000);
  EXPECT_EQ(a - b, Duration::millis(3));
  EXPECT_EQ(b + Duration::millis(3), a);
  EXPECT_DOUBLE_EQ(Duration::millis(1500).secs(), 1.5);
}

}  // namespace
}  // namespace mantra
