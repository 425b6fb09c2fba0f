// TFRC packet formats: round trips, and bad bytes rejected at every length.
#include "tfrc/tfrc_wire.h"

#include <gtest/gtest.h>

#include "cbr/cbr.h"

namespace mantra::tfrc {
namespace {

DataHeader sample_data() {
  DataHeader h;
  h.seq = 0xDEADBEEF;
  h.timestamp = Time::from_us(123456789012);
  h.sender_rtt = Duration::micros(87654);
  h.options = {{7, {1, 2, 3}}};
  return h;
}

Feedback sample_feedback() {
  Feedback f;
  f.t_recvdata = Time::from_us(99999999);
  f.t_delay = Duration::micros(1234);
  f.x_recv_bytes_per_s = 250000;
  f.p = 0.012345678;
  f.highest_seq = 4242;
  f.options = {{9, {0xAA}}, {10, {}}};
  return f;
}

TEST(TfrcWire, DataRoundTripAndPadding) {
  auto bytes = encode_data(sample_data(), 1000);
  ASSERT_EQ(bytes.size(), 1000u);
  auto d = decode_data(bytes);
  ASSERT_TRUE(d) << d.error();
  EXPECT_EQ(d->seq, 0xDEADBEEF);
  EXPECT_EQ(d->timestamp, Time::from_us(123456789012));
  EXPECT_EQ(d->sender_rtt, Duration::micros(87654));
  ASSERT_EQ(d->options.size(), 1u);
  EXPECT_EQ(d->options[0].type, 7);
  EXPECT_EQ(d->options[0].value, (std::vector<uint8_t>{1, 2, 3}));
}

TEST(TfrcWire, FeedbackRoundTrip) {
  auto f = decode_feedback(encode_feedback(sample_feedback()));
  ASSERT_TRUE(f) << f.error();
  EXPECT_EQ(f->t_recvdata, Time::from_us(99999999));
  EXPECT_EQ(f->t_delay, Duration::micros(1234));
  EXPECT_EQ(f->x_recv_bytes_per_s, 250000u);
  EXPECT_NEAR(f->p, 0.012345678, 1e-9);
  EXPECT_EQ(f->highest_seq, 4242u);
  EXPECT_EQ(f->options.size(), 2u);
}

TEST(TfrcWire, FixedSizesMatchTheDrawnLayouts) {
  DataHeader h;
  EXPECT_EQ(encode_data(h, 0).size(), kDataHeaderBytes);
  EXPECT_EQ(encode_feedback(Feedback{}).size(), kFeedbackBytes);
}

TEST(TfrcWire, DataTruncatedAtEveryByteIsRejected) {
  // Without padding, every proper prefix is missing part of the header or options.
  auto bytes = encode_data(sample_data(), 0);
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(decode_data(std::span(bytes.data(), n))) << "length " << n;
  }
  EXPECT_TRUE(decode_data(bytes));
}

TEST(TfrcWire, FeedbackTruncatedAtEveryByteIsRejected) {
  auto bytes = encode_feedback(sample_feedback());
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto f = decode_feedback(std::span(bytes.data(), n));
    EXPECT_FALSE(f) << "length " << n;
    if (!f) {
      EXPECT_FALSE(f.error().empty());
    }
  }
}

TEST(TfrcWire, GarbledBytesNeverCrashAndWrongTypeIsRejected) {
  auto data = encode_data(sample_data(), 64);
  auto fb = encode_feedback(sample_feedback());
  EXPECT_FALSE(decode_feedback(data));
  EXPECT_FALSE(decode_data(fb));
  // Set each byte to many values: the decoder either succeeds with a valid
  // loss rate or names what is wrong; a bad type or overrun is never accepted.
  for (size_t i = 0; i < fb.size(); ++i) {
    for (int v = 0; v < 256; v += 17) {
      auto copy = fb;
      copy[i] = static_cast<uint8_t>(v);
      auto r = decode_feedback(copy);
      if (r) {
        if (i == 0) {
          EXPECT_EQ(v, 0x11) << "type byte " << v << " accepted";
        }
        EXPECT_LE(r->p, 1.0);
      } else {
        EXPECT_FALSE(r.error().empty());
      }
    }
  }
  // An options length that overruns the packet.
  auto bad = encode_feedback(Feedback{});
  bad[1] = 40;
  auto r = decode_feedback(bad);
  EXPECT_FALSE(r);
  EXPECT_NE(r.error().find("options"), std::string::npos);
}

TEST(TfrcWire, LossRateAboveOneIsRejected) {
  auto bytes = encode_feedback(Feedback{});
  bytes[20] = 0xFF;  // p field
  EXPECT_FALSE(decode_feedback(bytes));
}

TEST(CbrWire, TruncatedAtEveryByteIsRejected) {
  std::vector<uint8_t> b = {0x01, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 42};
  for (size_t n = 0; n < b.size(); ++n) EXPECT_FALSE(cbr::decode(std::span(b.data(), n)));
  auto h = cbr::decode(b);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->seq, 7u);
  EXPECT_EQ(h->timestamp, Time::from_us(42));
}

}  // namespace
}  // namespace mantra::tfrc
