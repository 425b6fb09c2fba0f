// DSR's agent (dsr/dsr_agent.h) on toy networks (dsr_toy_net.h): each test
// puts the network in the condition a rule of ns-2's DSR is about and checks
// the state it must lead to. Node i has address ToyNet::address(i).
#include "dsr/dsr_agent.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "dsr_toy_net.h"

namespace mantra::sim::dsr {
namespace {

using toy::ToyNet;

ToyNet chain(int nodes, DsrOptions options = {}) {
  ToyNet net(nodes, options);
  for (int i = 0; i + 1 < nodes; ++i) net.link(i, i + 1);
  return net;
}

Path path(std::initializer_list<int> nodes) {
  Path p;
  for (int n : nodes) p.push_back(ToyNet::address(n));
  return p;
}

TEST(DsrAgent, ADiscoveryTriesitsNeighboursFirstThenFloodsAndTheTargetAnswersAlongTheReversedRoute) {
  ToyNet net = chain(4);
  net.send(0, 3, 1.0);
  net.run_until(2.0);
  const auto ring_zero = net.requests_from(0, false);
  const auto flood = net.requests_from(0, true);
  ASSERT_EQ(ring_zero.size(), 1u);
  ASSERT_EQ(flood.size(), 1u);
  EXPECT_EQ(ring_zero[0].packet.ttl, 1);
  // The flood goes out once the non-propagating try has had 30 ms: at the first
  // send-buffer check after that (checks are 30-60 ms apart).
  EXPECT_GT(flood[0].at_s - ring_zero[0].at_s, DsrAgent::kRingZeroTimeoutS);
  EXPECT_LT(flood[0].at_s - ring_zero[0].at_s, DsrAgent::kRingZeroTimeoutS + 2 * DsrAgent::kSendBufferCheckS);
  ASSERT_EQ(net.delivered(3).size(), 1u);
  EXPECT_EQ(net.agent(0).cache().primary()[0], path({0, 1, 2, 3}));
  EXPECT_EQ(net.agent(3).cache().primary()[0], path({3, 2, 1, 0}));  // the reversed route, kept
  EXPECT_EQ(net.agent(0).counters().discoveries, 1);
  EXPECT_EQ(net.agent(0).waiting(), 0u);
}

TEST(DsrAgent, DiscoveriesForAnUnreachableTargetBackOffFourfoldUpToTenSecondsAndThePacketGoesAfter30s) {
  ToyNet net = chain(2);
  net.send(0, 1, 0.5);
  net.cut(0, 1);
  net.run_until(40.0);
  // ns-2's BackOffTest: 0.5 s x 4^n after the n-th discovery, at most 10 s; the
  // packet leaves the send buffer 30 s after it came, and with it the reason to search.
  const auto starts = net.requests_from(0, false);
  ASSERT_EQ(starts.size(), 4u);
  const double expected_gaps_s[] = {2.0, 8.0, 10.0};
  for (size_t i = 0; i < 3; ++i) {
    const double gap_s = starts[i + 1].at_s - starts[i].at_s;
    EXPECT_GE(gap_s, expected_gaps_s[i]) << "gap " << i;
    EXPECT_LT(gap_s, expected_gaps_s[i] + 2 * DsrAgent::kSendBufferCheckS) << "gap " << i;
  }
  ASSERT_EQ(net.dropped(0).size(), 1u);
  EXPECT_EQ(net.dropped(0)[0].second, DropReason::kSendBufferTimeout);
}

// Node 1 has a route to 3 (it forwarded 0's packets); node 4, a new neighbour
// of 1 only, looks for 3.
ToyNet learned_at_one(DsrOptions options) {
  ToyNet net(5, options);
  for (int i = 0; i < 3; ++i) net.link(i, i + 1);
  net.send(0, 3, 1.0);
  net.run_until(2.0);
  net.link(1, 4);
  net.send(4, 3, 3.0);
  net.run_until(4.0);
  return net;
}

TEST(DsrAgent, WithRepliesFromTheCacheANeighbourAnswersTheNonPropagatingRequest) {
  ToyNet net = learned_at_one(DsrOptions{true});
  EXPECT_EQ(net.requests_from(4, true).size(), 0u);  // no flood needed
  EXPECT_GE(net.agent(1).counters().cache_replies, 1);
  EXPECT_EQ(net.agent(4).cache().primary()[0], path({4, 1, 2, 3}));
  EXPECT_EQ(net.delivered(3).size(), 2u);
}

TEST(DsrAgent, WithoutRepliesFromTheCacheOnlyTheTargetAnswersAFlood) {
  ToyNet net = learned_at_one(DsrOptions{false});
  EXPECT_EQ(net.requests_from(4, false).size(), 0u);  // no non-propagating try
  EXPECT_EQ(net.requests_from(4, true).size(), 1u);
  EXPECT_EQ(net.agent(1).counters().cache_replies, 0);
  EXPECT_EQ(net.agent(4).cache().primary()[0], path({4, 1, 2, 3}));
  EXPECT_EQ(net.delivered(3).size(), 2u);
}

TEST(DsrAgent, ARelayWhoseLinkBreaksSalvagesOverAnotherCachedRouteAndTellsTheSource) {
  // 0-1-2-3 and 1-4-3. Node 1 learns 1-4-3 by sending to 3 before 0 is in
  // range (or 0 would overhear it); then 0 learns 0-1-2-3 from 3 itself
  // (replies from the cache off, or 1 would answer with 1-4-3).
  ToyNet net(5, DsrOptions{false});
  net.link(1, 4);
  net.link(4, 3);
  net.send(1, 3, 1.0);
  net.run_until(2.0);
  net.cut(1, 4);
  net.link(0, 1);
  net.link(1, 2);
  net.link(2, 3);
  net.send(0, 3, 3.0);  // discovers 0-1-2-3
  net.run_until(4.0);
  ASSERT_EQ(net.agent(0).cache().find(ToyNet::address(3)), path({0, 1, 2, 3}));
  net.cut(1, 2);
  net.link(1, 4);
  net.send(0, 3, 5.0);
  net.run_until(6.0);
  EXPECT_EQ(net.delivered(3).size(), 3u);
  EXPECT_EQ(net.agent(1).counters().salvaged, 1);
  EXPECT_EQ(net.agent(1).counters().route_errors, 1);
  const Packet& salvaged = net.delivered(3).back();
  EXPECT_EQ(salvaged.header.source_route->salvage, 1);
  EXPECT_EQ(route_of(salvaged), path({1, 4, 3}));  // from the salvager
  EXPECT_EQ(salvaged.source, ToyNet::address(0));  // still the originator's packet
  const auto to_zero = net.agent(0).cache().find(ToyNet::address(3));
  EXPECT_TRUE(!to_zero || std::search(to_zero->begin(), to_zero->end(), path({1, 2}).begin(), path({1, 2}).end()) ==
                              to_zero->end());
}

TEST(DsrAgent, ARouteErrorCutsTheLinkAtTheSourceAndAtEveryRelayOnTheWayAndRidesOnTheNextRequest) {
  ToyNet net = chain(5);
  net.send(0, 4, 1.0);
  net.run_until(2.0);
  net.cut(2, 3);
  net.send(0, 4, 3.0);
  net.run_until(3.2);
  // Node 2 had no other route: it keeps the packet and tells 0 through 1.
  EXPECT_EQ(net.agent(2).counters().route_errors, 1);
  EXPECT_FALSE(net.agent(0).cache().find(ToyNet::address(4)));
  EXPECT_FALSE(net.agent(1).cache().find(ToyNet::address(4)));  // snooped while forwarding it
  EXPECT_EQ(net.agent(0).cache().find(ToyNet::address(2)), path({0, 1, 2}));
  // 0's next discovery for 4 carries the error to every node that hears it.
  net.send(0, 4, 3.3);
  net.run_until(3.4);
  const auto requests = net.requests_from(0, false);
  ASSERT_FALSE(requests.empty());
  const Packet& next = requests.back().packet;
  ASSERT_EQ(next.header.errors.size(), 1u);
  EXPECT_EQ(next.header.errors[0].error_source, ToyNet::address(2));
  EXPECT_EQ(next.header.errors[0].unreachable, ToyNet::address(3));
}

TEST(DsrAgent, ANodeThatOverhearsAPacketItWouldRelayLaterSendsTheSourceAShorterRoute) {
  ToyNet net = chain(4);
  net.send(0, 3, 1.0);
  net.run_until(2.0);
  net.link(0, 2);  // 0 still uses 0-1-2-3
  net.send(0, 3, 3.0);
  net.run_until(3.5);
  EXPECT_EQ(net.agent(2).counters().gratuitous_replies, 1);
  EXPECT_EQ(net.agent(0).cache().find(ToyNet::address(3)), path({0, 2, 3}));
  net.send(0, 3, 4.0);
  net.run_until(4.5);
  EXPECT_EQ(route_of(net.delivered(3).back()), path({0, 2, 3}));
  EXPECT_EQ(net.agent(2).counters().gratuitous_replies, 1);  // held down: once per route and second
}

TEST(DsrAgent, APacketIsDeliveredOnceWhateverCopiesArrive) {
  ToyNet net = chain(2);
  Packet p;
  p.source = ToyNet::address(0);
  p.destination = ToyNet::address(1);
  p.identification = 42;
  p.ttl = 64;
  p.header.next_header = 17;
  p.payload = std::make_shared<toy::Bytes>(1000);
  put_route(p, path({0, 1}), 1, 0);
  net.agent(1).receive(p);
  net.agent(1).receive(p);  // the copy a salvage or a lost MAC ack makes
  EXPECT_EQ(net.delivered(1).size(), 1u);
  EXPECT_EQ(net.agent(1).counters().duplicates_suppressed, 1);
  p.identification = 43;
  net.agent(1).receive(p);
  EXPECT_EQ(net.delivered(1).size(), 2u);
}

TEST(DsrAgent, EachNodePassesAFloodedRequestOnOnceThoughItHearsItTwice) {
  ToyNet net(4);  // a square: 0-1, 0-2, 1-3, 2-3; 3 is not the target
  net.link(0, 1);
  net.link(0, 2);
  net.link(1, 3);
  net.link(2, 3);
  net.send(0, 5, 1.0);  // node 5 does not exist: nobody answers
  net.run_until(1.2);
  int passed_on[4] = {};
  for (const toy::Sent& s : net.sent()) {
    if (s.packet.header.request && s.from != 0) ++passed_on[s.from];
  }
  EXPECT_EQ(passed_on[3], 1);  // heard from 1 and from 2, passed on once
  // 1 and 2 hear 0's non-propagating request (not passed on), its flood (passed on), and 3's
  // copy of the flood, which lists them already: once each.
  EXPECT_EQ(passed_on[1], 1);
  EXPECT_EQ(passed_on[2], 1);
}

}  // namespace
}  // namespace mantra::sim::dsr
