// ADTFRC's state option and probe packet: round trips, truncation, and
// backward compatibility with plain TFRC endpoints (§IV).
#include "adtfrc/adtfrc_wire.h"

#include <gtest/gtest.h>

#include "tfrc/tfrc_receiver.h"
#include "tfrc/tfrc_wire.h"

namespace mantra::adtfrc {
namespace {

TEST(AdtfrcWire, StateOptionRoundTripsEveryStateAndTheUrgentBit) {
  for (auto s :
       {NetworkState::kNormal, NetworkState::kCongestion, NetworkState::kRouteChange, NetworkState::kChannelError}) {
    for (bool urgent : {false, true}) {
      tfrc::Feedback f;
      f.p = 0.01;
      f.options.push_back(encode_state_option({s, urgent}));
      auto back = tfrc::decode_feedback(tfrc::encode_feedback(f));
      ASSERT_TRUE(back);
      auto report = find_state_option(back->options);
      ASSERT_TRUE(report);
      EXPECT_EQ(report->state, s);
      EXPECT_EQ(report->urgent, urgent);
    }
  }
}

TEST(AdtfrcWire, StateOptionLayout) {
  const WireOption o = encode_state_option({NetworkState::kChannelError, true});
  EXPECT_EQ(o.type, 0xA1);
  ASSERT_EQ(o.value.size(), 1u);
  EXPECT_EQ(o.value[0], 0x83);
}

TEST(AdtfrcWire, FeedbackWithoutTheOptionHasNoState) {
  EXPECT_FALSE(find_state_option({}));
  EXPECT_FALSE(find_state_option({WireOption{0x07, {1, 2}}}));
  EXPECT_FALSE(find_state_option({WireOption{kStateOptionType, {1, 2}}}));  // malformed length
}

TEST(AdtfrcWire, ProbeRoundTripsAndIsTwentyBytes) {
  Probe p{7, Time::from_us(123456789), Duration::millis(85)};
  auto bytes = encode_probe(p);
  ASSERT_EQ(bytes.size(), kProbeBytes);
  EXPECT_EQ(bytes[0], 0x12);
  auto back = decode_probe(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->number, 7u);
  EXPECT_EQ(back->timestamp, p.timestamp);
  EXPECT_EQ(back->sender_rtt, p.sender_rtt);
}

TEST(AdtfrcWire, TruncatedProbeIsAnError) {
  auto bytes = encode_probe({1, Time::from_us(1), Duration::zero()});
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto r = decode_probe(std::span<const uint8_t>(bytes.data(), n));
    EXPECT_FALSE(r) << n;
  }
  bytes[0] = 0x10;
  EXPECT_EQ(decode_probe(bytes).error(), "adtfrc probe: unexpected packet type 16");
}

TEST(AdtfrcWire, PlainTfrcReceiverRejectsAProbe) {
  tfrc::TfrcReceiver r;
  r.handle_datagram(Time::from_us(1000), encode_probe({1, Time::from_us(1), Duration::zero()}), Ecn::kNotEct);
  EXPECT_EQ(r.stats().datagrams_rejected, 1);
  EXPECT_FALSE(r.poll_transmit(Time::from_us(1000)));
}

}  // namespace
}  // namespace mantra::adtfrc
