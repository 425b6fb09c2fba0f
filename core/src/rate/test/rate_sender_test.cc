// The rate sender's plumbing: the application data source (varying sizes,
// deadlines, the queue bound), pacing by each packet's size, s as the mean
// size, and the hooks the next protocols need (a rate update on its own
// period, a control packet on the law's own timer).
#include "rate/rate_sender.h"

#include <gtest/gtest.h>

#include <set>

#include "cbr/cbr.h"
#include "mantra/registry.h"
#include "tfrc/tfrc_wire.h"

namespace mantra {
namespace {

Time ms(int64_t v) { return Time::from_us(v * 1000); }

// CBR's fixed-rate law (80 kb/s: 10 bytes per ms) fed by an offered source.
std::unique_ptr<RateSender> offered_cbr(int64_t buffer_packets = 100) {
  cbr::CbrConfig c;
  c.rate = Rate::kbps(80);
  c.sending.source = {SourceKind::kOffered, Rate::zero(), buffer_packets};
  return std::make_unique<RateSender>(c.sending, std::make_unique<cbr::CbrLaw>(c));
}

std::vector<Datagram> send_due(RateSender& s, Time now) {
  std::vector<Datagram> out;
  while (auto d = s.poll_transmit(now)) out.push_back(*d);
  return out;
}

TEST(DataSource, OfferedPacketsKeepTheirSizesAndArePacedBySize) {
  auto s = offered_cbr();
  s->offer({500, std::nullopt});
  s->offer({1500, std::nullopt});
  s->offer({1000, std::nullopt});
  auto first = send_due(*s, ms(0));
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].bytes.size(), 500u);
  EXPECT_TRUE(send_due(*s, ms(49)).empty());  // 500 bytes at 10 bytes/ms: 50 ms
  auto second = send_due(*s, ms(50));
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].bytes.size(), 1500u);
  EXPECT_TRUE(send_due(*s, ms(199)).empty());  // then 150 ms
  EXPECT_EQ(send_due(*s, ms(200)).size(), 1u);
  // s, for the rate law, is the mean size sent (RFC 5348 §4.1).
  EXPECT_EQ(s->state().packet_bytes(), 1000);
}

// A media trace through CBR with `interval_jitter`: the offered packets' gaps
// are jittered as CBR's own are (each in [0.5, 1.5) x its size at the rate).
TEST(DataSource, OfferedPacketsTakeCbrsJitteredGaps) {
  cbr::CbrConfig c;
  c.rate = Rate::kbps(80);
  c.interval_jitter = 0.5;
  c.jitter_seed = 7;
  c.sending.source = {SourceKind::kOffered, Rate::zero(), 100};
  RateSender s(c.sending, std::make_unique<cbr::CbrLaw>(c));
  for (int i = 0; i < 40; ++i) s.offer({1000, std::nullopt});  // 100 ms apart without jitter
  std::vector<int64_t> sent_ms;
  for (int64_t t = 0; t < 10'000 && sent_ms.size() < 40; ++t) {
    for (size_t n = send_due(s, ms(t)).size(); n > 0; --n) sent_ms.push_back(t);
  }
  ASSERT_EQ(sent_ms.size(), 40u);
  std::set<int64_t> gaps;
  for (size_t i = 1; i < sent_ms.size(); ++i) {
    const int64_t gap = sent_ms[i] - sent_ms[i - 1];
    EXPECT_GE(gap, 49);  // 0.5 x 100 ms, less the 1 ms polling step
    EXPECT_LE(gap, 151);
    gaps.insert(gap);
  }
  EXPECT_GT(gaps.size(), 10u);  // spread, not the nominal 100 ms every time
}

TEST(DataSource, APacketThatCanNoLongerArriveInTimeIsDroppedNotSent) {
  auto s = offered_cbr();
  s->offer({1000, ms(0)});   // due now: sent at once (no RTT: no one-way delay known)
  s->offer({1000, ms(50)});  // its turn comes at 100 ms: too late
  s->offer({1000, ms(500)});
  EXPECT_EQ(send_due(*s, ms(0)).size(), 1u);
  auto later = send_due(*s, ms(100));
  ASSERT_EQ(later.size(), 1u);
  EXPECT_EQ(later[0].seq, 1);  // the third packet takes the next sequence number
  EXPECT_EQ(s->source().dropped_late(), 1);
}

// CBR's law taking every datagram as a report with an RTT sample of 2 s (as
// when a flow's first packet waited for a route discovery).
class SlowFirstSampleLaw : public cbr::CbrLaw {
 public:
  using cbr::CbrLaw::CbrLaw;
  ReportOutcome on_datagram(Time, std::span<const uint8_t>, SendState& state) override {
    state.add_rtt_sample(Duration::seconds(2));
    return ReportOutcome::kTaken;
  }
};

