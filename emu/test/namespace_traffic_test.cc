#include "namespace_traffic.h"

#include <gtest/gtest.h>

#include <array>

namespace mantra::emu {
namespace {

constexpr uint8_t kIcmp = 1;
constexpr uint8_t kTcp = 6;
constexpr uint8_t kUdp = 17;
constexpr uint8_t kDsr = 48;

std::array<uint8_t, 4> ports(uint16_t src, uint16_t dst) {
  return {static_cast<uint8_t>(src >> 8), static_cast<uint8_t>(src), static_cast<uint8_t>(dst >> 8),
          static_cast<uint8_t>(dst)};
}

TEST(NamespaceTraffic, ProgramsPortsGoToTheNamespace) {
  const NodeOwnTraffic own{sim::RoutingPackets::kAodv, {5000, 5001}};
  EXPECT_TRUE(for_namespace(kUdp, ports(40000, 5002), own));  // a real flow's port (5002: flow 2 is real)
  EXPECT_TRUE(for_namespace(kUdp, ports(5002, 33000), own));  // a real sender's ephemeral port
  EXPECT_TRUE(for_namespace(kTcp, ports(80, 49151), own));    // the namespace's highest ephemeral port
  EXPECT_TRUE(for_namespace(kIcmp, std::array<uint8_t, 4>{8, 0, 0, 0}, own));  // a ping: the namespace answers
}

TEST(NamespaceTraffic, TheNodesOwnSocketsKeepTheirPackets) {
  const NodeOwnTraffic own{sim::RoutingPackets::kAodv, {5000, 5001}};
  EXPECT_FALSE(for_namespace(kUdp, ports(5001, 5001), own));   // a simulated flow
  EXPECT_FALSE(for_namespace(kTcp, ports(5000, 49152), own));  // ns-3's first ephemeral port (a TCP sender)
  EXPECT_FALSE(for_namespace(kTcp, ports(5000, 65535), own));
  EXPECT_FALSE(for_namespace(kUdp, ports(654, 654), own));                     // AODV's own
  EXPECT_FALSE(for_namespace(kUdp, std::array<uint8_t, 2>{0x13, 0x88}, own));  // no whole UDP header
}

TEST(NamespaceTraffic, DsrControlStaysAndDsrIsNotTheNamespaces) {
  const NodeOwnTraffic own{sim::RoutingPackets::kDsr, {}};
  // Our DSR's request/reply/error alone: Next Header 59 (no payload).
  EXPECT_FALSE(for_namespace(kDsr, std::array<uint8_t, 4>{59, 0, 0, 0}, own));
  EXPECT_TRUE(for_namespace(kUdp, ports(40000, 7000), own));
}

}  // namespace
}  // namespace mantra::emu
