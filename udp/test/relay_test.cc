// Flows through mantra-relay (threads of the test process, loopback): loss
// leaves holes the receiver maps; RED's marks reach TF-WMFC's sender.
#include <gtest/gtest.h>

#include "app_frame.h"
#include "flow_harness.h"

namespace mantra::udp::test {
namespace {

// Random loss on the path: the file arrives with a map of exactly what never
// came; every byte outside the map is the sender's, the holes are zeros.
TEST(Relay, LossLeavesAMappedHoleForEveryLostDatagram) {
  TempDir dir;
  const auto bytes = random_bytes(400000, 11);
  write_file(dir.path / "in.bin", bytes);
  RelayOptions o;
  o.forward.loss = 0.05;
  o.seed = 3;
  const RelayedPair p = run_relayed_pair(dir, o, file_flow("tfrc", dir.path / "in.bin"));
  ASSERT_EQ(p.pair.send_rc, 0);
  ASSERT_EQ(p.pair.recv_rc, 0);
  ASSERT_EQ(p.relay_rc, 0);
  const int64_t lost = p.relay["forward"]["dropped"].value("loss", 0);
  ASSERT_GT(lost, 0);
  const auto& map = p.pair.received["app"]["loss_map"];
  ASSERT_FALSE(map.empty());
  const auto out = read_file(dir.path / "out.bin");
  EXPECT_EQ(misplaced_bytes(map, bytes, out), 0u);
  uint64_t hole_bytes = 0;
  for (const auto& h : map) hole_bytes += h[1].get<uint64_t>();
  // Each data datagram carries one chunk of the same size but the last: the
  // holes add up to the lost datagrams' chunks (the hello, accept and bye
  // are never dropped here: loss draws hit the sender's data and session
  // datagrams alike, so count what the receiver missed).
  const auto& flow = p.pair.received["flows"][0];
  const int64_t missing = flow["sent"].get<int64_t>() - flow["received"].get<int64_t>();
  EXPECT_GT(missing, 0);
  const uint64_t chunk = 1000 - 20 - kFrameBytes;  // TFRC's 20-byte header, the application frame
  EXPECT_LE(hole_bytes, static_cast<uint64_t>(missing) * chunk);
  EXPECT_GT(hole_bytes, static_cast<uint64_t>(missing - 1) * chunk);
  EXPECT_NEAR(flow["plr"].get<double>(), 0.05, 0.035);
}

// RED with ECN at a 2 Mb/s bottleneck: the relay marks CE, the receiver sees
// every mark, and TF-WMFC's sender counts them as its congestion signals.
TEST(Relay, RedMarksCeAndTfwmfcCountsTheMarks) {
  TempDir dir;
  RelayOptions o;
  o.forward.rate_bps = 2e6;
  o.forward.delay = Duration::millis(10);
  RedConfig red;  // Table 1 at C = 2: limit 50, min_th 5C/16, max_th 50C/16
  red.limit = 50;
  red.min_th = 0.625;
  red.max_th = 6.25;
  red.max_p = 1.0;
  red.ecn = true;
  red.hard_drop = false;
  red.link_bps = 2e6;
  red.mean_packet_bytes = 1000;
  o.forward.red = red;
  o.reverse = o.forward;
  // Greedy for 3 s: TF-WMFC reports every second, and its first ramp would
  // send a file of any size that fits in a test before the first report.
  const RelayedPair p = run_relayed_pair(dir, o, greedy_flow("tfwmfc", 3));
  ASSERT_EQ(p.pair.send_rc, 0);
  ASSERT_EQ(p.pair.recv_rc, 0);
  ASSERT_EQ(p.relay_rc, 0);
  const int64_t marked = p.relay["forward"]["marked"];
  EXPECT_GT(marked, 0);
  const auto& flow = p.pair.received["flows"][0];
  EXPECT_EQ(flow["diagnostics"]["receiver"]["ce_received"].get<double>(), static_cast<double>(marked));
  const double signals = p.pair.sent["flow"]["diagnostics"]["sender"]["signals"].get<double>();
  EXPECT_GT(signals, 0.0);
  EXPECT_LE(signals, static_cast<double>(marked));
}

}  // namespace
}  // namespace mantra::udp::test
