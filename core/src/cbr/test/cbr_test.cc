// The CBR source keeps its rate exactly and ignores feedback.
#include "cbr/cbr.h"

#include <gtest/gtest.h>

namespace mantra::cbr {
namespace {

TEST(Cbr, SendsAtExactlyItsRate) {
  CbrConfig c;
  c.rate = Rate::kbps(180);
  c.sending.packet_bytes = 1000;
  CbrSender s(c);
  int sent = 0;
  for (int64_t us = 0; us < 10'000'000; us += 1000) {
    while (s.poll_transmit(Time::from_us(us))) ++sent;
  }
  // 180 kb/s of 8000-bit packets over 10 s: 225 packets (the first at t=0).
  EXPECT_EQ(sent, 225);
}

TEST(Cbr, ReceiverCountsValidPacketsOnly) {
  CbrConfig c;
  c.rate = Rate::kbps(100);
  CbrSender s(c);
  CbrReceiver r;
  auto d = s.poll_transmit(Time::zero());
  ASSERT_TRUE(d);
  r.handle_datagram(Time::zero(), d->bytes, Ecn::kNotEct);
  std::vector<uint8_t> junk = {0x10};
  r.handle_datagram(Time::zero(), junk, Ecn::kNotEct);
  EXPECT_EQ(r.stats().datagrams_received, 1);
  EXPECT_EQ(r.stats().datagrams_rejected, 1);
}

TEST(Cbr, AsksForTheEcnCodepointItIsGiven) {
  CbrConfig c;
  EXPECT_EQ(CbrLaw::parse({{"rate_bps", 1e5}, {"ecn", 2}}, c), "");
  EXPECT_EQ(c.ecn, Ecn::kEct0);
  auto d = CbrSender(c).poll_transmit(Time::zero());
  ASSERT_TRUE(d);
  EXPECT_EQ(d->ecn, Ecn::kEct0);
  EXPECT_EQ(CbrLaw::parse({{"rate_bps", 1e5}, {"ecn", 3}}, c), "ecn must be 0 (Not-ECT), 1 (ECT(1)) or 2 (ECT(0))");
}

}  // namespace
}  // namespace mantra::cbr
