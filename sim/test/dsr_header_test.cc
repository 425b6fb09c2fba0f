// The DSR header on the air (dsr/dsr_header.h): RFC 4728's sizes, every
// field read back as written, and bytes that are not a header refused with
// a reason rather than read past their end.
#include "dsr/dsr_header.h"

#include <gtest/gtest.h>

#include <vector>

namespace mantra::sim::dsr {
namespace {

TEST(DsrHeader, SizesAreRfc4728s) {
  DsrHeader h;
  EXPECT_EQ(h.size_bytes(), 4u);  // the fixed part alone
  h.request = RouteRequest{7, 0x0a000009, {1, 2, 3}};
  EXPECT_EQ(h.size_bytes(), 4u + 8 + 12);
  h = DsrHeader{};
  h.reply = RouteReply{{1, 2}};
  EXPECT_EQ(h.size_bytes(), 4u + 3 + 8);
  h = DsrHeader{};
  h.errors.push_back(RouteError{0, 1, 2, 3});
  EXPECT_EQ(h.size_bytes(), 4u + 16);
  h = DsrHeader{};
  h.source_route = SourceRoute{0, 2, {1, 2}};
  EXPECT_EQ(h.size_bytes(), 4u + 4 + 8);
  EXPECT_EQ(encode(h).size(), h.size_bytes());
}

TEST(DsrHeader, EveryFieldIsReadBackAsWritten) {
  DsrHeader h;
  h.next_header = 6;
  h.request = RouteRequest{0xbeef, 0x0a000063, {0x0a000002, 0x0a000003}};
  h.reply = RouteReply{{0x0a000004, 0x0a000005, 0x0a000006}};
  h.errors = {RouteError{3, 0x0a000007, 0x0a000001, 0x0a000008}, RouteError{0, 1, 2, 3}};
  h.source_route = SourceRoute{9, 1, {0x0a00000a, 0x0a00000b}};
  std::vector<uint8_t> bytes = encode(h);
  bytes.push_back(0xaa);  // the payload after it
  const Decoded d = decode(bytes);
  ASSERT_TRUE(d.header) << d.error;
  EXPECT_EQ(*d.header, h);
  EXPECT_EQ(d.consumed, bytes.size() - 1);
}

TEST(DsrHeader, PaddingIsSkippedAndAnyOptionOrderIsRead) {
  // fixed part; Pad1; PadN of 2; source route (no hops, 0 left) before a route error
  const std::vector<uint8_t> bytes = {17, 0, 0, 25, 224, 0, 2, 0, 0, 96, 2, 0, 0, 3, 14,
                                      1,  0, 0, 0,  0,   1, 0, 0, 0, 2,  0, 0, 0, 3};
  const Decoded d = decode(bytes);
  ASSERT_TRUE(d.header) << d.error;
  EXPECT_EQ(d.header->next_header, 17);
  ASSERT_TRUE(d.header->source_route);
  ASSERT_EQ(d.header->errors.size(), 1u);
  EXPECT_EQ(d.header->errors[0].unreachable, 3u);
}

TEST(DsrHeader, BytesThatAreNotAHeaderAreRefusedWithAReason) {
  auto refused = [](std::vector<uint8_t> bytes) {
    const Decoded d = decode(bytes);
    EXPECT_FALSE(d.header);
    return d.error;
  };
  EXPECT_EQ(refused({17, 0, 0}), "shorter than the 4-byte fixed header");
  EXPECT_EQ(refused({17, 0, 0, 9, 96, 2, 0, 0}), "payload length 9 runs past the packet's end");
  EXPECT_EQ(refused({17, 0, 0, 4, 96, 6, 0, 0}), "option 96 runs past the options' end");
  EXPECT_EQ(refused({17, 0, 0, 2, 77, 0}), "unknown option type 77");
  EXPECT_EQ(refused({17, 0x80, 0, 0}), "flow state header (F set) is not supported");
  EXPECT_EQ(refused({17, 0, 0, 8, 96, 6, 0, 2, 0, 0, 0, 1}), "source route: segments left exceeds the hops listed");
  DsrHeader too_long;
  too_long.source_route = SourceRoute{0, 0, std::vector<Address>(15, 1)};
  EXPECT_EQ(refused(encode(too_long)), "source route: lists 15 hops, at most 14");
}

}  // namespace
}  // namespace mantra::sim::dsr