TEST(DataSource, AStaleRttEstimateDoesNotCallEveryPacketLateForEver) {
  cbr::CbrConfig c;
  c.rate = Rate::kbps(80);
  c.sending.source = {SourceKind::kOffered, Rate::zero(), 100};
  RateSender s(c.sending, std::make_unique<SlowFirstSampleLaw>(c));
  s.offer({1000, ms(500)});
  EXPECT_EQ(send_due(s, ms(0)).size(), 1u);
  const std::vector<uint8_t> report = {0xFB};
  s.handle_datagram(ms(100), report, Ecn::kNotEct);  // RTT 2 s: a one-way delay of 1 s
  s.offer({1000, ms(600)});                          // due in 500 ms: late by the estimate
  EXPECT_TRUE(send_due(s, ms(100)).empty());
  EXPECT_EQ(s.source().dropped_late(), 1);
  // Two seconds without sending: the estimate is stale, only the deadline counts.
  s.offer({1000, ms(2400)});
  const auto sent = send_due(s, ms(2000));
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(s.source().dropped_late(), 1);
}

// CBR's law noting, per data packet, whether the sender said the application
// left it nothing else to send.
class AppLimitedLaw : public cbr::CbrLaw {
 public:
  using cbr::CbrLaw::CbrLaw;
  void write_data(const DataStamp& stamp, const SendState& state, std::vector<uint8_t>& out) override {
    app_limited.push_back(stamp.app_limited);
    cbr::CbrLaw::write_data(stamp, state, out);
  }
  std::vector<bool> app_limited;
};

// A packet is application-limited when no other waits behind it: the last of
// an offered burst, every packet of a constant source below the rate, never a
// greedy source's.
TEST(DataSource, APacketThatLeavesTheSourceEmptyIsApplicationLimited) {
  const auto sender = [](SourceConfig source) {
    cbr::CbrConfig c;
    c.rate = Rate::kbps(80);  // a packet per 100 ms
    c.sending.source = source;
    auto law = std::make_unique<AppLimitedLaw>(c);
    AppLimitedLaw* seen = law.get();
    return std::pair{std::make_unique<RateSender>(c.sending, std::move(law)), seen};
  };
  auto [offered, offered_law] = sender({SourceKind::kOffered, Rate::zero(), 100});
  for (int i = 0; i < 3; ++i) offered->offer({1000, std::nullopt});
  for (int64_t t = 0; t <= 300; t += 100) send_due(*offered, ms(t));
  EXPECT_EQ(offered_law->app_limited, (std::vector<bool>{false, false, true}));
  auto [constant, constant_law] = sender({SourceKind::kConstant, Rate::kbps(40), 100});  // half the rate
  for (int64_t t = 0; t <= 1000; t += 10) send_due(*constant, ms(t));
  EXPECT_EQ(constant_law->app_limited, std::vector<bool>(6, true));
  auto [greedy, greedy_law] = sender({});
  for (int64_t t = 0; t <= 1000; t += 10) send_due(*greedy, ms(t));
  EXPECT_EQ(greedy_law->app_limited, std::vector<bool>(11, false));
}

TEST(DataSource, OverTheBoundTheOldestAreDropped) {
  auto s = offered_cbr(2);
  for (int64_t size : {100, 200, 300, 400, 500}) s->offer({size, std::nullopt});
  auto sent = send_due(*s, ms(0));
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].bytes.size(), 400u);  // the freshest two were kept
  EXPECT_EQ(s->source().dropped_over_bound(), 3);
}

TEST(DataSource, OnlyAnOfferedSourceTakesPackets) {
  cbr::CbrConfig c;
  c.rate = Rate::kbps(80);  // greedy: it makes its own data
  RateSender s(c.sending, std::make_unique<cbr::CbrLaw>(c));
  EXPECT_FALSE(s.offer({500, std::nullopt}));
  EXPECT_EQ(send_due(s, ms(0))[0].bytes.size(), 1000u);  // the nominal size, not the refused offer
  EXPECT_TRUE(offered_cbr()->offer({500, std::nullopt}));
}

