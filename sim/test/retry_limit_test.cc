// The ns2-80211b preset gives up on a frame after ns-2's retry limits
// (Ns2WifiManager): 7 RTS attempts when no CTS comes, 4 data attempts when
// the CTS comes but the ACK never does, 7 data attempts without RTS (frames
// below the RTS threshold count against the short limit in ns-2). Node 0
// sends one packet that node 1 receives (ARP and the first frame succeed),
// then node 1 leaves or stops decoding data, and node 0 sends one more; the
// test counts the frames node 0's PHY puts on the air for it.
#include <gtest/gtest.h>
#include <ns3/error-model.h>
#include <ns3/wifi-module.h>

#include "two_node_net.h"

namespace mantra::sim {
namespace {

// Corrupts every received frame above `MinBytes`: data frames, not RTS, CTS or ACK.
class DataFrameLoss : public ns3::ErrorModel {
 public:
  static ns3::TypeId GetTypeId() {
    static ns3::TypeId tid =
        ns3::TypeId("mantra::DataFrameLoss").SetParent<ns3::ErrorModel>().AddConstructor<DataFrameLoss>();
    return tid;
  }
  bool DoCorrupt(ns3::Ptr<ns3::Packet> p) override { return p->GetSize() > 200; }
  void DoReset() override {}
};

struct Attempts {
  int rts = 0, data = 0, retry_drops = 0;
};

enum class Receiver { kGone, kDeaf };

Attempts attempts_of_lost_frame(bool rts, Receiver receiver) {
  using namespace ns3;
  RadioSpec radio;  // the preset's defaults: 7 short, 4 long
  radio.rts = rts;
  TwoNodeNet net = two_node_net(100, radio);
  NodeContainer& nodes = net.nodes;
  NetDeviceContainer& devices = net.devices;

  Attempts counted;
  bool counting = false;
  auto sender = DynamicCast<WifiNetDevice>(devices.Get(0));
  sender->GetPhy()->TraceConnectWithoutContext("PhyTxBegin",
                                               MakeBoundCallback(
                                                   +[](Attempts* a, bool* on, Ptr<const Packet> p, double) {
                                                     WifiMacHeader h;
                                                     if (!*on || p->PeekHeader(h) == 0) return;
                                                     if (h.IsRts()) ++a->rts;
                                                     if (h.IsData()) ++a->data;
                                                   },
                                                   &counted, &counting));
  sender->GetMac()->TraceConnectWithoutContext("DroppedMpdu",
                                               MakeBoundCallback(
                                                   +[](Attempts* a, WifiMacDropReason reason, Ptr<const WifiMpdu>) {
                                                     if (reason == WIFI_MAC_DROP_REACHED_RETRY_LIMIT) ++a->retry_drops;
                                                   },
                                                   &counted));

  auto socket = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
  socket->Connect(InetSocketAddress(Ipv4Address("10.0.0.2"), 9));
  Simulator::Schedule(MilliSeconds(100), [socket] { socket->Send(Create<Packet>(500)); });
  Simulator::Schedule(Seconds(1), [&] {
    if (receiver == Receiver::kGone) {
      nodes.Get(1)->GetObject<MobilityModel>()->SetPosition(Vector(10000, 0, 0));
    } else {
      DynamicCast<WifiNetDevice>(devices.Get(1))->GetPhy()->SetPostReceptionErrorModel(CreateObject<DataFrameLoss>());
    }
    counting = true;
    socket->Send(Create<Packet>(500));
  });
  Simulator::Stop(Seconds(3));
  Simulator::Run();
  Simulator::Destroy();
  return counted;
}

TEST(Ns2RetryLimits, SevenRtsToAReceiverThatIsGone) {
  const Attempts a = attempts_of_lost_frame(true, Receiver::kGone);
  EXPECT_EQ(a.rts, 7);
  EXPECT_EQ(a.data, 0);
  EXPECT_EQ(a.retry_drops, 1);
}

TEST(Ns2RetryLimits, FourDataAttemptsWhenCtsComesButNoAck) {
  const Attempts a = attempts_of_lost_frame(true, Receiver::kDeaf);
  EXPECT_EQ(a.data, 4);
  EXPECT_EQ(a.rts, 4);  // each data attempt follows its own successful RTS/CTS
  EXPECT_EQ(a.retry_drops, 1);
}

TEST(Ns2RetryLimits, SevenDataAttemptsWithoutRts) {
  const Attempts a = attempts_of_lost_frame(false, Receiver::kGone);
  EXPECT_EQ(a.rts, 0);
  EXPECT_EQ(a.data, 7);
  EXPECT_EQ(a.retry_drops, 1);
}

}  // namespace
}  // namespace mantra::sim
