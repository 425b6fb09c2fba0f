// mantra on the in-memory link: at a wired bottleneck it finds the capacity
// and holds it with no standing queue, where TFRC fills the queue until it
// overflows; with random loss and no queue it keeps its rate.
#include <gtest/gtest.h>

#include "mantra/registry.h"
#include "test_link.h"

namespace mantra {
namespace {

struct Outcome {
  double utilisation = 0;  // delivered over the bottleneck's rate, from 20 s to 60 s
  int64_t queue_drops = 0;
};

Outcome run(const std::string& protocol, double rate_bps, double loss = 0) {
  testlink::LinkConfig c;
  c.bandwidth = Rate::bps(static_cast<int64_t>(rate_bps));
  c.delay = Duration::millis(20);
  c.loss = loss;
  testlink::TestLink link(c);
  auto s = make_sender(protocol, {});
  auto r = make_receiver(protocol, {});
  EXPECT_TRUE(s.endpoint && r.endpoint) << s.error << r.error;
  link.add_flow(std::move(s.endpoint), std::move(r.endpoint));
  link.run(Time::from_us(60'000'000));
  Outcome o;
  o.utilisation =
      static_cast<double>(link.delivered_rate(0, Time::from_us(20'000'000), link.now()).bits_per_sec()) / rate_bps;
  o.queue_drops = link.counters(0).queue_drops;
  return o;
}

TEST(KneeLink, HoldsAWiredBottleneckNearItsRateWithoutFillingItsQueue) {
  for (double rate : {500e3, 2e6, 10e6}) {
    const Outcome m = run("mantra", rate);
    EXPECT_GT(m.utilisation, 0.93) << rate;
    EXPECT_EQ(m.queue_drops, 0) << rate;
  }
  EXPECT_GT(run("tfrc", 2e6).queue_drops, 0);  // the contrast: a loss-based law fills the queue
}

TEST(KneeLink, RandomLossWithoutAQueueDoesNotSteerIt) {
  // 1 % random loss: the law ignores losses without a queue; the safety
  // floor (TFRC's equation on 1 %) is far above 500 kb/s at a 40 ms RTT.
  const Outcome m = run("mantra", 500e3, 0.01);
  EXPECT_GT(m.utilisation, 0.9 * 0.99);
}

}  // namespace
}  // namespace mantra
