// The CBR source keeps its rate exactly and ignores feedback.
#include "cbr/cbr.h"

#include <gtest/gtest.h>

#include <algorithm>

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

// The send times of `packets` packets of a 64-byte, 2048 b/s source (ns-2's
// cbrgen.tcl: 4 packets/s, a 250 ms gap), polled every millisecond.
std::vector<int64_t> send_times_ms(const Params& extra, int packets) {
  CbrConfig c;
  Params p = {{"rate_bps", 2048}, {"packet_size", 64}};
  p.insert(extra.begin(), extra.end());
  EXPECT_EQ(CbrLaw::parse(p, c), "");
  CbrSender s(c);
  std::vector<int64_t> out;
  for (int64_t ms = 0; static_cast<int>(out.size()) < packets; ++ms) {
    while (s.poll_transmit(Time::from_us(ms * 1000))) out.push_back(ms);
  }
  return out;
}

TEST(Cbr, JitteredGapsSpreadOverHalfToOneAndAHalfIntervalsAndKeepTheRate) {
  const auto t = send_times_ms({{"interval_jitter", 0.5}, {"jitter_seed", 7}}, 4001);
  std::vector<int64_t> gaps;
  for (size_t i = 1; i < t.size(); ++i) gaps.push_back(t[i] - t[i - 1]);
  const auto [lo, hi] = std::minmax_element(gaps.begin(), gaps.end());
  EXPECT_GE(*lo, 124);  // 0.5 x 250 ms, less the 1 ms polling step
  EXPECT_LE(*hi, 376);
  EXPECT_LT(*lo, 135);  // and the whole range is used
  EXPECT_GT(*hi, 365);
  // 4000 gaps of mean 250 ms: 1000 s, within 2 % (their sum's sd is about 4.6 s).
  EXPECT_NEAR(static_cast<double>(t.back() - t.front()), 1'000'000, 20'000);
  // Each quarter of the range gets about a quarter of the gaps.
  int in_first_quarter = 0;
  for (int64_t g : gaps) in_first_quarter += g < 187;
  EXPECT_NEAR(in_first_quarter, 1000, 100);
}

TEST(Cbr, TheSameJitterSeedGivesTheSameGapsAndAnotherSeedOthers) {
  const auto a = send_times_ms({{"interval_jitter", 0.5}, {"jitter_seed", 1}}, 50);
  EXPECT_EQ(a, send_times_ms({{"interval_jitter", 0.5}, {"jitter_seed", 1}}, 50));
  EXPECT_NE(a, send_times_ms({{"interval_jitter", 0.5}, {"jitter_seed", 2}}, 50));
  // No jitter: every gap exactly the interval, whatever the seed.
  const auto plain = send_times_ms({{"jitter_seed", 3}}, 5);
  EXPECT_EQ(plain, (std::vector<int64_t>{0, 250, 500, 750, 1000}));
}

TEST(Cbr, RefusesAJitterOutsideZeroToOneAndASeedThatIsNoWholeNumber) {
  CbrConfig c;
  const std::string jitter = "interval_jitter must be at least 0 and below 1";
  EXPECT_EQ(CbrLaw::parse({{"rate_bps", 1e5}, {"interval_jitter", 1}}, c), jitter);
  EXPECT_EQ(CbrLaw::parse({{"rate_bps", 1e5}, {"interval_jitter", -0.1}}, c), jitter);
  const std::string seed = "jitter_seed must be a whole number from 0 to 2^53 - 1";
  EXPECT_EQ(CbrLaw::parse({{"rate_bps", 1e5}, {"jitter_seed", 1.5}}, c), seed);
  EXPECT_EQ(CbrLaw::parse({{"rate_bps", 1e5}, {"jitter_seed", 0x1.0p53}}, c), seed);
  EXPECT_EQ(CbrLaw::parse({{"rate_bps", 1e5}, {"jitter_seed", -1}}, c), seed);
}

}  // namespace
}  // namespace mantra::cbr