TEST(DataSource, ParametersHaveOneMeaningAndOneRange) {
  const Params given = {{"source_rate_bps", 80000}, {"source_buffer_packets", 5}};
  ParamReader ok(given);
  SendingConfig c;
  SendingConfig::parse(ok, 16, c);
  EXPECT_EQ(ok.finish(), "");
  EXPECT_EQ(c.source.kind, SourceKind::kConstant);
  EXPECT_EQ(c.source.rate, Rate::kbps(80));
  const Params small = {{"packet_size", 15}};
  ParamReader bad(small);
  SendingConfig::parse(bad, 16, c);
  EXPECT_EQ(bad.finish(), "packet_size must be between 16 and 65507 bytes");
}

TEST(DataSource, TheAppIdOfAnOfferedPacketRidesOnItsDatagram) {
  auto s = offered_cbr();
  Sender& sender = *s;  // through the interface a driver holds
  EXPECT_TRUE(sender.offer({500, std::nullopt, (int64_t{7} << 27) | 3}));
  EXPECT_TRUE(sender.offer({500, ms(1000), 42}));
  EXPECT_TRUE(sender.offer({500, std::nullopt}));  // no id given
  const auto first = send_due(*s, ms(0));
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].app_id, (int64_t{7} << 27) | 3);
  EXPECT_EQ(first[0].seq, 0);
  EXPECT_EQ(send_due(*s, ms(50))[0].app_id, 42);
  EXPECT_EQ(send_due(*s, ms(100))[0].app_id, -1);
}

TEST(DataSource, AGreedyOrConstantSenderRefusesOffersAndStampsNoAppId) {
  for (const Params& params : {Params{}, Params{{"source_rate_bps", 80000}}}) {
    auto made = make_sender("tfrc", params);
    ASSERT_TRUE(made.endpoint) << made.error;
    EXPECT_FALSE(made.endpoint->offer({500, std::nullopt, 9}));
    const auto d = made.endpoint->poll_transmit(ms(0));
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->app_id, -1);
  }
}

TEST(DataSource, SourceOfferedSelectsTheOfferedSourceForEveryRateSender) {
  for (const char* protocol : {"tfrc", "adtfrc", "latp", "tfwmfc", "tfrc-loss"}) {
    auto made = make_sender(protocol, {{"source_offered", 1}});
    ASSERT_TRUE(made.endpoint) << protocol << ": " << made.error;
    while (auto d = made.endpoint->poll_transmit(ms(0))) {  // a control packet (TF-WMFC's report), no data yet
      EXPECT_NE(d->kind, DatagramKind::kData) << protocol;
    }
    EXPECT_TRUE(made.endpoint->offer({600, std::nullopt, 5})) << protocol;
  }
  auto cbr = make_sender("cbr", {{"rate_bps", 80000}, {"source_offered", 1}});
  ASSERT_TRUE(cbr.endpoint) << cbr.error;
  EXPECT_TRUE(cbr.endpoint->offer({600, std::nullopt, 5}));
  const auto d = cbr.endpoint->poll_transmit(ms(0));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->bytes.size(), 600u);
  EXPECT_EQ(d->app_id, 5);
  EXPECT_EQ(make_sender("tfrc", {{"source_offered", 2}}).error,
            "source_offered must be 0 (the sender's own source) or 1 (offered)");
  EXPECT_EQ(make_sender("tfrc", {{"source_offered", 1}, {"source_rate_bps", 8000}}).error,
            "source_offered takes no source_rate_bps: the application sets the pace");
  EXPECT_EQ(make_sender("cbr", {{"rate_bps", 80000}, {"source_rate_bps", 8000}}).error,
            "cbr sends at its rate: it takes no source_rate_bps");
}

TEST(DataSource, EachSenderSaysHowManyBytesOfADatagramAreItsHeader) {
  EXPECT_EQ(make_sender("tfrc", {}).endpoint->data_header_bytes(), static_cast<int64_t>(tfrc::kDataHeaderBytes));
  EXPECT_EQ(make_sender("adtfrc", {}).endpoint->data_header_bytes(), static_cast<int64_t>(tfrc::kDataHeaderBytes));
  EXPECT_EQ(make_sender("cbr", {{"rate_bps", 80000}}).endpoint->data_header_bytes(),
            static_cast<int64_t>(cbr::kHeaderBytes));
  // An offered packet's size is the datagram's: the law writes its header
  // inside it, so the application's data is the size less the header.
  auto s = offered_cbr();
  s->offer({1000, std::nullopt, 1});
  const auto d = send_due(*s, ms(0));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(static_cast<int64_t>(d[0].bytes.size()), 1000);
  EXPECT_TRUE(cbr::decode(d[0].bytes));
}

