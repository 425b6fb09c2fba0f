// ADTFRC receiver (§IV, Algorithm 3): only losses seen in CONG count toward
// p; a CONG loss sends an urgent report; probes are answered at once; every
// report carries the state.
#include "adtfrc/adtfrc_receiver.h"

#include <gtest/gtest.h>

#include "adtfrc/adtfrc_wire.h"
#include "tfrc/tfrc_wire.h"

namespace mantra::adtfrc {
namespace {

constexpr Duration kRtt = Duration::millis(100);
constexpr int64_t kGapUs = 10'000;

Time sent_at(int i) { return Time::from_us(1'000'000 + i * kGapUs); }
Duration base_delay(int i) { return Duration::micros(50'000 + ((i * 7) % 5 - 2) * 200); }

class ReceiverTest : public ::testing::Test {
 protected:
  AdtfrcReceiver r;
  int next = 0;
  Time now;

  void data(int seq, Duration delay) {
    tfrc::DataHeader h;
    h.seq = static_cast<uint32_t>(seq);
    h.timestamp = sent_at(seq);
    h.sender_rtt = kRtt;
    now = sent_at(seq) + delay;
    r.handle_datagram(now, tfrc::encode_data(h, 1000), Ecn::kNotEct);
  }
  // Drains the reports due now; returns the last one.
  std::optional<tfrc::Feedback> reports() {
    if (auto t = r.poll_timeout(); t && *t <= now) r.handle_timeout(now);
    std::optional<tfrc::Feedback> last;
    while (auto d = r.poll_transmit(now)) last = *tfrc::decode_feedback(d->bytes);
    return last;
  }
  void warm_up() {
    for (; next < 200; ++next) {
      data(next, base_delay(next));
      reports();
    }
  }
};

TEST_F(ReceiverTest, EveryReportCarriesTheState) {
  warm_up();
  for (int k = 0; k < 20; ++k, ++next) data(next, base_delay(next));
  auto f = reports();
  ASSERT_TRUE(f);
  auto s = find_state_option(f->options);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->state, NetworkState::kNormal);
  EXPECT_FALSE(s->urgent);
}

TEST_F(ReceiverTest, RandomLossDoesNotRaiseTheCongestionFrequency) {
  warm_up();
  const int lost = next++;
  for (int k = 0; k < 3; ++k, ++next) data(next, base_delay(next));
  EXPECT_EQ(r.state(), NetworkState::kChannelError);
  EXPECT_EQ(r.loss_event_rate(), 0.0);
  auto verdicts = r.take_loss_verdicts();
  ASSERT_EQ(verdicts.size(), 3u);  // one per rule
  for (const auto& v : verdicts) EXPECT_EQ(v.seq, lost);
  EXPECT_EQ(verdicts[0].detector, "multi");
  EXPECT_EQ(verdicts[0].state, "cherr");
  EXPECT_TRUE(verdicts[0].acted_on);
  EXPECT_FALSE(verdicts[2].acted_on);
  EXPECT_EQ(verdicts[2].detector, "stt");
  EXPECT_EQ(verdicts[2].state, "cong");
  EXPECT_TRUE(r.take_loss_verdicts().empty());
}

TEST_F(ReceiverTest, CongestionLossCountsAndIsReportedUrgently) {
  warm_up();
  Duration extra = Duration::zero();
  for (int k = 0; k < 15; ++k, ++next) {  // a queue builds up
    extra += Duration::millis(3);
    data(next, base_delay(next) + extra);
    reports();
  }
  ASSERT_EQ(r.state(), NetworkState::kCongestion);
  ++next;  // this packet overflows the queue
  for (int k = 0; k < 3; ++k, ++next) {
    extra += Duration::millis(3);
    data(next, base_delay(next) + extra);
  }
  EXPECT_GT(r.loss_event_rate(), 0.0);
  auto d = r.poll_transmit(now);  // due at once, without waiting for the timer
  ASSERT_TRUE(d);
  auto f = tfrc::decode_feedback(d->bytes);
  ASSERT_TRUE(f);
  EXPECT_GT(f->p, 0.0);
  auto s = find_state_option(f->options);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->state, NetworkState::kCongestion);
  EXPECT_TRUE(s->urgent);
}

TEST_F(ReceiverTest, ProbeIsAnsweredAtOnceEchoingItsTimestamp) {
  warm_up();
  reports();
  now = now + Duration::seconds(3);  // silence; the report clock went idle
  reports();                         // what the last data still owed
  ASSERT_FALSE(r.poll_transmit(now));
  const Time probe_sent = now - Duration::millis(40);
  r.handle_datagram(now, encode_probe({1, probe_sent, kRtt}), Ecn::kNotEct);
  auto d = r.poll_transmit(now);
  ASSERT_TRUE(d);
  auto f = tfrc::decode_feedback(d->bytes);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->t_recvdata, probe_sent);
  EXPECT_EQ(f->t_delay, Duration::zero());
  EXPECT_EQ(r.stats().datagrams_rejected, 0);
}

TEST(PassiveReceiver, IdentifiesButCountsEveryLossAndReportsNoState) {
  ReceiverConfig c;
  c.passive = true;
  AdtfrcReceiver r(c);
  Time now;
  auto data = [&](int seq) {
    tfrc::DataHeader h;
    h.seq = static_cast<uint32_t>(seq);
    h.timestamp = sent_at(seq);
    h.sender_rtt = kRtt;
    now = sent_at(seq) + base_delay(seq);
    r.handle_datagram(now, tfrc::encode_data(h, 1000), Ecn::kNotEct);
    while (auto d = r.poll_transmit(now)) EXPECT_FALSE(find_state_option(tfrc::decode_feedback(d->bytes)->options));
  };
  for (int i = 0; i < 200; ++i) data(i);
  for (int i = 201; i < 204; ++i) data(i);  // 200 is lost: a random loss
  EXPECT_EQ(r.state(), NetworkState::kChannelError);
  EXPECT_GT(r.loss_event_rate(), 0.0);  // counted, as TFRC would
  EXPECT_EQ(r.take_loss_verdicts().size(), 3u);
}

TEST(AdtfrcReceiverParams, DetectorAndWindowAreChecked) {
  ReceiverConfig c;
  EXPECT_EQ(AdtfrcReceiver::parse({{"detector", 2}, {"window_samples", 100}}, c), "");
  EXPECT_EQ(c.rule, CongestionRule::kSttOnly);
  EXPECT_EQ(c.window_samples, 100u);
  EXPECT_NE(AdtfrcReceiver::parse({{"detector", 3}}, c).find("detector"), std::string::npos);
  EXPECT_NE(AdtfrcReceiver::parse({{"window_samples", 5}}, c).find("window_samples"), std::string::npos);
  EXPECT_EQ(AdtfrcReceiver::parse({{"windw", 5}}, c), "unknown parameter 'windw'");
}

TEST(AdtfrcReceiverParams, RankingIsAllSamplesByDefaultOrTheWindow) {
  ReceiverConfig c;
  EXPECT_EQ(AdtfrcReceiver::parse({}, c), "");
  EXPECT_EQ(c.ranking, Ranking::kAllSamples);  // the paper's "all samples"
  EXPECT_EQ(AdtfrcReceiver::parse({{"ranking", 1}, {"window_samples", 200}}, c), "");
  EXPECT_EQ(c.ranking, Ranking::kWindow);
  EXPECT_EQ(c.window_samples, 200u);
  EXPECT_EQ(AdtfrcReceiver::parse({{"ranking", 0}}, c), "");
  EXPECT_EQ(c.ranking, Ranking::kAllSamples);
  for (double bad : {2.0, -1.0, 0.5}) {
    EXPECT_EQ(AdtfrcReceiver::parse({{"ranking", bad}}, c),
              "ranking must be 0 (all samples) or 1 (sliding window of window_samples)")
        << bad;
  }
}

}  // namespace
}  // namespace mantra::adtfrc
