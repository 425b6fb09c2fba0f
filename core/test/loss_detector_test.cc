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

// A number far beyond the gap the detector records (an outage no rate sender
// reaches, or a forged number) is declared lost as one bulk plus at most
// kMaxRecordedGap records, not one record per missing number.
TEST(LossDetectorBound, JumpFarAheadIsOneBulkAndBoundedRecords) {
  constexpr int64_t kGap = LossDetector::kMaxRecordedGap;
  LossDetector d;
  d.on_packet(0, ms(0));
  d.on_packet(1, ms(1));
  const uint32_t far = 1u << 30;
  auto a = d.on_packet(far, ms(2));
  EXPECT_EQ(a.bulk_losses, int64_t{far} - kGap - 2);  // 2 .. far - kGap - 1
  EXPECT_EQ(a.bulk_first.seq, 2);
  EXPECT_TRUE(a.losses.empty());  // the rest waits for kNdupack later packets
  // The window of records slides with the highest number: far + 1 passes
  // over far - kGap in bulk, far + 2 over far - kGap + 1.
  auto b = d.on_packet(far + 1, ms(3));
  auto c = d.on_packet(far + 2, ms(4));
  EXPECT_EQ(b.bulk_losses, 1);
  EXPECT_EQ(c.bulk_losses, 1);
  EXPECT_EQ(static_cast<int64_t>(c.losses.size()), kGap - 2);  // far - kGap + 2 .. far - 1
  EXPECT_EQ(c.losses.front().seq, int64_t{far} - kGap + 2);
  EXPECT_EQ(a.loss_count() + b.loss_count() + c.loss_count(), int64_t{far} - 2);  // every missing number, once
}

// Packets received inside the bulk are not lost, and a gap just within the
// bound keeps one record per missing number.
TEST(LossDetectorBound, ReceivedInsideBulkAreNotCountedAndSmallGapsKeepRecords) {
  constexpr int64_t kGap = LossDetector::kMaxRecordedGap;
  LossDetector d;
  d.on_packet(0, ms(0));
  d.on_packet(5, ms(5));  // 1..4 missing, 5 pending
  auto a = d.on_packet(static_cast<uint32_t>(2 * kGap), ms(6));
  EXPECT_EQ(a.bulk_losses, kGap - 1 - 1);  // 1 .. kGap - 1 but 5
  EXPECT_EQ(a.bulk_first.seq, 1);
  EXPECT_EQ(a.bulk_first.nominal_arrival, ms(0) + (ms(6) - ms(0)) * (1.0 / (2.0 * kGap)));

  LossDetector e;
  e.on_packet(0, ms(0));
  e.on_packet(static_cast<uint32_t>(kGap - 2), ms(1));
  e.on_packet(static_cast<uint32_t>(kGap - 1), ms(2));
  auto f = e.on_packet(static_cast<uint32_t>(kGap), ms(3));
  EXPECT_EQ(f.bulk_losses, 0);
  EXPECT_EQ(static_cast<int64_t>(f.losses.size()), kGap - 3);  // 1 .. kGap - 3
}

}  // namespace
}  // namespace mantra
