// mantra-udp's two commands in one process (two threads) over loopback: the
// real sockets, the real session and the real core endpoints.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <random>

#include "flow_harness.h"
#include "udp_socket.h"

namespace mantra::udp::test {
namespace {

TEST(Loopback, TfrcCarriesAFileWholeOverIpv4) {
  TempDir dir;
  const auto at = free_address("127.0.0.1");
  ASSERT_TRUE(at);
  const auto bytes = random_bytes(1500000, 1);
  write_file(dir.path / "in.bin", bytes);
  const Pair p = run_pair(dir, *at, *at, file_flow("tfrc", dir.path / "in.bin"));
  ASSERT_EQ(p.send_rc, 0);
  ASSERT_EQ(p.recv_rc, 0);
  EXPECT_EQ(read_file(dir.path / "out.bin"), bytes);
  EXPECT_TRUE(p.received["app"]["loss_map"].empty());
  EXPECT_EQ(p.received["app"]["bytes"], bytes.size());
  const auto& flow = p.received["flows"][0];
  EXPECT_EQ(flow["sent"], p.sent["flow"]["sent"]);
  EXPECT_EQ(flow["received"], flow["sent"]);
  EXPECT_GT(flow["delay_ms"]["mean"].get<double>(), 0.0);
  // Every data datagram reached the core's receiver and none was refused.
  EXPECT_EQ(flow["diagnostics"]["receiver"]["datagrams_received"].get<double>(), flow["sent"].get<double>());
  EXPECT_EQ(flow["diagnostics"]["receiver"]["datagrams_rejected"].get<double>(), 0.0);
  // The core's bytes leave with a 9-byte trailer each: the wire carries more.
  const auto data_bytes = p.sent["flow"]["sent_bytes"].get<double>();
  const auto datagrams = p.sent["flow"]["diagnostics"]["sender"]["datagrams_sent"].get<double>();
  EXPECT_GE(p.sent["session"]["trailer_bytes_sent"].get<double>(), 9 * datagrams);
  EXPECT_GE(p.sent["session"]["wire_bytes_sent"].get<double>(), data_bytes + 9 * datagrams);
}

TEST(Loopback, TfwmfcMarksEctBothWaysOverIpv6) {
  TempDir dir;
  const auto at = free_address("[::1]");
  if (!at) GTEST_SKIP() << "no IPv6 loopback on this machine";
  write_file(dir.path / "in.bin", random_bytes(300000, 2));
  const Pair p = run_pair(dir, *at, *at, file_flow("tfwmfc", dir.path / "in.bin"));
  ASSERT_EQ(p.send_rc, 0);
  ASSERT_EQ(p.recv_rc, 0);
  const auto& flow = p.received["flows"][0];
  EXPECT_GT(flow["received"].get<int64_t>(), 0);
  // TF-WMFC's data go ECT(0) (an IPV6_TCLASS cmsg); its control datagrams Not-ECT.
  EXPECT_EQ(flow["diagnostics"]["receiver"]["ect_received"].get<double>(), flow["received"].get<double>());
}

TEST(Loopback, TfwmfcMarksEctOverIpv4OnADualStackSocket) {
  TempDir dir;
  const auto at = free_address("127.0.0.1");
  ASSERT_TRUE(at);
  write_file(dir.path / "in.bin", random_bytes(300000, 3));
  const Pair p = run_pair(dir, *at, *at, file_flow("tfwmfc", dir.path / "in.bin"));
  ASSERT_EQ(p.recv_rc, 0);
  const auto& flow = p.received["flows"][0];
  EXPECT_GT(flow["received"].get<int64_t>(), 0);
  // The IP_TOS cmsg, not IPV6_TCLASS (ignored for a mapped address), carries it.
  EXPECT_EQ(flow["diagnostics"]["receiver"]["ect_received"].get<double>(), flow["received"].get<double>());
}

// Random datagrams from another port, some shaped like the session's own (a
// trailer with a guessed token), while a flow runs: all are counted and
// dropped; the flow's core endpoints never see them.
TEST(Loopback, AFloodFromAnotherPortLeavesTheFlowUnchanged) {
  TempDir dir;
  const auto at = free_address("127.0.0.1");
  ASSERT_TRUE(at);
  const auto bytes = random_bytes(1500000, 4);
  write_file(dir.path / "in.bin", bytes);
  std::atomic<int64_t> flooded{0};
  const auto flood = [&flooded](const Address& to, std::atomic<bool>& done) {
    UdpSocket s;
    if (!s.open(parse_address("127.0.0.1:0").address).empty()) return;
    std::mt19937 g(5);
    while (!done) {
      std::vector<uint8_t> junk(1 + g() % 1200);
      for (auto& x : junk) x = static_cast<uint8_t>(g());
      if (g() % 2) junk.back() = static_cast<uint8_t>(g() % 7);  // a valid trailer kind
      const Outgoing o{junk, to, static_cast<Ecn>(g() % 4)};
      s.send({&o, 1});
      flooded = s.counters().sent;
      usleep(200);
    }
  };
  const Pair p = run_pair(dir, *at, *at, file_flow("tfrc", dir.path / "in.bin"), flood);
  ASSERT_EQ(p.send_rc, 0);
  ASSERT_EQ(p.recv_rc, 0);
  EXPECT_EQ(read_file(dir.path / "out.bin"), bytes);
  const auto& flow = p.received["flows"][0];
  EXPECT_EQ(flow["received"], flow["sent"]);
  EXPECT_EQ(flow["plr"], 0.0);
  EXPECT_EQ(flow["diagnostics"]["receiver"]["datagrams_received"].get<double>(), flow["sent"].get<double>());
  EXPECT_EQ(flow["diagnostics"]["receiver"]["datagrams_rejected"].get<double>(), 0.0);
  const auto& dropped = p.received["session"]["dropped"];
  EXPECT_GT(dropped["foreign_address"].get<int64_t>(), 0);
  EXPECT_EQ(dropped["foreign_token"], 0);  // the flood never came from the sender's address
  // What the receiver heard from the flood, before the session and during it,
  // is what was flooded while it listened (loopback loses nothing).
  EXPECT_LE(dropped["foreign_address"].get<int64_t>() + p.received["session"]["strays_before"].get<int64_t>(),
            flooded.load());
}

// A quiet run at a low rate: each end wakes about once per datagram it sends
// or receives (timers and arrivals), not in a loop on a deadline gone by.
TEST(Loopback, AQuietSlowFlowDoesNotSpin) {
  TempDir dir;
  const auto at = free_address("127.0.0.1");
  ASSERT_TRUE(at);
  SendOptions flow = greedy_flow("cbr", 2);
  flow.source = SourceMode::kRate;
  flow.rate_bps = 200000;  // 25 datagrams a second
  const Pair p = run_pair(dir, *at, *at, flow);
  ASSERT_EQ(p.send_rc, 0);
  ASSERT_EQ(p.recv_rc, 0);
  const auto datagrams = p.sent["flow"]["sent"].get<int64_t>();
  EXPECT_GT(datagrams, 40);
  EXPECT_LT(p.sent["session"]["loop_wakeups"].get<int64_t>(), 3 * datagrams + 50);
  EXPECT_LT(p.received["session"]["loop_wakeups"].get<int64_t>(), 3 * datagrams + 50);
}

// A receiver parameter the protocol does not know: the receiver refuses the
// hello with the core's one-line reason and keeps waiting; the sender stops.
TEST(Loopback, AHelloTheReceiverCannotServeIsRefusedInOneLine) {
  TempDir dir;
  const auto at = free_address("127.0.0.1");
  ASSERT_TRUE(at);
  SendOptions flow = greedy_flow("tfrc", 1);
  flow.receiver_params["frobnication"] = 1;
  const Pair p = run_pair(dir, *at, *at, flow, {}, 2);
  EXPECT_EQ(p.send_rc, 1);
  EXPECT_EQ(p.recv_rc, 1);  // its --wait ran out with no session
}

}  // namespace
}  // namespace mantra::udp::test
