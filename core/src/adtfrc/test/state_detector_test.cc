// ADTFRC §III-C, Table II: the state identified from hand-built packet
// sequences, with either ranking (all samples, a window of 500: the same here,
// as fewer than 500 packets are fed). A flow of 100 packets/s (T = 100 ms)
// with a small delay jitter warms the rankers up; then one event follows.
#include "adtfrc/state_detector.h"

#include <gtest/gtest.h>

namespace mantra::adtfrc {
namespace {

constexpr Duration kT = Duration::millis(100);
constexpr int64_t kGapUs = 10'000;  // one packet every 10 ms

Time sent_at(int i) { return Time::from_us(1'000'000 + i * kGapUs); }
// 50 ms one-way delay with a +-0.4 ms jitter pattern.
Duration base_delay(int i) { return Duration::micros(50'000 + ((i * 7) % 5 - 2) * 200); }

class DetectorTest : public ::testing::TestWithParam<Ranking> {
 protected:
  StateDetector d{GetParam(), 500};
  int next = 0;

  Identification feed(int i, Duration delay, int losses = 0) {
    return d.on_packet(sent_at(i), sent_at(i) + delay, losses, kT);
  }
  void warm_up(int n = 200) {
    for (; next < n; ++next) feed(next, base_delay(next));
  }
  static NetworkState multi(const Identification& id) { return id[static_cast<int>(CongestionRule::kMulti)]; }
  static NetworkState idd(const Identification& id) { return id[static_cast<int>(CongestionRule::kIddOnly)]; }
  static NetworkState stt(const Identification& id) { return id[static_cast<int>(CongestionRule::kSttOnly)]; }
};

TEST_P(DetectorTest, SteadyFlowIsNormal) {
  warm_up();
  for (int k = 0; k < 50; ++k, ++next) {
    auto id = feed(next, base_delay(next));
    EXPECT_NE(multi(id), NetworkState::kCongestion) << next;
    EXPECT_NE(multi(id), NetworkState::kRouteChange) << next;
  }
}

TEST_P(DetectorTest, QueueBuildUpIsCongestion) {
  warm_up();
  // A queue grows: each packet waits 3 ms longer than the one before, so IDD
  // is high and fewer packets arrive per T.
  int congested = 0;
  Duration extra = Duration::zero();
  for (int k = 0; k < 30; ++k, ++next) {
    extra += Duration::millis(3);
    auto id = feed(next, base_delay(next) + extra);
    EXPECT_EQ(d.levels().idd, Level::kHigh) << k;
    if (k >= 10) {
      EXPECT_EQ(multi(id), NetworkState::kCongestion) << k;
      EXPECT_EQ(idd(id), NetworkState::kCongestion) << k;
      EXPECT_EQ(stt(id), NetworkState::kCongestion) << k;
    }
    congested += multi(id) == NetworkState::kCongestion;
  }
  EXPECT_GE(congested, 20);
}

TEST_P(DetectorTest, RandomLossIsChannelErrorNotCongestion) {
  warm_up();
  // Packet `next` is lost; three packets later the loss is declared.
  const int lost = next++;
  feed(next, base_delay(next));
  ++next;
  feed(next, base_delay(next));
  ++next;
  auto id = feed(next, base_delay(next), 1);
  (void)lost;
  EXPECT_NE(d.levels().idd, Level::kHigh);  // IDD does not see a loss (Fig. 1)
  EXPECT_EQ(d.levels().plr, Level::kHigh);
  EXPECT_EQ(multi(id), NetworkState::kChannelError);
  EXPECT_EQ(stt(id), NetworkState::kCongestion);  // one packet fewer in T: STT alone is fooled
}

TEST_P(DetectorTest, ReorderingBurstIsRouteChangeNotCongestion) {
  warm_up();
  // A route change: for a while each pair arrives swapped (old path slower).
  int route_change = 0, idd_alarms = 0;
  for (int k = 0; k < 10; ++k, next += 2) {
    feed(next + 1, base_delay(next + 1));
    auto id = feed(next, base_delay(next) + Duration::millis(12));  // arrives after its successor
    EXPECT_EQ(d.levels().por, Level::kHigh) << k;
    EXPECT_NE(multi(id), NetworkState::kCongestion) << k;
    route_change += multi(id) == NetworkState::kRouteChange;
    idd_alarms += idd(id) == NetworkState::kCongestion;
  }
  EXPECT_GE(route_change, 9);
  EXPECT_GE(idd_alarms, 9);  // IDD alone reads reordering as congestion
}

TEST_P(DetectorTest, SilenceThenResumptionIsNotCongestion) {
  warm_up();
  // Disconnected for one second: 100 packets are lost, delays unchanged.
  next += 100;
  Identification id{};
  for (int k = 0; k < 3; ++k, ++next) id = feed(next, base_delay(next), k == 2 ? 100 : 0);
  EXPECT_NE(d.levels().idd, Level::kHigh);
  EXPECT_EQ(d.levels().stt, Level::kLow);
  EXPECT_NE(multi(id), NetworkState::kCongestion);
  EXPECT_EQ(multi(id), NetworkState::kChannelError);  // PLR is high; the sender's timeout tells DISC
  EXPECT_EQ(stt(id), NetworkState::kCongestion);
}

TEST_P(DetectorTest, LossRatioIsLostOverReceived) {
  warm_up();
  // Packets 200 and 201 are lost, declared at the arrival of 202.
  next += 2;
  feed(next, base_delay(next), 2);
  EXPECT_DOUBLE_EQ(d.sample().stt_pps, 80.0);  // received in T: 193-199 and 202
  EXPECT_DOUBLE_EQ(d.sample().plr, 2.0 / 8);   // Table I: N_l(T) / N_p(T), not 2 / (2 + 8)
  EXPECT_DOUBLE_EQ(d.sample().por, 0.0);
  EXPECT_EQ(d.levels().plr, Level::kHigh);
}

INSTANTIATE_TEST_SUITE_P(Rankings, DetectorTest, ::testing::Values(Ranking::kAllSamples, Ranking::kWindow),
                         [](const auto& info) { return info.param == Ranking::kWindow ? "Window" : "AllSamples"; });

// A long calm run, then a long period of larger delay steps: the window
// forgets the calm run and stops calling the steps HIGH; all samples do not.
TEST(DetectorRanking, TheWindowForgetsWhatAllSamplesRemember) {
  StateDetector all(Ranking::kAllSamples, 50), window(Ranking::kWindow, 50);
  int i = 0;
  for (; i < 200; ++i) {
    all.on_packet(sent_at(i), sent_at(i) + base_delay(i), 0, kT);
    window.on_packet(sent_at(i), sent_at(i) + base_delay(i), 0, kT);
  }
  // Delay grows by 3 ms per packet for 100 packets: IDD = 3 ms + jitter (2.4 or 3.4 ms), above
  // every calm sample (at most 0.4 ms).
  for (int k = 1; k <= 100; ++k, ++i) {
    const Duration delay = base_delay(i) + Duration::millis(3 * k);
    all.on_packet(sent_at(i), sent_at(i) + delay, 0, kT);
    window.on_packet(sent_at(i), sent_at(i) + delay, 0, kT);
    if (k <= 10) {
      EXPECT_EQ(window.levels().idd, Level::kHigh) << k;  // the window still holds calm samples
    }
  }
  EXPECT_DOUBLE_EQ(all.sample().idd_ms, 3.4);
  EXPECT_EQ(all.levels().idd, Level::kHigh);     // 199 calm samples and 40 of 2.4 ms below, of 298
  EXPECT_NE(window.levels().idd, Level::kHigh);  // only 20 of 2.4 ms below, of 50
}

TEST(Table2, IdentificationRules) {
  MetricLevels l;
  l.idd = Level::kHigh;
  l.stt = Level::kLow;
  l.por = Level::kHigh;
  l.plr = Level::kHigh;
  EXPECT_EQ(identify(l, CongestionRule::kMulti), NetworkState::kCongestion);  // CONG has priority
  l.stt = Level::kMiddle;
  EXPECT_EQ(identify(l, CongestionRule::kMulti), NetworkState::kRouteChange);
  EXPECT_EQ(identify(l, CongestionRule::kIddOnly), NetworkState::kCongestion);
  l.por = Level::kMiddle;
  EXPECT_EQ(identify(l, CongestionRule::kMulti), NetworkState::kChannelError);
  l.plr = Level::kLow;
  EXPECT_EQ(identify(l, CongestionRule::kMulti), NetworkState::kNormal);
  l.idd = Level::kLow;
  l.stt = Level::kLow;
  EXPECT_EQ(identify(l, CongestionRule::kSttOnly), NetworkState::kCongestion);
  EXPECT_EQ(identify(l, CongestionRule::kMulti), NetworkState::kNormal);
}

}  // namespace
}  // namespace mantra::adtfrc
