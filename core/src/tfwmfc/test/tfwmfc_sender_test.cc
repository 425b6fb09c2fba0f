// TF-WMFC §2.3.1 and §2.3.3: the sender's samples (eqs. 7, 8), averages
// (eqs. 5, 6), rate (eq. 4) and initial phase (eq. 9), driven by hand-made
// receiver reports; and the loss-based TFRC built from the same law.
#include "tfwmfc/tfwmfc_sender.h"

#include <gtest/gtest.h>

#include <cmath>

#include "common/throughput_equation.h"

namespace mantra::tfwmfc {
namespace {

Time ms(int64_t v) { return Time::from_us(v * 1000); }

// A receiver report arriving at `now` that echoes the sender report made at
// `t_s`, held `t_d_ms` at the receiver.
void report(RateSender& s, Time now, uint32_t n_pkt, uint32_t n_marked, Time t_s, int64_t t_d_ms = 0,
            uint32_t n_lost = 0) {
  ReceiverReport rr;
  rr.n_pkt = n_pkt;
  rr.n_marked = n_marked;
  rr.n_lost = n_lost;
  rr.t_s = t_s;
  rr.t_d = Duration::millis(t_d_ms);
  s.handle_datagram(now, encode_receiver_report(rr), Ecn::kNotEct);
}

// Runs every timer and send due up to `to` (inclusive), in 1 ms steps.
void run(RateSender& s, int from_ms, int to_ms) {
  for (int t = from_ms; t <= to_ms; ++t) {
    if (auto due = s.poll_timeout(); due && *due <= ms(t)) s.handle_timeout(ms(t));
    while (s.poll_transmit(ms(t))) {
    }
  }
}

SenderConfig config() {
  SenderConfig c;
  c.sending.packet_bytes = 1000;
  return c;
}

TEST(TfwmfcSection2_3_1, SenderReportFirstThenDataAskingForEct0) {
  TfwmfcSender s(config());
  const auto first = s.poll_transmit(ms(0));
  ASSERT_TRUE(first);
  ASSERT_TRUE(decode_sender_report(first->bytes));
  EXPECT_EQ(decode_sender_report(first->bytes)->t_s, ms(0));
  const auto data = s.poll_transmit(ms(0));
  ASSERT_TRUE(data);
  EXPECT_EQ(data->kind, DatagramKind::kData);
  EXPECT_EQ(data->ecn, Ecn::kEct0);
  EXPECT_EQ(data->bytes.size(), 1000u);
  // The next sender report is due T = 1 s later.
  EXPECT_FALSE(s.poll_transmit(ms(999)));
  run(s, 1, 1000);
  EXPECT_EQ(s.stats().datagrams_sent, 4);  // two reports, data at 0 and 1000 ms (1 packet/s)
}

TEST(TfwmfcSection2_3_1, RttSampleIsEquation8) {
  TfwmfcSender s(config());
  run(s, 0, 0);
  report(s, ms(130), 1, 0, ms(0), 30);  // R_s = (130 - 0) - 30 = 100 ms
  ASSERT_TRUE(s.law().rtt_s());
  EXPECT_DOUBLE_EQ(*s.law().rtt_s(), 0.1);
}

TEST(TfwmfcSection2_3_1, MarkedSampleIsBoundedByTheRttsBetweenReports) {
  // Hand-computed: R[k] = 100 ms; reports 500 ms apart hold 5 RTTs, so of
  // 8 marks among 100 packets only 5 count: P_M,s = 0.05. With 3 marks the
  // bound does not bind: P_M,s = 0.03.
  TfwmfcSender s(config());
  run(s, 0, 0);
  report(s, ms(100), 1, 0, ms(0));         // R = 100 ms; t_1 = 100 ms
  report(s, ms(600), 100, 8, ms(0), 500);  // R_s = 100 ms again; no Δ has run
  ASSERT_TRUE(s.law().p_sample());
  EXPECT_DOUBLE_EQ(*s.law().p_sample(), 0.05);
  report(s, ms(1100), 100, 3, ms(0), 1000);
  EXPECT_DOUBLE_EQ(*s.law().p_sample(), 0.03);
}

TEST(TfwmfcSection2_3_1, WithoutTheBoundEveryMarkCounts) {
  SenderConfig c = config();
  c.bound = false;
  TfwmfcSender s(c);
  run(s, 0, 0);
  report(s, ms(100), 1, 0, ms(0));
  report(s, ms(600), 100, 8, ms(0), 500);
  EXPECT_DOUBLE_EQ(*s.law().p_sample(), 0.08);
}

TEST(TfwmfcSection2_3_3, InitialPhaseDoublesPerRttThenAddsOnePacketPerRtt) {
  // R = 100 ms, W_th = 4000 bytes: W_th/R = 40000 bytes/s. From one packet
  // per RTT (10000 B/s) the rate doubles each RTT to 20000, 40000, then adds
  // s/R = 10000 per RTT: 50000, 60000.
  SenderConfig c = config();
  c.w_th_bytes = 4000;
  TfwmfcSender s(c);
  run(s, 0, 0);
  report(s, ms(100), 1, 0, ms(0));
  EXPECT_DOUBLE_EQ(s.law().rate_bytes_per_s(), 10000.0);
  const double expected[] = {20000, 40000, 50000, 60000};
  for (int k = 0; k < 4; ++k) {
    run(s, 101 + 100 * k, 200 + 100 * k);
    EXPECT_NEAR(s.law().rate_bytes_per_s(), expected[k], 1e-6) << "after RTT " << k + 1;
  }
  EXPECT_TRUE(s.law().initial_phase());
  // A report without marks keeps the ramp; the first one with marks ends it.
  report(s, ms(600), 50, 0, ms(500));
  EXPECT_TRUE(s.law().initial_phase());
  report(s, ms(700), 50, 1, ms(600));
  EXPECT_FALSE(s.law().initial_phase());
}

TEST(TfwmfcSection2_3_3, ContinueStartKeepsTheRateAcrossTheSwitch) {
  TfwmfcSender s(config());
  run(s, 0, 0);
  report(s, ms(100), 1, 0, ms(0));
  run(s, 101, 500);  // ramping: 10 -> 160 kB/s
  const double before = s.law().rate_bytes_per_s();
  report(s, ms(501), 100, 2, ms(400));
  ASSERT_TRUE(s.law().p());
  // P_M[k] starts where the refined model gives the current rate.
  EXPECT_NEAR(refined_ecn_rate(1000, *s.law().rtt_s(), *s.law().p()) / before, 1.0, 1e-6);
  run(s, 502, 600);  // one Δ: eq. 5 moves P_M 1 % of the way to the sample
  EXPECT_NEAR(s.law().rate_bytes_per_s() / before, 1.0, 0.05);
}

TEST(TfwmfcSection2_3_3, ZeroStartOvershootsFirstSampleStartsAtTheSample) {
  // The literal reading starts P_M[k] at 0: after one Δ it is α P_M,s, so
  // the rate is the model's at 1 % of the sample, about ten times too high.
  for (const PmStart start : {PmStart::kZero, PmStart::kFirstSample}) {
    SenderConfig c = config();
    c.pm_start = start;
    TfwmfcSender s(c);
    run(s, 0, 0);
    report(s, ms(100), 1, 0, ms(0));
    run(s, 101, 149);
    report(s, ms(150), 100, 2, ms(100));  // 50 ms hold 0.5 RTT: min(2, 0.5) / 100
    const double sample = 0.005;
    EXPECT_DOUBLE_EQ(*s.law().p_sample(), sample);
    run(s, 150, 200);  // the Δ at 200 ms
    const double r = *s.law().rtt_s();
    if (start == PmStart::kZero) {
      EXPECT_NEAR(*s.law().p(), 0.01 * sample, 1e-12);
      EXPECT_GT(s.law().rate_bytes_per_s(), 9 * refined_ecn_rate(1000, r, sample));
    } else {
      EXPECT_NEAR(*s.law().p(), sample, 1e-12);
      EXPECT_NEAR(s.law().rate_bytes_per_s(), refined_ecn_rate(1000, r, sample), 1e-6);
    }
  }
}

TEST(TfwmfcSection2_3_1, EwmaTakesTheLatestSampleEveryDelta) {
  // Between reports eq. 5 runs every Δ on the same sample: after k epochs
  // P_M[k] = P_s + (P_0 - P_s)(1 - α)^k. Per report, it moves once.
  for (const bool per_report : {false, true}) {
    SenderConfig c = config();
    c.pm_start = PmStart::kFirstSample;
    c.ewma_per_report = per_report;
    c.bound = false;
    TfwmfcSender s(c);
    run(s, 0, 0);
    report(s, ms(100), 1, 0, ms(0));
    run(s, 101, 149);
    report(s, ms(150), 200, 1, ms(100));  // first sample 0.005 starts P_M
    run(s, 150, 249);
    const double p0 = *s.law().p();
    EXPECT_NEAR(p0, 0.005, 1e-12);
    report(s, ms(250), 100, 1, ms(200));  // sample 0.01
    run(s, 250, 700);                     // epochs at 300, ..., 700 ms: five
    const double k = per_report ? 1 : 5;
    EXPECT_NEAR(*s.law().p(), 0.01 + (p0 - 0.01) * std::pow(0.99, k), 1e-12)
        << (per_report ? "per report" : "every delta");
  }
}

TEST(TfwmfcSection2_3_1, RateFollowsTheRefinedOrFloydModel) {
  for (const Model model : {Model::kRefined, Model::kFloyd}) {
    SenderConfig c = config();
    c.pm_start = PmStart::kFirstSample;
    c.model = model;
    c.bound = false;
    TfwmfcSender s(c);
    run(s, 0, 0);
    report(s, ms(100), 1, 0, ms(0));
    run(s, 101, 199);
    report(s, ms(200), 100, 1, ms(100));  // P_M,s = 0.01, R_s = 100 ms
    run(s, 200, 200);
    EXPECT_DOUBLE_EQ(*s.law().rtt_s(), 0.1);
    // Hand-computed at R = 100 ms, p = 1 %: refined 106677.497 B/s, Floyd 122000.
    EXPECT_NEAR(s.law().rate_bytes_per_s(), model == Model::kRefined ? 106677.4975 : 122000.0, 1e-3);
  }
}

TEST(TfrcLossSection3_3, LossesDriveTheSameLawAndDataAsksForNoEcn) {
  SenderConfig c;
  ASSERT_EQ(TfrcLossLaw::parse({}, c), "");
  EXPECT_EQ(c.signal, Signal::kLosses);
  c.pm_start = PmStart::kFirstSample;
  TfrcLossSender s(c);
  run(s, 0, 0);
  report(s, ms(100), 1, 0, ms(0));
  // Marks mean nothing to it: still ramping.
  run(s, 101, 599);
  report(s, ms(600), 90, 9, ms(500));
  EXPECT_TRUE(s.law().initial_phase());
  // 6 lost of 96 expected, 5 RTTs apart: P_L,s = min(6, 5) / (90 + 6).
  run(s, 600, 1099);
  report(s, ms(1100), 90, 0, ms(1000), 0, 6);
  EXPECT_FALSE(s.law().initial_phase());
  EXPECT_DOUBLE_EQ(*s.law().p_sample(), 5.0 / 96);
  ASSERT_TRUE(s.law().p());
  EXPECT_DOUBLE_EQ(*s.law().p(), 5.0 / 96);
  TfrcLossSender fresh(c);
  fresh.poll_transmit(ms(0));
  EXPECT_EQ(fresh.poll_transmit(ms(0))->ecn, Ecn::kNotEct);
}

TEST(TfwmfcParameters, TableTwoDefaultsAndStrictChecks) {
  SenderConfig c;
  ASSERT_EQ(TfwmfcLaw::parse({}, c), "");
  EXPECT_DOUBLE_EQ(c.alpha, 0.01);
  EXPECT_DOUBLE_EQ(c.beta, 0.05);
  EXPECT_EQ(c.delta, Duration::millis(100));
  EXPECT_EQ(c.report_interval, Duration::seconds(1));
  EXPECT_DOUBLE_EQ(c.w_th_bytes, 64000);
  EXPECT_EQ(c.sending.packet_bytes, 1000);
  EXPECT_EQ(c.model, Model::kRefined);
  EXPECT_NE(TfwmfcLaw::parse({{"alpha", 1.0}}, c).find("alpha"), std::string::npos);
  EXPECT_NE(TfwmfcLaw::parse({{"model", 2}}, c).find("model"), std::string::npos);
  EXPECT_NE(TfwmfcLaw::parse({{"pm_start", 3}}, c).find("pm_start"), std::string::npos);
  EXPECT_NE(TfwmfcLaw::parse({{"delat_s", 0.1}}, c).find("delat_s"), std::string::npos);
}

}  // namespace
}  // namespace mantra::tfwmfc
