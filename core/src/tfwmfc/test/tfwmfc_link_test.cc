// TF-WMFC end to end over the in-memory link: its rate follows the marks and
// ignores random loss; the loss-based TFRC (tfrc-loss) falls with the loss
// (the paper's Fig. 10 in miniature).
#include <gtest/gtest.h>

#include <memory>

#include "test_link.h"
#include "tfwmfc/tfwmfc_receiver.h"
#include "tfwmfc/tfwmfc_sender.h"

namespace mantra::tfwmfc {
namespace {

// Throughput in bytes/s over [20, 60] s of one flow on a 4 Mb/s, 20 ms link
// that marks ECN-capable packets with probability `mark` and loses packets
// with probability `loss`.
double throughput(bool loss_based, double mark, double loss) {
  testlink::LinkConfig link;
  link.bandwidth = Rate::bps(4'000'000);
  link.delay = Duration::millis(20);
  link.ce_mark = mark;
  link.loss = loss;
  testlink::TestLink net(link);
  SenderConfig c;
  if (loss_based) TfrcLossLaw::parse({}, c);
  std::unique_ptr<Sender> sender;
  if (loss_based)
    sender = std::make_unique<TfrcLossSender>(c);
  else
    sender = std::make_unique<TfwmfcSender>(c);
  net.add_flow(std::move(sender), std::make_unique<TfwmfcReceiver>());
  net.run(Time::zero() + Duration::seconds(20));
  const int64_t before = net.counters(0).bytes_delivered;
  net.run(Time::zero() + Duration::seconds(60));
  return static_cast<double>(net.counters(0).bytes_delivered - before) / 40.0;
}

TEST(TfwmfcLink, MarksSetTheRateAndRandomLossDoesNot) {
  const double clean = throughput(false, 0.01, 0.0);
  const double lossy = throughput(false, 0.01, 0.05);
  EXPECT_GT(clean, 0);
  // 5 % loss takes 5 % of the packets, not the rate.
  EXPECT_NEAR(lossy / clean, 0.95, 0.1);
}

TEST(TfrcLossLink, RandomLossCutsTheLossBasedRate) {
  const double tfwmfc = throughput(false, 0.01, 0.05);
  const double loss_based = throughput(true, 0.0, 0.05);
  EXPECT_LT(loss_based, 0.5 * tfwmfc);
}

}  // namespace
}  // namespace mantra::tfwmfc
