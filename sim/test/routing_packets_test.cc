// Which packets count as a routing protocol's own (network/routing_packets.h):
// the bytes each protocol puts first after the IP header, and the data
// packets that share the protocol number or the transport.
#include "network/routing_packets.h"

#include <gtest/gtest.h>

#include <array>
#include <span>

namespace mantra::sim {
namespace {

constexpr uint8_t kUdp = 17, kTcp = 6, kDsr = 48;

TEST(RoutingPackets, AodvIsUdpToPort654) {
  const std::array<uint8_t, 4> to_654{0x02, 0x8e, 0x02, 0x8e};   // 654 -> 654
  const std::array<uint8_t, 4> to_5000{0x02, 0x8e, 0x13, 0x88};  // a flow's port
  EXPECT_TRUE(is_routing_packet(RoutingPackets::kAodv, kUdp, to_654));
  EXPECT_FALSE(is_routing_packet(RoutingPackets::kAodv, kUdp, to_5000));
  EXPECT_FALSE(is_routing_packet(RoutingPackets::kAodv, kTcp, to_654));
  EXPECT_FALSE(is_routing_packet(RoutingPackets::kAodv, kUdp, std::span(to_654).first(3)));
}

TEST(RoutingPackets, OurDsrsControlCarriesNoTransportPayload) {
  const std::array<uint8_t, 4> request{59, 0, 0, 12};  // Next Header 59: a request, reply or error alone
  const std::array<uint8_t, 4> data{17, 0, 0, 20};     // a source route before UDP (errors may ride on it)
  EXPECT_TRUE(is_routing_packet(RoutingPackets::kDsr, kDsr, request));
  EXPECT_FALSE(is_routing_packet(RoutingPackets::kDsr, kDsr, data));
  EXPECT_FALSE(is_routing_packet(RoutingPackets::kDsr, kUdp, request));
  EXPECT_FALSE(is_routing_packet(RoutingPackets::kDsr, kDsr, {}));
}

TEST(RoutingPackets, Ns3sDsrSaysControlInItsMessageType) {
  const std::array<uint8_t, 4> control{17, 1, 0, 0};  // next header, message type 1
  const std::array<uint8_t, 4> data{17, 2, 0, 0};
  EXPECT_TRUE(is_routing_packet(RoutingPackets::kDsrNs3, kDsr, control));
  EXPECT_FALSE(is_routing_packet(RoutingPackets::kDsrNs3, kDsr, data));
  EXPECT_FALSE(is_routing_packet(RoutingPackets::kDsrNs3, kDsr, std::span(control).first(1)));
}

TEST(RoutingPackets, EachRoutingNamesItsKind) {
  EXPECT_EQ(routing_packets_of("aodv"), RoutingPackets::kAodv);
  EXPECT_EQ(routing_packets_of("aodv-ns3"), RoutingPackets::kAodv);
  EXPECT_EQ(routing_packets_of("dsr"), RoutingPackets::kDsr);
  EXPECT_EQ(routing_packets_of("dsr-ns3"), RoutingPackets::kDsrNs3);
  EXPECT_EQ(routing_packets_of("oracle"), RoutingPackets::kNone);
  EXPECT_EQ(routing_packets_of("static"), RoutingPackets::kNone);
  const std::array<uint8_t, 4> request{59, 0, 0, 12};
  EXPECT_FALSE(is_routing_packet(RoutingPackets::kNone, kDsr, request));
}

}  // namespace
}  // namespace mantra::sim
