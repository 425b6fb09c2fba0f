// Our AODV agent (sim/src/aodv/aodv_agent.h) rule by rule on toy networks
// (aodv_toy_net.h): each test builds the condition a rule of ns-2's AODV is
// about and checks the state it must lead to.
#include "aodv/aodv_agent.h"

#include <gtest/gtest.h>

#include "aodv_toy_net.h"

namespace mantra::sim::aodv {
namespace {

using toy::ToyNet;

TEST(AodvAgent, AFirstDiscoveryGoesNetworkWideAndReleasesWhatWaited) {
  ToyNet net(4, true);
  net.send(0, 3, 1.0);
  net.send(0, 3, 1.0);
  net.run_until(3);
  const auto requests = net.requests_from(0);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].ttl, AodvAgent::kNetworkDiameter);  // no hop count known yet: no ring
  EXPECT_EQ(net.delivered(3).size(), 2u);
  const Route& route = *net.agent(0).table().find(ToyNet::address(3));
  EXPECT_TRUE(route.up());
  EXPECT_EQ(route.hops, 3);
  EXPECT_EQ(route.next_hop, ToyNet::address(1));
  // The destination raised its sequence number above both its own (2) and the asked one (0), to even.
  EXPECT_EQ(net.agent(3).seqno(), 4u);
  EXPECT_EQ(route.seqno, 4u);
}

TEST(AodvAgent, OnlyTheFirstCopyOfARequestIsPassedOn) {
  ToyNet net(5);  // 0 reaches 3 through 1 and through 2; 4 hangs off 3
  net.link(0, 1);
  net.link(0, 2);
  net.link(1, 3);
  net.link(2, 3);
  net.link(3, 4);
  net.send(0, 4, 1.0);
  net.run_until(3);
  EXPECT_EQ(net.agent(3).counters().requests_passed, 1);
  EXPECT_EQ(net.delivered(4).size(), 1u);
}

TEST(AodvAgent, ARelayWithAFreshEnoughRouteAnswersFromItsTable) {
  ToyNet net(5, true);
  net.cut(3, 4);
  net.link(1, 4);  // a newcomer beside node 1
  net.send(0, 3, 1.0);
  net.run_until(2);
  const int replies_of_3 = net.count_from<RouteReply>(3);
  net.send(4, 3, 2.0);
  net.run_until(3);
  EXPECT_EQ(net.agent(1).counters().table_replies, 1);
  EXPECT_EQ(net.count_from<RouteReply>(3), replies_of_3);  // the destination was not asked again
  EXPECT_EQ(net.delivered(3).size(), 2u);
  // Node 1 now forwards for 4 towards 3: 4's next hop is a precursor of its route to 3.
  EXPECT_EQ(net.agent(1).table().find(ToyNet::address(3))->precursors.count(ToyNet::address(4)), 1u);
}

TEST(AodvAgent, ADiscoveryThatFindsNothingTriesFourTimesThenDropsAndHoldsOff) {
  ToyNet net(3);  // node 2 is out of reach
  net.link(0, 1);
  net.send(0, 2, 1.0);
  net.run_until(25);
  const auto requests = net.requests_from(0);
  ASSERT_EQ(requests.size(), 4u);
  // Sent on the packet, then on the 0.5 s purge once each timeout (2 x 30 x 30 ms x tries) passed.
  EXPECT_DOUBLE_EQ(requests[0].at_s, 1.0);
  EXPECT_DOUBLE_EQ(requests[1].at_s, 3.0);   // 1.0 + 1.8
  EXPECT_DOUBLE_EQ(requests[2].at_s, 7.0);   // 3.0 + 3.6
  EXPECT_DOUBLE_EQ(requests[3].at_s, 12.5);  // 7.0 + 5.4
  ASSERT_EQ(net.dropped(0).size(), 1u);      // given up at 12.5 + 7.2 -> 20.0
  EXPECT_EQ(net.dropped(0)[0].second, DropReason::kNoRoute);
  EXPECT_EQ(net.agent(0).counters().discoveries_given_up, 1);
  net.send(0, 2, 22.0);  // held, but no request for 10 s
  net.run_until(29.9);
  EXPECT_EQ(net.requests_from(0).size(), 4u);
  net.run_until(30.6);
  EXPECT_EQ(net.requests_from(0).size(), 5u);
}

