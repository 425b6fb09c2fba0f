// RFC 5348 §5.1: loss after three later packets; §5.2 interpolation.
#include "common/loss_detector.h"

#include <gtest/gtest.h>

namespace mantra {
namespace {

Time ms(int64_t v) { return Time::from_us(v * 1000); }

TEST(Rfc5348Section5_1, LossDeclaredOnThirdLaterPacket) {
  LossDetector d;
  EXPECT_TRUE(d.on_packet(0, ms(0)).losses.empty());
  EXPECT_TRUE(d.on_packet(1, ms(10)).losses.empty());
  // 2 is missing.
  EXPECT_TRUE(d.on_packet(3, ms(30)).losses.empty());
  EXPECT_TRUE(d.on_packet(4, ms(40)).losses.empty());
  auto a = d.on_packet(5, ms(50));
  ASSERT_EQ(a.losses.size(), 1u);
  EXPECT_EQ(a.losses[0].seq, 2);
  // Interpolated between 1 @ 10 ms and 3 @ 30 ms.
  EXPECT_EQ(a.losses[0].nominal_arrival, ms(20));
}

TEST(Rfc5348Section5_1, ReorderingWithinTwoPacketsIsNotLoss) {
  LossDetector d;
  for (uint32_t s : {0u, 2u, 3u, 1u, 4u, 5u, 6u}) EXPECT_TRUE(d.on_packet(s, ms(s)).losses.empty());
}

TEST(Rfc5348Section5_1, BurstOfLossesInterpolatedAcrossTheGap) {
  LossDetector d;
  d.on_packet(0, ms(0));
  d.on_packet(4, ms(40));
  d.on_packet(5, ms(50));
  auto a = d.on_packet(6, ms(60));
  ASSERT_EQ(a.losses.size(), 3u);
  EXPECT_EQ(a.losses[0].nominal_arrival, ms(10));
  EXPECT_EQ(a.losses[1].nominal_arrival, ms(20));
  EXPECT_EQ(a.losses[2].nominal_arrival, ms(30));
}

TEST(Rfc5348Section5_1, LateAndDuplicatePacketsAreIgnored) {
  LossDetector d;
  for (uint32_t s : {0u, 2u, 3u, 4u}) d.on_packet(s, ms(s));  // 1 declared lost
  EXPECT_TRUE(d.on_packet(1, ms(5)).late);
  EXPECT_TRUE(d.on_packet(3, ms(6)).late);
  EXPECT_EQ(d.highest_seq(), 4);
}

TEST(Rfc5348Section5_1, SequenceWrapIsExtended) {
  LossDetector d;
  d.on_packet(0xFFFFFFFEu, ms(0));
  d.on_packet(0xFFFFFFFFu, ms(1));
  auto a = d.on_packet(0u, ms(2));
  EXPECT_EQ(a.seq, int64_t{1} << 32);
  EXPECT_TRUE(a.losses.empty());
}

}  // namespace
}  // namespace mantra
