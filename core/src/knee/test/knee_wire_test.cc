// mantra's packet formats: LATP's agents find and lower R in a mantra data
// packet, everything round-trips, and bad reports are refused with a reason.
#include "knee/knee_wire.h"

#include <gtest/gtest.h>

namespace mantra::knee {
namespace {

DataHeader header() {
  DataHeader h;
  h.latp.src_port = 4000;
  h.latp.dst_port = 4001;
  h.latp.seq = 0xABCDEF;
  h.latp.urgent = true;
  h.latp.rtt_ms = 42;
  h.send_time_us = 123'456'789'012;
  return h;
}

TEST(KneeWire, DataCarriesLatpsHeaderSoTheAgentsLowerR) {
  std::vector<uint8_t> b;
  encode_data(header(), 1000, b);
  ASSERT_EQ(b.size(), 1000u);
  EXPECT_EQ(latp::peek_type(b), latp::LatpType::kData);
  EXPECT_TRUE(latp::stamp_rate_feedback(b, 30000.0));   // what a node agent does on egress
  EXPECT_FALSE(latp::stamp_rate_feedback(b, 40000.0));  // R = min(R, P)
  const auto d = decode_data(b);
  ASSERT_TRUE(d) << d.error();
  EXPECT_EQ(d->latp.rate_feedback_Bps, 30000);
  EXPECT_EQ(d->latp.seq, 0xABCDEFu);
  EXPECT_TRUE(d->latp.urgent);
  EXPECT_EQ(d->latp.rtt_ms, 42);
  EXPECT_EQ(d->send_time_us, 123'456'789'012);
}

TEST(KneeWire, DataShorterThanTheHeaderIsRefused) {
  std::vector<uint8_t> b;
  encode_data(header(), kDataHeaderBytes, b);
  EXPECT_TRUE(decode_data(b));
  b.pop_back();
  const auto d = decode_data(b);
  EXPECT_FALSE(d);
  EXPECT_EQ(d.error(), "mantra data: truncated header (23 of 24 bytes)");
}

Report report() {
  Report r;
  r.src_port = 4001;
  r.dst_port = 4000;
  r.highest_seq = 77;
  r.loss_detected = true;
  r.periodic = true;
  r.echo_send_time_us = 9'000'000;
  r.elapsed_us = 1500;
  r.interval_us = 200'000;
  r.packets = 9;
  r.bytes = 9000;
  r.ce_packets = 2;
  r.losses = 1;
  r.owd_min_us = -5'000;  // clocks of two hosts: the sender's law works on delay above the minimum
  r.owd_mean_us = 3'000;
  r.r_min_Bps = -1200;
  r.loss_event_rate_ppb = 12345;
  r.ttl = 61;
  r.ttl_changed = true;
  r.no_delay = true;
  r.timed_bytes = 0x03E8;  // 1000
  return r;
}

TEST(KneeWire, ReportRoundTrips) {
  const auto bytes = encode_report(report());
  ASSERT_EQ(bytes.size(), kReportBytes);
  const auto r = decode_report(bytes);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(encode_report(*r), bytes);
  EXPECT_EQ(r->owd_min_us, -5'000);
  EXPECT_EQ(r->r_min_Bps, -1200);
  EXPECT_TRUE(r->loss_detected);
  EXPECT_TRUE(r->periodic);
  EXPECT_EQ(r->ttl, 61);
  EXPECT_TRUE(r->ttl_changed);
  EXPECT_TRUE(r->no_delay);
  EXPECT_EQ(bytes[7] & 0x3, 0x3);  // C and N, the bits after P
  EXPECT_EQ(bytes[64], 61);        // the TTL, in the first byte of the last word
  EXPECT_EQ(r->timed_bytes, 1000);
  EXPECT_EQ(bytes[65], 0x03);  // then the timed size
  EXPECT_EQ(bytes[66], 0xE8);
  EXPECT_EQ(bytes[67], 0);  // reserved
}

TEST(KneeWire, ReportsThatCannotBeAreRefused) {
  auto bytes = encode_report(report());
  bytes.push_back(0);
  EXPECT_EQ(decode_report(bytes).error(), "mantra report: 69 bytes, not 68");
  Report r = report();
  r.owd_min_us = r.owd_mean_us + 1;
  EXPECT_EQ(decode_report(encode_report(r)).error(), "mantra report: minimum one-way delay above the mean");
  r = report();
  r.ce_packets = r.packets + 1;
  EXPECT_EQ(decode_report(encode_report(r)).error(), "mantra report: more CE marks than packets");
  // LATP's feedback (type 2) is not a mantra report, whatever its length.
  auto latp_like = encode_report(report());
  latp_like[7] = static_cast<uint8_t>((latp_like[7] & 0x0F) | (2 << 4));
  EXPECT_EQ(decode_report(latp_like).error(), "mantra report: packet type 2 is not a report (3)");
}

}  // namespace
}  // namespace mantra::knee
