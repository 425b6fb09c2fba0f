// TFRC over the seeded in-memory link: the equation rate under random loss,
// and a fair share beside a TCP-like flow.
#include <gtest/gtest.h>

#include "common/throughput_equation.h"
#include "reno_reference.h"
#include "test_link.h"
#include "tfrc/tfrc_receiver.h"
#include "tfrc/tfrc_sender.h"

namespace mantra {
namespace {

using testlink::LinkConfig;
using testlink::TestLink;

TEST(TfrcOverLink, ConvergesToTheEquationRateAtTheLinksLossRate) {
  for (double loss : {0.005, 0.01, 0.03}) {
    for (uint64_t seed : {1, 2}) {
      LinkConfig c;
      c.bandwidth = Rate::bps(20'000'000);  // far above the equation rate: no queueing
      c.delay = Duration::millis(50);
      c.loss = loss;
      c.seed = seed;
      TestLink link(c);
      link.add_flow(std::make_unique<tfrc::TfrcSender>(), std::make_unique<tfrc::TfrcReceiver>());
      link.run(Time::from_us(400'000'000));
      auto& sender = dynamic_cast<tfrc::TfrcSender&>(link.sender(0));
      const double sent_rate =
          link.delivered_rate(0, Time::from_us(100'000'000), Time::from_us(400'000'000)).bytes_per_sec() / (1.0 - loss);
      const double expected = tfrc_rate(1000, sender.state().rtt().smoothed().secs(), loss);
      EXPECT_NEAR(sent_rate / expected, 1.0, 0.25)
          << "loss " << loss << " seed " << seed << " sent " << sent_rate << " equation " << expected;
    }
  }
}

// Both flows meet the same drop-tail queue and the same 1 % random loss.
// (With overflow as the only loss, a smooth TFRC flow loses a packet at
// every overflow while the bursty TCP flow does not: the known drop-tail
// bias, documented in core/src/tfrc/README.md.)
TEST(TfrcOverLink, SharesABottleneckFairlyWithTcp) {
  for (uint64_t seed : {1, 2, 3}) {
    LinkConfig c;
    c.bandwidth = Rate::bps(2'000'000);
    c.delay = Duration::millis(20);
    c.queue_packets = 50;
    c.loss = 0.01;
    c.seed = seed;
    TestLink link(c);
    link.add_flow(std::make_unique<tfrc::TfrcSender>(), std::make_unique<tfrc::TfrcReceiver>());
    link.add_flow(std::make_unique<testlink::RenoSender>(), std::make_unique<testlink::RenoReceiver>(),
                  Time::from_us(1'000'000));
    link.run(Time::from_us(300'000'000));
    const Time from = Time::from_us(50'000'000), to = Time::from_us(300'000'000);
    const double tfrc = link.delivered_rate(0, from, to).kbps_value();
    const double tcp = link.delivered_rate(1, from, to).kbps_value();
    EXPECT_GT(tfrc + tcp, 0.8 * 2000) << "the bottleneck should be nearly full";
    EXPECT_LT(std::max(tfrc, tcp) / std::min(tfrc, tcp), 2.0)
        << "seed " << seed << ": tfrc " << tfrc << " kb/s, tcp " << tcp << " kb/s";
  }
}

TEST(TfrcOverLink, SameSeedSameResult) {
  auto run = [] {
    LinkConfig c;
    c.loss = 0.02;
    c.seed = 7;
    TestLink link(c);
    link.add_flow(std::make_unique<tfrc::TfrcSender>(), std::make_unique<tfrc::TfrcReceiver>());
    link.run(Time::from_us(60'000'000));
    return link.counters(0).bytes_delivered;
  };
  EXPECT_EQ(run(), run());
}

}  // namespace
}  // namespace mantra