TEST(AodvAgent, ABreakFarFromTheDestinationDropsTellsTheSourceAndTheNextSearchIsARing) {
  ToyNet net(4, true);
  net.send(0, 3, 1.0);
  net.run_until(2);
  net.cut(1, 2);
  net.send(0, 3, 2.0);  // at node 1 it has crossed 1 link with 2 to go: no repair
  net.run_until(2.1);
  ASSERT_EQ(net.dropped(1).size(), 1u);
  EXPECT_EQ(net.dropped(1)[0].second, DropReason::kLinkBroken);
  EXPECT_EQ(net.count_from<RouteError>(1), 1);
  const Route& at_source = *net.agent(0).table().find(ToyNet::address(3));
  EXPECT_FALSE(at_source.up());
  EXPECT_EQ(at_source.seqno, 5u);  // the destination's 4, plus one for the break
  net.send(0, 3, 2.5);
  net.run_until(2.6);
  const auto requests = net.requests_from(0);
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[1].ttl, 5);  // the route had 3 hops: 3 + 2
}

TEST(AodvAgent, ABreakNearTheDestinationIsRepairedWhereItHappened) {
  ToyNet net(6, true);  // 0-1-2-3-4(-5), and 3-5 beside the last link: 3-5-4
  net.link(3, 5);
  net.send(0, 4, 1.0);
  net.run_until(2);
  ASSERT_EQ(net.agent(3).table().find(ToyNet::address(4))->next_hop, ToyNet::address(4));
  net.cut(3, 4);
  net.send(0, 4, 2.0);  // at node 3: 3 links crossed, 1 to go
  net.run_until(3);
  // Node 2 answers the repair's request from its table with the route through 3 itself (ns-2's
  // repair asks for no fresher sequence number); 3 keeps it out, as it is no better, and takes
  // the destination's own reply over 5.
  EXPECT_EQ(net.agent(2).counters().table_replies, 1);
  EXPECT_EQ(net.agent(3).counters().local_repairs, 1);
  EXPECT_EQ(net.count_from<RouteError>(3), 0);  // nobody upstream hears of it
  EXPECT_EQ(net.delivered(4).size(), 2u);
  EXPECT_EQ(net.agent(3).table().find(ToyNet::address(4))->next_hop, ToyNet::address(5));
}

TEST(AodvAgent, AFailedRepairTakesNoRouteThroughItsOwnUpstreamNeighbour) {
  ToyNet net(5, true);  // 0-1-2-3-4, and the last link breaks for good
  net.send(0, 4, 1.0);
  net.run_until(2);
  const uint32_t seqno = net.agent(3).table().find(ToyNet::address(4))->seqno;
  net.cut(3, 4);
  net.send(0, 4, 2.0);  // at node 3: 3 links crossed, 1 to go: a repair, which finds nothing
  net.run_until(2.4);
  EXPECT_EQ(net.agent(3).counters().local_repairs, 1);
  EXPECT_EQ(net.agent(2).counters().table_replies, 1);  // its route through 3, kept out
  // The repair's deadline (its request's timeout, 1.8 s: ns-2's first request for a route never
  // brought down goes network-wide) passes on the 4 s purge and the packet still waits: node 3
  // asks again, for a newer number than the routes upstream hold (they all lead through node 3).
  net.run_until(5);
  const Route& at_3 = *net.agent(3).table().find(ToyNet::address(4));
  EXPECT_FALSE(at_3.up());           // not through node 2, whose route leads back through 3
  EXPECT_EQ(at_3.seqno, seqno + 1);  // invalidated: odd
  EXPECT_EQ(net.agent(2).counters().table_replies, 1);
  const auto requests = net.requests_from(3);
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(std::get<RouteRequest>(requests[1].message).destination_seqno, seqno + 1);
}

TEST(AodvAgent, AnIdleRouteGoesDownSilentlyAfterTenSeconds) {
  ToyNet net(3, true);
  net.send(0, 2, 1.0);
  net.run_until(10.9);
  EXPECT_TRUE(net.agent(0).table().find(ToyNet::address(2))->up());
  net.run_until(11.6);
  const Route& route = *net.agent(0).table().find(ToyNet::address(2));
  EXPECT_FALSE(route.up());
  EXPECT_EQ(route.seqno % 2, 1u);  // invalidated: odd
  EXPECT_EQ(net.count_from<RouteError>(0), 0);
}

TEST(AodvAgent, ARelayWithoutARouteAnswersWithARouteErrorAndDrops) {
  ToyNet net(3, true);
  net.send(0, 2, 1.0);
  net.run_until(2);
  // Node 1's route to 2 expires (it forwarded nothing since 1 s); 0's stays up by its own use.
  net.send(0, 2, 10.0);
  net.run_until(11.2);
  net.agent(1).table().find(ToyNet::address(2))->down();
  net.send(0, 2, 11.3);
  net.run_until(11.4);
  ASSERT_FALSE(net.dropped(1).empty());
  EXPECT_EQ(net.dropped(1).back().second, DropReason::kNoRoute);
  EXPECT_GE(net.count_from<RouteError>(1), 1);
  EXPECT_FALSE(net.agent(0).table().find(ToyNet::address(2))->up());
}

}  // namespace
}  // namespace mantra::sim::aodv