// A law that uses the hooks no shipped protocol uses yet: a rate update on
// its own period and a sender report on its own timer (TF-WMFC's Δ and T).
class PeriodicLaw : public RateLaw {
 public:
  size_t data_header_bytes() const override { return 1; }
  void write_data(const DataStamp& stamp, const SendState&, std::vector<uint8_t>& out) override {
    out.assign(static_cast<size_t>(stamp.bytes), 0xD0);
  }
  ReportOutcome on_datagram(Time, std::span<const uint8_t>, SendState&) override { return ReportOutcome::kRejected; }
  Rate allowed_rate(const SendState&) const override { return Rate::kbps(80); }
  std::optional<Duration> nofeedback_interval(const SendState&) const override { return std::nullopt; }
  std::optional<Time> rate_update_due() const override { return next_update; }
  void on_rate_update(Time now, const SendState&) override {
    updates.push_back(now);
    next_update = now + Duration::millis(100);
  }
  std::optional<Time> control_due() const override { return next_report; }
  std::optional<Datagram> make_control(Time now, const SendState&) override {
    next_report = now + Duration::millis(250);
    Datagram d;
    d.kind = DatagramKind::kFeedback;
    d.bytes = {0xC0};
    return d;
  }
  std::vector<std::pair<std::string, double>> diagnostics(const SendState&) const override { return {}; }

  std::vector<Time> updates;
  Time next_update = Time::zero() + Duration::millis(100);
  Time next_report = Time::zero();
};

TEST(RateSender, RateUpdatesRunOnTheirOwnPeriodAndControlPacketsGoFirst) {
  SendingConfig c;
  auto law = std::make_unique<PeriodicLaw>();
  PeriodicLaw& seen = *law;
  RateSender s(c, std::move(law));
  // At 0 ms both a report and a data packet are due: the report goes first.
  const auto first_at_zero = s.poll_transmit(ms(0));
  ASSERT_TRUE(first_at_zero.has_value());
  EXPECT_EQ(first_at_zero->bytes, std::vector<uint8_t>{0xC0});
  int controls = 1, data = 0;
  Time now = ms(0);
  for (int i = 0; i < 200; ++i) {
    s.handle_timeout(now);
    auto first = s.poll_transmit(now);
    if (first && first->bytes == std::vector<uint8_t>{0xC0}) ++controls;
    if (first && first->bytes.size() == 1000) ++data;
    while (auto d = s.poll_transmit(now)) (d->bytes.size() == 1000 ? data : controls)++;
    const auto next = s.poll_timeout();
    ASSERT_TRUE(next.has_value());
    if (*next >= ms(1000)) break;
    now = *next;
  }
  EXPECT_EQ(seen.updates.size(), 9u);  // at 100, 200, ..., 900 ms, with no feedback at all
  EXPECT_EQ(controls, 4);              // at 0, 250, 500, 750 ms
  EXPECT_EQ(data, 10);                 // 1000 bytes at 10 bytes/ms
}

// A law whose no-feedback expiry raises the rate tenfold (as LATP's floor
// of one packet per RTT can, when the RTT has shrunk).
class RaisingLaw : public RateLaw {
 public:
  size_t data_header_bytes() const override { return 1; }
  void write_data(const DataStamp& stamp, const SendState&, std::vector<uint8_t>& out) override {
    out.assign(static_cast<size_t>(stamp.bytes), 0xD0);
  }
  ReportOutcome on_datagram(Time, std::span<const uint8_t>, SendState&) override { return ReportOutcome::kRejected; }
  Rate allowed_rate(const SendState&) const override { return rate; }
  std::optional<Duration> nofeedback_interval(const SendState&) const override { return Duration::millis(30); }
  NofeedbackNext on_nofeedback(Time, const SendState&) override {
    rate = Rate::kbps(800);
    return NofeedbackNext::stop();
  }
  std::vector<std::pair<std::string, double>> diagnostics(const SendState&) const override { return {}; }

  Rate rate = Rate::kbps(80);  // 10 bytes per ms: 1000 bytes every 100 ms
};

TEST(RateSender, ARateRaisedByTheNofeedbackTimerAppliesAtOnce) {
  RateSender s(SendingConfig{}, std::make_unique<RaisingLaw>());
  EXPECT_EQ(send_due(s, ms(0)).size(), 1u);
  EXPECT_EQ(*s.poll_timeout(), ms(30));  // the timer, before the next packet at 100 ms
  s.handle_timeout(ms(30));
  // 100 bytes per ms now: the next packet is due 10 ms after the last, so at once.
  EXPECT_EQ(*s.poll_timeout(), ms(10));
  EXPECT_EQ(send_due(s, ms(30)).size(), 1u);
}

}  // namespace
}  // namespace mantra
