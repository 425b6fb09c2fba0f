// The receiver's stream: in order of offset, holes given up after the reorder
// bounds or at the end and written as zeros, late copies only counted.
#include "reassembly.h"

#include <gtest/gtest.h>

namespace mantra::udp {
namespace {

Time ms(int64_t v) { return Time::from_us(v * 1000); }

std::vector<uint8_t> bytes(size_t n, uint8_t v) { return std::vector<uint8_t>(n, v); }

TEST(Reassembly, ReorderedChunksAreHandedOnInOrder) {
  std::vector<uint8_t> out;
  Reassembly r([&out](std::span<const uint8_t> b) { out.insert(out.end(), b.begin(), b.end()); });
  r.add(ms(0), 10, bytes(10, 2));
  EXPECT_TRUE(out.empty());  // waits for 0..9
  r.add(ms(1), 0, bytes(10, 1));
  EXPECT_EQ(out.size(), 20u);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[10], 2);
  r.add(ms(2), 5, bytes(10, 9));  // a copy of what was handed on
  EXPECT_EQ(r.late_bytes(), 10u);
  r.finish(20);
  EXPECT_TRUE(r.loss_map().empty());
}

TEST(Reassembly, AHoleIsGivenUpAfterTheReorderTimeAndWrittenAsZeros) {
  std::vector<uint8_t> out;
  Reassembly r([&out](std::span<const uint8_t> b) { out.insert(out.end(), b.begin(), b.end()); });
  r.add(ms(0), 0, bytes(10, 1));
  r.add(ms(10), 20, bytes(10, 3));  // 10..19 missing
  r.tick(ms(10) + Reassembly::kReorderTime - Duration::micros(1));
  EXPECT_EQ(out.size(), 10u);
  r.tick(ms(10) + Reassembly::kReorderTime);
  ASSERT_EQ(out.size(), 30u);
  EXPECT_EQ(out[15], 0);
  EXPECT_EQ(out[25], 3);
  ASSERT_EQ(r.loss_map().size(), 1u);
  EXPECT_EQ(r.loss_map()[0].offset, 10u);
  EXPECT_EQ(r.loss_map()[0].length, 10u);
  r.add(ms(2000), 10, bytes(10, 2));  // too late: counted, not written
  EXPECT_EQ(out.size(), 30u);
  EXPECT_EQ(r.late_bytes(), 10u);
}

TEST(Reassembly, AHoleIsGivenUpWhenTooMuchWaitsBehindIt) {
  size_t written = 0;
  Reassembly r([&written](std::span<const uint8_t> b) { written += b.size(); });
  const size_t chunk = 1000;
  for (uint64_t off = chunk; off <= Reassembly::kReorderBytes + chunk; off += chunk) r.add(ms(0), off, bytes(chunk, 1));
  ASSERT_EQ(r.loss_map().size(), 1u);  // 0..999 never came
  EXPECT_EQ(r.loss_map()[0].length, chunk);
  EXPECT_EQ(written, r.delivered());
}

TEST(Reassembly, TheTailLostIsMappedNotWritten) {
  size_t written = 0;
  Reassembly r([&written](std::span<const uint8_t> b) { written += b.size(); });
  r.add(ms(0), 0, bytes(10, 1));
  r.add(ms(0), 30, bytes(10, 1));
  r.finish(100);
  EXPECT_EQ(written, 40u);  // 0..9, zeros for 10..29, 30..39
  ASSERT_EQ(r.loss_map().size(), 2u);
  EXPECT_EQ(r.loss_map()[1].offset, 40u);
  EXPECT_EQ(r.loss_map()[1].length, 60u);
}

}  // namespace
}  // namespace mantra::udp
