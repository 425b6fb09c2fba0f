// The socket layer on loopback: a batch arrives as sent, codepoint and all,
// whether it leaves as GSO segments or datagram by datagram, and with the
// TTL (hop limit) it was sent with.
#include "udp_socket.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

namespace mantra::udp {
namespace {

std::vector<std::vector<uint8_t>> receive_all(UdpSocket& s, size_t expected, std::vector<Ecn>& ecns,
                                              std::vector<uint8_t>& ttls) {
  std::vector<std::vector<uint8_t>> got;
  std::vector<Received> batch;
  for (int tries = 0; tries < 200 && got.size() < expected; ++tries) {
    pollfd p{s.fd(), POLLIN, 0};
    poll(&p, 1, 10);
    EXPECT_EQ(s.receive(batch), "");
    for (const Received& r : batch) {
      got.emplace_back(r.bytes.begin(), r.bytes.end());
      ecns.push_back(r.ecn);
      ttls.push_back(r.ttl);
      EXPECT_TRUE(r.kernel_realtime_ns.has_value());
    }
  }
  return got;
}

void send_batch_and_check(bool gso, const std::string& host) {
  UdpSocket rx, tx;
  ASSERT_EQ(rx.open(parse_address(host + ":0").address), "");
  ASSERT_EQ(tx.open(parse_address(host + ":0").address), "");
  if (!gso) tx.disable_gso();
  // A TTL no system defaults to: what arrives is what was sent (loopback: no router).
  constexpr int kTtl = 37;
  const bool v6 = host.front() == '[';
  ASSERT_EQ(setsockopt(tx.fd(), v6 ? IPPROTO_IPV6 : IPPROTO_IP, v6 ? IPV6_UNICAST_HOPS : IP_TTL, &kTtl, sizeof kTtl),
            0);
  std::vector<std::vector<uint8_t>> payloads;
  for (int i = 0; i < 12; ++i) payloads.emplace_back(i == 11 ? 300 : 1200, static_cast<uint8_t>(i));
  payloads.emplace_back(50, 99);  // another size: a run of its own
  std::vector<Outgoing> out;
  for (size_t i = 0; i < payloads.size(); ++i) out.push_back({payloads[i], rx.local(), i < 12 ? Ecn::kEct0 : Ecn::kCe});
  tx.send(out);
  std::vector<Ecn> ecns;
  std::vector<uint8_t> ttls;
  const auto got = receive_all(rx, payloads.size(), ecns, ttls);
  ASSERT_EQ(got.size(), payloads.size());
  EXPECT_EQ(got, payloads);
  for (size_t i = 0; i < ecns.size(); ++i) EXPECT_EQ(ecns[i], i < 12 ? Ecn::kEct0 : Ecn::kCe) << i;
  for (size_t i = 0; i < ttls.size(); ++i) EXPECT_EQ(ttls[i], kTtl) << i;
  EXPECT_EQ(tx.counters().sent, static_cast<int64_t>(payloads.size()));
  if (gso && tx.gso()) {  // the kernel took UDP_SEGMENT: the equal run went as one send
    EXPECT_GE(tx.counters().gso_sends, 1);
  }
  if (!gso) {
    EXPECT_EQ(tx.counters().gso_sends, 0);
  }
}

TEST(UdpSocket, ABatchArrivesAsSentThroughGso) { send_batch_and_check(true, "127.0.0.1"); }
TEST(UdpSocket, ABatchArrivesAsSentWithoutGso) { send_batch_and_check(false, "127.0.0.1"); }
TEST(UdpSocket, ABatchArrivesAsSentOverIpv6) {
  UdpSocket probe;
  if (!probe.open(parse_address("[::1]:0").address).empty()) GTEST_SKIP() << "no IPv6 loopback on this machine";
  send_batch_and_check(true, "[::1]");
}

TEST(UdpSocket, TheControlBufferHoldsEveryEnabledOption) {
  UdpSocket s;
  ASSERT_EQ(s.open(parse_address("127.0.0.1:0").address), "");
  // TOS and TCLASS, TTL and hop limit (an int each at most), a timespec, a drop count.
  EXPECT_GE(s.control_bytes(), CMSG_SPACE(sizeof(int)) * 4 + CMSG_SPACE(sizeof(timespec)) + CMSG_SPACE(4));
}

}  // namespace
}  // namespace mantra::udp
