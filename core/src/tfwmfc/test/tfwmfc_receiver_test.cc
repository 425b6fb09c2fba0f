// TF-WMFC §2.3.2: what the receiver counts and reports, and the wire.
#include "tfwmfc/tfwmfc_receiver.h"

#include <gtest/gtest.h>

namespace mantra::tfwmfc {
namespace {

Time ms(int64_t v) { return Time::from_us(v * 1000); }

void data(TfwmfcReceiver& r, Time now, uint32_t seq, Ecn ecn = Ecn::kEct0) {
  r.handle_datagram(now, encode_data({seq, now}, 1000), ecn);
}

ReceiverReport take_report(TfwmfcReceiver& r, Time now) {
  const auto d = r.poll_transmit(now);
  EXPECT_TRUE(d);
  if (!d) return {};
  EXPECT_EQ(d->kind, DatagramKind::kFeedback);
  const auto rr = decode_receiver_report(d->bytes);
  EXPECT_TRUE(rr) << rr.error();
  return rr ? *rr : ReceiverReport{};
}

TEST(TfwmfcSection2_3_2, CountsPacketsAndMarksPerIntervalAndEchoesTheSenderReport) {
  TfwmfcReceiver r;
  r.handle_datagram(ms(0), encode_sender_report({ms(0)}), Ecn::kNotEct);
  data(r, ms(10), 0);
  // The first data packet is reported at once: the sender's first RTT.
  ReceiverReport first = take_report(r, ms(10));
  EXPECT_EQ(first.n_pkt, 1u);
  ASSERT_TRUE(first.t_s);
  EXPECT_EQ(*first.t_s, ms(0));
  EXPECT_EQ(first.t_d, Duration::millis(10));
  EXPECT_FALSE(r.poll_transmit(ms(11)));
  for (uint32_t seq = 1; seq <= 10; ++seq) data(r, ms(10 + 50 * seq), seq, seq % 4 == 0 ? Ecn::kCe : Ecn::kEct0);
  r.handle_datagram(ms(700), encode_sender_report({ms(690)}), Ecn::kNotEct);
  EXPECT_EQ(*r.poll_timeout(), ms(1010));  // every T = 1 s
  r.handle_timeout(ms(1010));
  const ReceiverReport second = take_report(r, ms(1010));
  EXPECT_EQ(second.n_pkt, 10u);
  EXPECT_EQ(second.n_marked, 2u);  // seq 4 and 8
  EXPECT_EQ(second.n_lost, 0u);
  EXPECT_EQ(*second.t_s, ms(690));
  EXPECT_EQ(second.t_d, Duration::millis(310));
  EXPECT_EQ(r.stats().ce_received, 2);
}

TEST(TfwmfcSection2_3_2, LossesFromSequenceGapsAsRtcpCountsThem) {
  TfwmfcReceiver r;
  data(r, ms(0), 0);
  take_report(r, ms(0));
  // 1..10 expected, 3 and 7 missing; 12 late-arrives out of order.
  for (uint32_t seq : {1, 2, 4, 5, 6, 8, 9, 10}) data(r, ms(100 + seq), seq);
  r.handle_timeout(ms(1000));
  EXPECT_EQ(take_report(r, ms(1000)).n_lost, 2u);
  // 3 arrives late, then 11: expected 1, received 2, never negative.
  data(r, ms(1100), 3);
  data(r, ms(1101), 11);
  r.handle_timeout(ms(2000));
  const ReceiverReport rr = take_report(r, ms(2000));
  EXPECT_EQ(rr.n_pkt, 2u);
  EXPECT_EQ(rr.n_lost, 0u);
}

TEST(TfwmfcSection2_3_2, AnIntervalWithoutDataSendsNoReport) {
  TfwmfcReceiver r;
  data(r, ms(0), 0);
  take_report(r, ms(0));
  r.handle_timeout(ms(1000));
  EXPECT_FALSE(r.poll_transmit(ms(1000)));
  EXPECT_FALSE(r.poll_timeout());
  data(r, ms(5000), 1);
  EXPECT_EQ(take_report(r, ms(5000)).n_pkt, 1u);
}

TEST(TfwmfcWire, RoundTripsAndRejectsBadReports) {
  ReceiverReport rr{7, 3, 2, ms(123), Duration::millis(4)};
  const auto bytes = encode_receiver_report(rr);
  EXPECT_EQ(bytes.size(), kReceiverReportBytes);
  const auto back = decode_receiver_report(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->n_pkt, 7u);
  EXPECT_EQ(back->n_marked, 3u);
  EXPECT_EQ(back->n_lost, 2u);
  EXPECT_EQ(*back->t_s, ms(123));
  EXPECT_EQ(back->t_d, Duration::millis(4));
  ReceiverReport none{1, 0, 0, std::nullopt, {}};
  EXPECT_FALSE(decode_receiver_report(encode_receiver_report(none))->t_s);
  EXPECT_FALSE(decode_receiver_report(std::span(bytes).first(20)));
  ReceiverReport bad{1, 2, 0, std::nullopt, {}};  // more marks than packets
  EXPECT_FALSE(decode_receiver_report(encode_receiver_report(bad)));
  EXPECT_EQ(encode_sender_report({ms(5)}).size(), kSenderReportBytes);
  EXPECT_EQ(decode_sender_report(encode_sender_report({ms(5)}))->t_s, ms(5));
  EXPECT_FALSE(decode_data(encode_sender_report({ms(5)})));
  TfwmfcReceiver r;
  r.handle_datagram(ms(0), bytes, Ecn::kNotEct);  // a receiver report is no data
  EXPECT_EQ(r.stats().datagrams_rejected, 1);
}

}  // namespace
}  // namespace mantra::tfwmfc
