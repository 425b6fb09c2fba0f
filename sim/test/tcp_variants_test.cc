// The TCP variants on a real ns-3 connection, with losses scripted by a
// receive error model: Reno against NewReno on two losses of one window
// (docs/protocols/reno.md), and Freeze-Probing's freeze and probe against an
// unmodified ns-3 receiver (docs/protocols/freeze-probing.md).
#include <gtest/gtest.h>
#include <ns3/applications-module.h>
#include <ns3/core-module.h>
#include <ns3/internet-module.h>
#include <ns3/network-module.h>
#include <ns3/point-to-point-module.h>

#include <algorithm>
#include <functional>
#include <set>

#include "apps/tcp_flow.h"
#include "apps/tcp_window_cap.h"
#include "tcp/variant_tcp_socket.h"
#include "two_node_wire.h"

namespace mantra::sim {
namespace {

using namespace ns3;

constexpr uint32_t kSegment = 1000;

// Drops what `drop` says of the packets a device receives (PPP framed).
class ScriptedLoss : public ErrorModel {
 public:
  std::function<bool(const TcpHeader&, uint32_t payload)> drop;

 private:
  bool DoCorrupt(Ptr<Packet> p) override {
    Ptr<Packet> copy = p->Copy();
    PppHeader ppp;
    Ipv4Header ip;
    TcpHeader tcp;
    copy->RemoveHeader(ppp);
    copy->RemoveHeader(ip);
    if (ip.GetProtocol() != 6) return false;
    copy->RemoveHeader(tcp);
    return drop(tcp, copy->GetSize());
  }
  void DoReset() override {}
};

struct Connection {
  Ptr<VariantTcpSocket> sender;
  Ptr<PacketSink> sink;
  std::vector<uint32_t> recovery_dupacks;  // the duplicate ACKs counted at each entry into CA_RECOVERY
  int timeouts = 0;                        // entries into CA_LOSS
  int recoveries() const { return static_cast<int>(recovery_dupacks.size()); }  // entries into CA_RECOVERY
  double last_gap_end_s = 0;
  std::vector<double> rx_times_s;
  bool sample_delivery = false;         // ask the socket for delivery-rate samples
  std::vector<DeliverySample> samples;  // and keep them here
};

// Two nodes, 2 Mb/s and 20 ms each way, a 100-packet queue (no congestion
// loss); `to_receiver` and `to_sender` script the losses of each direction.
// The sender sends greedily from t = 1 s with an 8-segment window cap.
void run(Connection& c, const TcpVariantOptions& options, double stop_s,
         std::function<bool(const TcpHeader&, uint32_t)> to_receiver,
         std::function<bool(const TcpHeader&, uint32_t)> to_sender = nullptr) {
  auto forward = CreateObject<ScriptedLoss>();
  forward->drop = std::move(to_receiver);
  Ptr<ScriptedLoss> backward;
  if (to_sender) {
    backward = CreateObject<ScriptedLoss>();
    backward->drop = std::move(to_sender);
  }
  TwoNodeWire wire = two_node_wire("20ms", forward, backward);
  NodeContainer& nodes = wire.nodes;
  Ipv4InterfaceContainer& ifaces = wire.addresses;

  PacketSinkHelper sink_helper("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
  ApplicationContainer sink_app = sink_helper.Install(nodes.Get(1));
  c.sink = DynamicCast<PacketSink>(sink_app.Get(0));
  c.sink->TraceConnectWithoutContext("Rx", MakeCallback(+[](Connection* conn, Ptr<const Packet>, const Address&) {
                                             conn->rx_times_s.push_back(Simulator::Now().GetSeconds());
                                           }).Bind(&c));

  c.sender = VariantTcpSocket::create(nodes.Get(0));
  c.sender->SetAttribute("SegmentSize", UintegerValue(kSegment));
  c.sender->SetCongestionControlAlgorithm(CreateObject<TcpWindowCap>(CreateObject<TcpNewReno>(), 8));
  c.sender->SetRecoveryAlgorithm(CreateObject<TcpClassicRecovery>());
  c.sender->set_options(options);
  if (c.sample_delivery) c.sender->sample_delivery_rate([&c](const DeliverySample& d) { c.samples.push_back(d); });
  c.sender->TraceConnectWithoutContext(
      "CongState",
      MakeCallback(+[](Connection* conn, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now) {
        if (now == TcpSocketState::CA_RECOVERY) conn->recovery_dupacks.push_back(conn->sender->duplicate_acks());
        if (now == TcpSocketState::CA_LOSS) ++conn->timeouts;
      }).Bind(&c));
  const auto fill = +[](Ptr<Socket> s, uint32_t available) {
    while (available >= kSegment && s->Send(Create<Packet>(kSegment)) > 0) available = s->GetTxAvailable();
  };
  c.sender->SetSendCallback(MakeCallback(fill));
  Simulator::Schedule(Seconds(1), [&c, &ifaces, fill] {
    c.sender->Bind();
    c.sender->Connect(InetSocketAddress(ifaces.GetAddress(1), 9));
    fill(c.sender, c.sender->GetTxAvailable());
  });
  Simulator::Stop(Seconds(stop_s));
  Simulator::Run();
}

// The first transmission of the data segments that start at these segment
// numbers (0 = the first data byte) is lost.
std::function<bool(const TcpHeader&, uint32_t)> lose_once(std::set<uint32_t> segments) {
  auto pending = std::make_shared<std::set<uint32_t>>(std::move(segments));
  return [pending](const TcpHeader& h, uint32_t payload) {
    if (payload == 0) return false;
    const uint32_t index = (h.GetSequenceNumber().GetValue() - 1) / kSegment;
    return pending->erase(index) > 0;
  };
}

// Everything in [from, to) is lost.
std::function<bool(const TcpHeader&, uint32_t)> outage(double from_s, double to_s) {
  return [from_s, to_s](const TcpHeader&, uint32_t) {
    const double now = Simulator::Now().GetSeconds();
    return now >= from_s && now < to_s;
  };
}

// The first data to reach the sink at or after `t_s`.
double first_rx_after(const Connection& c, double t_s) {
  for (double r : c.rx_times_s) {
    if (r >= t_s) return r;
  }
  return -1;
}

class TcpVariants : public ::testing::Test {
 protected:
  void TearDown() override { Simulator::Destroy(); }
};

TEST_F(TcpVariants, DeliveryRateSamplesShowTheWindowsRateAndNoJumpAfterARecovery) {
  // 8 segments of 1000 bytes per round trip (40 ms and serialisation, about
  // 45 ms): about 1.4 Mb/s on a 2 Mb/s wire.
  // A loss (SACK on, ns-3's default) makes the cumulative ACK jump over the
  // segments SACKed during recovery; counted when SACKed, they give no burst.
  Connection c;
  c.sample_delivery = true;
  run(c, {}, 6, lose_once({40, 90}));
  ASSERT_EQ(c.recoveries(), 2);
  ASSERT_GT(c.samples.size(), 300u);
  std::vector<double> rates;
  for (const DeliverySample& d : c.samples) {
    EXPECT_LE(d.rate_bps, 2.0e6 * 1.05) << d.interval_s;  // never above the wire
    EXPECT_GE(d.interval_s, 0.04 * 0.99);                 // never below the minimum RTT
    rates.push_back(d.rate_bps);
  }
  std::sort(rates.begin(), rates.end());
  const double window_bps = 8 * kSegment * 8 / c.sender->srtt_s();     // 40 ms and the segments' serialisation
  EXPECT_NEAR(rates[rates.size() / 2], window_bps, 0.1 * window_bps);  // the median: the window's rate
}

TEST_F(TcpVariants, NewRenoRecoversTwoLossesOfOneWindowInOneEpisode) {
  Connection c;
  run(c, TcpVariantOptions{}, 30, lose_once({40, 43}));
  EXPECT_EQ(c.recoveries(), 1);
  EXPECT_EQ(c.timeouts, 0);
  EXPECT_GT(c.sink->GetTotalRx(), 100u * kSegment);
}

TEST_F(TcpVariants, RenoHalvesTwiceOrTimesOutOnTwoLossesOfOneWindow) {
  Connection c;
  TcpVariantOptions reno;
  reno.reno = true;
  run(c, reno, 30, lose_once({40, 43}));
  EXPECT_TRUE(c.recoveries() == 2 || c.timeouts >= 1) << "recoveries " << c.recoveries() << ", timeouts " << c.timeouts;
  EXPECT_GT(c.sink->GetTotalRx(), 100u * kSegment);
}

TEST_F(TcpVariants, RenoAndNewRenoAgreeOnOneLoss) {
  for (bool reno : {false, true}) {
    Connection c;
    TcpVariantOptions o;
    o.reno = reno;
    run(c, o, 30, lose_once({40}));
    EXPECT_EQ(c.recoveries(), 1);
    EXPECT_EQ(c.timeouts, 0);
    Simulator::Destroy();
  }
}

// RFC 3042: with limited transmit on, one new segment leaves on each of the
// first two duplicate ACKs (the disorder state); with it off, none does and
// the third duplicate ACK finds the window as the loss left it.
int segments_sent_in_disorder(bool limited_transmit, bool reno) {
  Connection c;
  TcpVariantOptions o;
  o.limited_transmit = limited_transmit;
  o.reno = reno;
  auto in_disorder = std::make_shared<int>(0);
  Simulator::Schedule(Seconds(1.01), [&c, in_disorder] {  // the sender exists from 1 s
    c.sender->TraceConnectWithoutContext(
        "Tx",
        MakeCallback(+[](VariantTcpSocket* s, int* n, Ptr<const Packet> p, const TcpHeader&, Ptr<const TcpSocketBase>) {
          if (p->GetSize() > 0 && s->congestion_state() == TcpSocketState::CA_DISORDER) ++*n;
        }).Bind(PeekPointer(c.sender), in_disorder.get()));
  });
  run(c, o, 30, lose_once({40}));
  EXPECT_EQ(c.recoveries(), 1);
  EXPECT_EQ(c.timeouts, 0);
  return *in_disorder;
}

TEST_F(TcpVariants, LimitedTransmitSendsANewSegmentOnEachOfTheFirstTwoDuplicateAcks) {
  for (bool reno : {false, true}) {
    EXPECT_EQ(segments_sent_in_disorder(true, reno), 2) << (reno ? "reno" : "newreno");
    Simulator::Destroy();
  }
}

TEST_F(TcpVariants, WithoutLimitedTransmitNothingNewLeavesOnTheFirstTwoDuplicateAcks) {
  for (bool reno : {false, true}) {
    EXPECT_EQ(segments_sent_in_disorder(false, reno), 0) << (reno ? "reno" : "newreno");
    Simulator::Destroy();
  }
}

// The link's one-way delay from 20 ms to 300 ms for 30 ms every 2 s from
// t = 3 s: what is sent then arrives behind what follows (a route change, a
// MAC that retries), so the receiver sees holes, the sender retransmits, and
// the late originals arrive as duplicates whose duplicate ACKs come after the
// recovery ended.
void delay_spikes(double until_s) {
  const auto set_delay = +[](double delay_s) {
    Ptr<Node> sender = NodeList::GetNode(0);
    for (uint32_t i = 0; i < sender->GetNDevices(); ++i) {
      if (auto wire = DynamicCast<PointToPointChannel>(sender->GetDevice(i)->GetChannel())) {
        wire->SetAttribute("Delay", TimeValue(Seconds(delay_s)));
      }
    }
  };
  for (double t = 3; t < until_s; t += 2) {
    Simulator::Schedule(Seconds(t), set_delay, 0.3);
    Simulator::Schedule(Seconds(t + 0.03), set_delay, 0.02);
  }
}

// Without SACK, ns-3 counts duplicate ACKs as SACKed segments and kept those
// marks after the episode; a later ACK made a marked segment the head, marked
// it lost, and the next single duplicate ACK started a fast recovery
// (docs/protocols/reno.md). NewReno and Reno (RFC 5681, 6582; ns-2's agents)
// start one at the third duplicate ACK, and never earlier.
TEST_F(TcpVariants, EveryFastRecoveryBeginsAtTheThirdDuplicateAck) {
  for (bool reno : {false, true}) {
    Connection c;
    TcpVariantOptions o;
    o.reno = reno;
    delay_spikes(60);
    run(c, o, 60, [](const TcpHeader&, uint32_t) { return false; });
    ASSERT_GE(c.recoveries(), 5) << (reno ? "reno" : "newreno");  // the spikes did reorder
    for (uint32_t dupacks : c.recovery_dupacks) EXPECT_EQ(dupacks, 3u) << (reno ? "reno" : "newreno");
    Simulator::Destroy();
  }
}

FreezeConfig freeze_probing() {
  FreezeConfig f;
  f.trigger = FreezeTrigger::kLoss;
  return f;
}

TEST_F(TcpVariants, FreezeProbingFreezesOnThreeDupAcksAndResumesOnTheRetransmission) {
  Connection c;
  TcpVariantOptions o;
  o.freeze = freeze_probing();
  run(c, o, 30, lose_once({40}));
  const FreezeCounters n = c.sender->freeze_machine()->counters(30);
  EXPECT_EQ(n.loss_freezes, 1);
  EXPECT_EQ(n.rto_freezes, 0);
  EXPECT_EQ(n.resumes_from_frozen, 1);
  EXPECT_EQ(n.probes, 0);
  EXPECT_LT(n.frozen_s, 0.5);    // the retransmission's round trip, not T_frozen
  EXPECT_EQ(c.recoveries(), 0);  // ns-3's fast recovery never ran
  EXPECT_EQ(c.timeouts, 0);
}

TEST_F(TcpVariants, FreezeProbingProbesThroughAnOutageAndAnUnmodifiedReceiverAnswers) {
  Connection c;
  TcpVariantOptions o;
  o.freeze = freeze_probing();
  run(c, o, 30, outage(5, 11), outage(5, 11));
  const FreezeCounters n = c.sender->freeze_machine()->counters(30);
  EXPECT_GE(n.loss_freezes, 1);
  EXPECT_GE(n.probes, 2);  // T_frozen 2 s, then a probe every 2 s through the 6 s outage
  EXPECT_EQ(n.resumes_from_probing, 1);
  EXPECT_EQ(c.timeouts, 0);
  // New data within one probe period plus a round trip of the link's return.
  const double first = first_rx_after(c, 11);
  ASSERT_GT(first, 0);
  EXPECT_LT(first - 11, 2.0 + 0.2);
}

TEST_F(TcpVariants, RenoWaitsForItsBackedOffTimerAfterAnOutage) {
  Connection c;
  TcpVariantOptions reno;
  reno.reno = true;
  run(c, reno, 60, outage(5, 11), outage(5, 11));
  EXPECT_GE(c.timeouts, 1);
  const double first = first_rx_after(c, 11);
  ASSERT_GT(first, 0);
  EXPECT_GT(first - 11, 0.2);  // the next backed-off retransmission, not the link's return
}

}  // namespace
}  // namespace mantra::sim
