// LATP packet formats (Fig. 6): field positions bit by bit, round trips,
// truncation and wrong types rejected with a reason.
#include "latp/latp_wire.h"

#include <gtest/gtest.h>

namespace mantra::latp {
namespace {

TEST(LatpWire, DataHeaderLayoutBitByBit) {
  DataHeader h;
  h.src_port = 0x1234;
  h.dst_port = 0x5678;
  h.seq = 0xABCDEF;
  h.urgent = true;
  h.timestamp_ms = 0x0102;
  h.rtt_ms = 0x0304;
  h.rate_feedback_Bps = -2;
  std::vector<uint8_t> b;
  encode_data(h, 1000, b);
  ASSERT_EQ(b.size(), 1000u);
  const std::vector<uint8_t> head(b.begin(), b.begin() + 16);
  // ports | seq (24) | PT=1 (4) U=1 (1) Res=0 (3) -> 0001 1000 | ts | rtt | R
  EXPECT_EQ(head, (std::vector<uint8_t>{0x12, 0x34, 0x56, 0x78, 0xAB, 0xCD, 0xEF, 0x18, 0x01, 0x02, 0x03, 0x04, 0xFF,
                                        0xFF, 0xFF, 0xFE}));
  const auto d = decode_data(b);
  ASSERT_TRUE(d) << d.error();
  EXPECT_EQ(d->seq, 0xABCDEFu);
  EXPECT_TRUE(d->urgent);
  EXPECT_EQ(d->rate_feedback_Bps, -2);
  EXPECT_EQ(d->timestamp_ms, 0x0102);
  EXPECT_EQ(d->rtt_ms, 0x0304);
}

TEST(LatpWire, FeedbackIsTwentyBytesBitByBit) {
  Feedback f;
  f.src_port = 1;
  f.dst_port = 2;
  f.feedback_id = 0x000102;
  f.loss_detected = true;
  f.timestamp_echo_ms = 0xBEEF;
  f.elapsed_ms = 7;
  f.rate_feedback_Bps = -100000;
  f.receive_rate_Bps = 250000;
  const auto b = encode_feedback(f);
  ASSERT_EQ(b.size(), kFeedbackBytes);
  EXPECT_EQ(b[7], 0x28);  // PT=2, L=1
  EXPECT_EQ(b[4], 0x00);
  EXPECT_EQ(b[6], 0x02);
  const auto d = decode_feedback(b);
  ASSERT_TRUE(d) << d.error();
  EXPECT_EQ(d->feedback_id, 0x102u);
  EXPECT_TRUE(d->loss_detected);
  EXPECT_EQ(d->timestamp_echo_ms, 0xBEEF);
  EXPECT_EQ(d->elapsed_ms, 7);
  EXPECT_EQ(d->rate_feedback_Bps, -100000);
  EXPECT_EQ(d->receive_rate_Bps, 250000u);
}

TEST(LatpWire, TruncatedPacketsAreRejectedWithTheirLength) {
  std::vector<uint8_t> b;
  encode_data(DataHeader{}, 16, b);
  for (size_t n = 0; n < 16; ++n) {
    const auto d = decode_data(std::span(b).first(n));
    ASSERT_FALSE(d);
    EXPECT_NE(d.error().find("truncated"), std::string::npos);
  }
  const auto f = encode_feedback(Feedback{});
  for (size_t n = 0; n < kFeedbackBytes; ++n) EXPECT_FALSE(decode_feedback(std::span(f).first(n)));
}

TEST(LatpWire, WrongTypeIsRejected) {
  std::vector<uint8_t> b;
  encode_data(DataHeader{}, 100, b);
  EXPECT_FALSE(decode_feedback(b));
  EXPECT_FALSE(decode_data(encode_feedback(Feedback{})));
  b[7] = 0x30;  // PT = 3: not a type mantra speaks
  EXPECT_NE(decode_data(b).error().find("type 3"), std::string::npos);
}

TEST(LatpWire, StampKeepsTheMinimumAndClampsToInt32) {
  std::vector<uint8_t> b;
  encode_data(DataHeader{}, 100, b);           // R = no limit
  EXPECT_FALSE(stamp_rate_feedback(b, 5e12));  // clamps to INT32_MAX: no change
  EXPECT_TRUE(stamp_rate_feedback(b, 40000.7));
  EXPECT_EQ(decode_data(b)->rate_feedback_Bps, 40000);
  EXPECT_FALSE(stamp_rate_feedback(b, 50000));
  EXPECT_TRUE(stamp_rate_feedback(b, -1e12));
  EXPECT_EQ(decode_data(b)->rate_feedback_Bps, INT32_MIN);
  EXPECT_FALSE(stamp_rate_feedback(std::span(b).first(15), -5));
}

}  // namespace
}  // namespace mantra::latp
