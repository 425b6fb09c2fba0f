// The endpoint contract carries each datagram's ECN codepoint both ways
// (RFC 3168): what a sender asks for arrives with the datagram, and a CE mark
// set on the way is what the receiving endpoint sees. Through the in-memory
// link, with CBR endpoints (the one protocol that can ask for ECT today).
#include <gtest/gtest.h>

#include <memory>

#include "cbr/cbr.h"
#include "test_link.h"

namespace mantra {
namespace {

struct EcnRun {
  EndpointStats receiver;
  testlink::FlowCounters link;
};

// One CBR flow of 100 packets/s for 10 s asking for `ecn`, over a link that
// marks ECN-capable packets CE with probability `ce_mark`.
EcnRun run_cbr(Ecn ecn, double ce_mark) {
  testlink::LinkConfig link;
  link.ce_mark = ce_mark;
  testlink::TestLink net(link);
  cbr::CbrConfig config;
  config.rate = Rate::bps(800'000);
  config.ecn = ecn;
  net.add_flow(std::make_unique<cbr::CbrSender>(config), std::make_unique<cbr::CbrReceiver>());
  net.run(Time::zero() + Duration::seconds(10));
  return {net.receiver(0).stats(), net.counters(0)};
}

TEST(EcnThroughTheLink, TheCodepointASenderAsksForArrives) {
  for (Ecn ecn : {Ecn::kEct0, Ecn::kEct1}) {
    const EcnRun r = run_cbr(ecn, 0.0);
    ASSERT_GT(r.receiver.datagrams_received, 900);
    EXPECT_EQ(r.receiver.ect_received, r.receiver.datagrams_received);
    EXPECT_EQ(r.receiver.ce_received, 0);
  }
  const EcnRun plain = run_cbr(Ecn::kNotEct, 0.0);
  EXPECT_EQ(plain.receiver.ect_received, 0);
  EXPECT_EQ(plain.receiver.ce_received, 0);
}

TEST(EcnThroughTheLink, ACeMarkSetOnTheLinkIsSeenByTheReceiver) {
  const EcnRun r = run_cbr(Ecn::kEct0, 0.3);
  ASSERT_GT(r.link.ce_marked, 0);
  // Every mark the link set arrives as CE; the rest arrive as sent.
  EXPECT_EQ(r.receiver.ce_received, r.link.ce_marked);
  EXPECT_EQ(r.receiver.ce_received + r.receiver.ect_received, r.receiver.datagrams_received);
  EXPECT_NEAR(static_cast<double>(r.receiver.ce_received) / static_cast<double>(r.receiver.datagrams_received), 0.3,
              0.05);
}

TEST(EcnThroughTheLink, ANotEctPacketIsNeverMarked) {
  const EcnRun r = run_cbr(Ecn::kNotEct, 1.0);  // a link that would mark every capable packet
  EXPECT_EQ(r.link.ce_marked, 0);
  EXPECT_EQ(r.receiver.ce_received, 0);
}

}  // namespace
}  // namespace mantra
