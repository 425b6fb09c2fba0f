// AODV's messages on the air (sim/src/aodv/aodv_messages.h): RFC 3561's
// sizes and bit positions, a round trip, and what the decoder refuses.
#include "aodv/aodv_messages.h"

#include <gtest/gtest.h>

namespace mantra::sim::aodv {
namespace {

TEST(AodvMessages, ARequestIs24BytesWithItsFlagsAndFieldsWhereTheRfcPutsThem) {
  RouteRequest q;
  q.destination_only = true;
  q.unknown_seqno = true;
  q.hop_count = 3;
  q.id = 0x01020304;
  q.destination = 0x0a000005;
  q.destination_seqno = 7;
  q.originator = 0x0a000001;
  q.originator_seqno = 9;
  const std::vector<uint8_t> b = encode(q);
  ASSERT_EQ(b.size(), 24u);
  EXPECT_EQ(b[0], 1);
  EXPECT_EQ(b[1], 0x18);  // D and U
  EXPECT_EQ(b[3], 3);
  EXPECT_EQ((std::vector<uint8_t>(b.begin() + 4, b.begin() + 8)), (std::vector<uint8_t>{1, 2, 3, 4}));
  EXPECT_EQ(b[11], 5);  // destination, network byte order
  EXPECT_EQ(b[23], 9);  // originator's sequence number last
  const Decoded d = decode(b);
  ASSERT_TRUE(d.message) << d.error;
  EXPECT_EQ(std::get<RouteRequest>(*d.message), q);
}

TEST(AodvMessages, AReplyIs20BytesAndCarriesItsLifetimeInMilliseconds) {
  RouteReply p;
  p.hop_count = 4;
  p.destination = 0x0a000005;
  p.destination_seqno = 12;
  p.originator = 0x0a000001;
  p.lifetime_ms = 10'000;
  const std::vector<uint8_t> b = encode(p);
  ASSERT_EQ(b.size(), 20u);
  EXPECT_EQ(b[0], 2);
  EXPECT_EQ(b[3], 4);
  EXPECT_EQ(b[18], 0x27);  // 10 000 = 0x2710
  EXPECT_EQ(b[19], 0x10);
  EXPECT_EQ(std::get<RouteReply>(*decode(b).message), p);
}

TEST(AodvMessages, AnErrorIs4BytesAnd8ForEachUnreachableDestination) {
  RouteError e;
  e.unreachable = {{0x0a000005, 3}, {0x0a000007, 8}};
  const std::vector<uint8_t> b = encode(e);
  ASSERT_EQ(b.size(), 4u + 2 * 8);
  EXPECT_EQ(size_bytes(e), b.size());
  EXPECT_EQ(b[0], 3);
  EXPECT_EQ(b[3], 2);
  EXPECT_EQ(std::get<RouteError>(*decode(b).message), e);
}

TEST(AodvMessages, RefusesWhatIsCutShortEmptyOrOfAnotherTypeAndSaysWhy) {
  RouteRequest q;
  std::vector<uint8_t> b = encode(q);
  b.pop_back();
  EXPECT_FALSE(decode(b).message);
  EXPECT_NE(decode(b).error.find("24 bytes"), std::string::npos);
  EXPECT_FALSE(decode(std::vector<uint8_t>{3, 0, 0, 0}).message);  // an error naming no destination
  EXPECT_FALSE(decode(std::vector<uint8_t>{3, 0, 0, 2, 1, 2, 3, 4, 0, 0, 0, 1}).message);  // 2 named, 1 there
  EXPECT_FALSE(decode(std::vector<uint8_t>{4, 0}).message);  // RREP-ACK: ns-2 never sent one
  EXPECT_FALSE(decode(std::vector<uint8_t>{}).message);
  EXPECT_FALSE(decode(std::vector<uint8_t>{4, 0}).error.empty());
}

}  // namespace
}  // namespace mantra::sim::aodv
