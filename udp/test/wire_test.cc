// The trailer, the session messages and the application frame: what one side
// writes the other reads back, and malformed bytes are refused, not misread.
#include <gtest/gtest.h>

#include "app_frame.h"
#include "session_wire.h"

namespace mantra::udp {
namespace {

TEST(Trailer, RoundTripsAfterTheCoreBytesAndRefusesUnknownKinds) {
  std::vector<uint8_t> d = {1, 2, 3};
  append_trailer(d, {0x0102030405060708ULL, WireKind::kCoreOther});
  ASSERT_EQ(d.size(), 3 + kTrailerBytes);
  const auto split = split_trailer(d);
  ASSERT_TRUE(split);
  EXPECT_EQ(split->first.token, 0x0102030405060708ULL);
  EXPECT_EQ(split->first.kind, WireKind::kCoreOther);
  EXPECT_EQ(split->second.size(), 3u);
  EXPECT_EQ(split->second[0], 1);  // the core's header stays at offset 0
  d.back() = 7;                    // no such kind
  EXPECT_FALSE(split_trailer(d));
  EXPECT_FALSE(split_trailer(std::vector<uint8_t>(kTrailerBytes - 1, 0)));
}

TEST(SessionMessages, HelloRoundTripsAndEveryTruncationIsRefused) {
  Hello h{"tfwmfc", {{"packet_size", 1000}, {"ecn", 1}}, {{"window", 8}}, "boot", 123456789, 20, AppKind::kVideo};
  const auto bytes = encode_hello(h);
  const auto back = decode_hello(bytes);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->protocol, "tfwmfc");
  EXPECT_EQ(back->sender_params, h.sender_params);
  EXPECT_EQ(back->receiver_params, h.receiver_params);
  EXPECT_EQ(back->t0_us, 123456789);
  EXPECT_EQ(back->data_header_bytes, 20);
  EXPECT_EQ(back->app, AppKind::kVideo);
  for (size_t n = 0; n < bytes.size(); ++n) EXPECT_FALSE(decode_hello({bytes.data(), n})) << n;
  auto longer = bytes;
  longer.push_back(0);
  EXPECT_FALSE(decode_hello(longer));
  auto unknown_app = bytes;
  unknown_app.back() = 3;
  EXPECT_FALSE(decode_hello(unknown_app));
}

TEST(SessionMessages, ByeCarriesCountsAndDiagnostics) {
  Bye b{1000, 1000000, 999000, true, {{"rate_bps", 2e6}, {"datagrams_sent", 1001}}};
  const auto back = decode_bye(encode_bye(b));
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->data_packets, 1000u);
  EXPECT_EQ(back->core_bytes, 1000000u);
  EXPECT_EQ(back->app_bytes, 999000u);
  EXPECT_TRUE(back->app_complete);
  EXPECT_EQ(back->diagnostics, b.diagnostics);
  auto bad = encode_bye(b);
  bad[24] = 2;  // app_complete is 0 or 1
  EXPECT_FALSE(decode_bye(bad));
}

TEST(AppFrame, SitsAfterTheProtocolHeaderAndKeepsTheDatagramSize) {
  std::vector<uint8_t> d(100, 0xEE);
  const std::vector<uint8_t> app = {9, 8, 7};
  ASSERT_TRUE(write_frame(d, 16, {42, -5, (int64_t{7} << 24) | 3, 4096, app}));
  EXPECT_EQ(d.size(), 100u);
  EXPECT_EQ(d[15], 0xEE);  // the header is untouched
  const auto f = read_frame(d, 16);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->number, 42u);
  EXPECT_EQ(f->sent_us, -5);
  EXPECT_EQ(f->app_id, (int64_t{7} << 24) | 3);
  EXPECT_EQ(f->offset, 4096u);
  EXPECT_EQ(std::vector<uint8_t>(f->bytes.begin(), f->bytes.end()), app);
  EXPECT_EQ(app_room(100, 16), 100 - 16 - static_cast<int64_t>(kFrameBytes));
  std::vector<uint8_t> small(16 + kFrameBytes + 2, 0);
  EXPECT_FALSE(write_frame(small, 16, {0, 0, -1, 0, app}));  // 3 bytes do not fit in 2
  EXPECT_FALSE(read_frame(std::vector<uint8_t>(16 + kFrameBytes - 1, 0), 16));
  small[16 + kFrameBytes - 1] = 200;  // a length past the datagram's end
  EXPECT_FALSE(read_frame(small, 16));
}

}  // namespace
}  // namespace mantra::udp
