// ADTFRC over the seeded in-memory link: random losses are not congestion,
// so ADTFRC keeps its rate where TFRC falls; a queue that overflows when
// competing traffic arrives is congestion, and ADTFRC backs off as TFRC does.
#include <gtest/gtest.h>

#include <cstdio>

#include "adtfrc/adtfrc_receiver.h"
#include "adtfrc/adtfrc_sender.h"
#include "cbr/cbr.h"
#include "test_link.h"
#include "tfrc/tfrc_receiver.h"
#include "tfrc/tfrc_sender.h"

namespace mantra {
namespace {

using testlink::LinkConfig;
using testlink::TestLink;

Time sec(int64_t s) { return Time::from_us(s * 1'000'000); }

void add_protocol(TestLink& link, bool adtfrc) {
  if (adtfrc)
    link.add_flow(std::make_unique<adtfrc::AdtfrcSender>(), std::make_unique<adtfrc::AdtfrcReceiver>());
  else
    link.add_flow(std::make_unique<tfrc::TfrcSender>(), std::make_unique<tfrc::TfrcReceiver>());
}

TEST(AdtfrcOverLink, KeepsItsRateUnderRandomLossWhereTfrcFalls) {
  for (uint64_t seed : {1, 2, 3}) {
    double kbps[2];
    for (bool adtfrc : {false, true}) {
      LinkConfig c;
      c.bandwidth = Rate::bps(2'000'000);
      c.delay = Duration::millis(50);
      c.loss = 0.05;
      c.seed = seed;
      TestLink link(c);
      add_protocol(link, adtfrc);
      link.run(sec(200));
      kbps[adtfrc] = link.delivered_rate(0, sec(50), sec(200)).kbps_value();
    }
    std::printf("seed %d: random 5 %% loss: tfrc %.0f kb/s, adtfrc %.0f kb/s\n", static_cast<int>(seed), kbps[0],
                kbps[1]);
    EXPECT_GT(kbps[1], 2.0 * kbps[0]) << "seed " << seed;
    EXPECT_GT(kbps[1], 0.7 * 2000 * 0.95) << "seed " << seed << ": should nearly fill the link";
  }
}

TEST(AdtfrcOverLink, BacksOffLikeTfrcWhenCrossTrafficOverflowsTheQueue) {
  for (uint64_t seed : {1, 2, 3}) {
    double kbps[2], cbr_kbps[2], p[2];
    for (bool adtfrc : {false, true}) {
      LinkConfig c;
      c.bandwidth = Rate::bps(2'000'000);
      c.delay = Duration::millis(50);
      c.loss = 0.0;
      c.seed = seed;
      TestLink link(c);
      add_protocol(link, adtfrc);
      cbr::CbrConfig cc;
      cc.rate = Rate::bps(1'200'000);
      link.add_flow(std::make_unique<cbr::CbrSender>(cc), std::make_unique<cbr::CbrReceiver>(), sec(60));
      link.run(sec(200));
      kbps[adtfrc] = link.delivered_rate(0, sec(80), sec(200)).kbps_value();
      cbr_kbps[adtfrc] = link.delivered_rate(1, sec(80), sec(200)).kbps_value();
      for (const auto& [name, value] : link.sender(0).stats().diagnostics) {
        if (name == "loss_event_rate") p[adtfrc] = value;  // TFRC's p, which ADTFRC's sender composes
      }
    }
    std::printf("seed %d: 1.2 Mb/s CBR joins: tfrc %.0f kb/s (cbr %.0f, p %.4f), adtfrc %.0f kb/s (cbr %.0f, p %.4f)\n",
                static_cast<int>(seed), kbps[0], cbr_kbps[0], p[0], kbps[1], cbr_kbps[1], p[1]);
    EXPECT_GT(p[1], 0.0) << "seed " << seed << ": overflow losses must count as congestion";
    EXPECT_LT(kbps[1], 1.25 * kbps[0]) << "seed " << seed;
    EXPECT_GT(cbr_kbps[1], 0.9 * cbr_kbps[0]) << "seed " << seed << ": the cross traffic keeps its share";
  }
}

}  // namespace
}  // namespace mantra
