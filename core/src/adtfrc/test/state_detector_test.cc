// ADTFRC §III-C, Table II: the state identified from hand-built packet
// sequences. A flow of 100 packets/s (T = 100 ms) with a small delay jitter
// warms the windows up; then one event follows.
#include "adtfrc/state_detector.h"

#include <gtest/gtest.h>

namespace mantra::adtfrc {
namespace {

constexpr Duration kT = Duration::millis(100);
constexpr int64_t kGapUs = 10'000;  // one packet every 10 ms

Time sent_at(int i) { return Time::from_us(1'000'000 + i * kGapUs); }
// 50 ms one-way delay with a +-0.4 ms jitter pattern.
Duration base_delay(int i) { return Duration::micros(50'000 + ((i * 7) % 5 - 2) * 200); }

class DetectorTest : public ::testing::Test {
 protected:
  StateDetector d{500};
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

TEST_F(DetectorTest, SteadyFlowIsNormal) {
  warm_up();
  for (int k = 0; k < 50; ++k, ++next) {
    auto id = feed(next, base_delay(next));
    EXPECT_NE(multi(id), NetworkState::kCongestion) << next;
    EXPECT_NE(multi(id), NetworkState::kRouteChange) << next;
  }
}

TEST_F(DetectorTest, QueueBuildUpIsCongestion) {
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

TEST_F(DetectorTest, RandomLossIsChannelErrorNotCongestion) {
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

TEST_F(DetectorTest, ReorderingBurstIsRouteChangeNotCongestion) {
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

TEST_F(DetectorTest, SilenceThenResumptionIsNotCongestion) {
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
