// An EmuPort without root: each "namespace" is the far end of a datagram
// socketpair instead of a TAP (FdNetDevice reads and writes whole frames
// either way), on a 2-hop static chain run in real time for a second.
#include "emu_port.h"

#include <gtest/gtest.h>
#include <ns3/arp-header.h>
#include <ns3/boolean.h>
#include <ns3/ethernet-header.h>
#include <ns3/global-value.h>
#include <ns3/icmpv4.h>
#include <ns3/ipv4-header.h>
#include <ns3/packet.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <vector>

#include "run.h"
#include "spec/spec.h"

namespace mantra::emu {
namespace {

using namespace ns3;

const Mac48Address kNamespaceMac("02:00:00:00:00:aa");

// A frame as the namespace's kernel would write it.
std::vector<uint8_t> frame_of(Ptr<Packet> payload, Mac48Address to, uint16_t type) {
  EthernetHeader eth(false);
  eth.SetSource(kNamespaceMac);
  eth.SetDestination(to);
  eth.SetLengthType(type);
  payload->AddHeader(eth);
  std::vector<uint8_t> bytes(payload->GetSize());
  payload->CopyData(bytes.data(), bytes.size());
  return bytes;
}

std::vector<std::vector<uint8_t>> read_all(int fd) {
  std::vector<std::vector<uint8_t>> frames;
  uint8_t buf[4096];
  ssize_t n = 0;
  while ((n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT)) > 0) frames.emplace_back(buf, buf + n);
  return frames;
}

struct Side {
  int ours = -1, ports = -1;  // ours: the test's end (the "namespace"); ports: the EmuPort's
};

TEST(EmuPort, AnswersArpAndCarriesAPingAcrossTheChainWithItsTtl) {
  GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RealtimeSimulatorImpl"));
  GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));
  const sim::Spec spec = sim::parse_spec(sim::read_spec_json(R"({"duration": 1, "seed": 1, "routing": "static",
    "radio": {"preset": "ns2-80211b"}, "topology": {"kind": "chain", "hops": 2, "spacing": 200},
    "flows": [{"protocol": "cbr", "src": 0, "dst": 2, "rate": 8000}]})"));
  Side a, b;
  for (Side* s : {&a, &b}) {
    int fds[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_DGRAM, 0, fds), 0);
    s->ours = fds[0];
    s->ports = fds[1];
  }
  std::vector<std::unique_ptr<EmuPort>> ports;
  std::vector<std::vector<uint8_t>> replies;
  sim::RunAdditions additions;
  additions.real_flows = {0};
  additions.install = [&](const sim::Spec&, sim::Scenario& scenario) {
    uint8_t mac[6];
    kNamespaceMac.CopyTo(mac);
    const std::array<uint8_t, 6> ns_mac{mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]};
    ports.push_back(
        std::make_unique<EmuPort>(scenario.nodes.Get(0), scenario.addresses[0], a.ports, ns_mac, NodeOwnTraffic{}));
    ports.push_back(
        std::make_unique<EmuPort>(scenario.nodes.Get(2), scenario.addresses[2], b.ports, ns_mac, NodeOwnTraffic{}));
    const Ipv4Address from = scenario.addresses[0], to = scenario.addresses[2];
    Simulator::Schedule(MilliSeconds(100), [&a, from, to] {
      ArpHeader arp;  // who has 10.0.0.3? (the namespace's next hop for everything)
      arp.SetRequest(kNamespaceMac, from, Mac48Address::GetBroadcast(), to);
      auto request = Create<Packet>();
      request->AddHeader(arp);
      const auto bytes = frame_of(request, Mac48Address::GetBroadcast(), 0x0806);
      ASSERT_EQ(::send(a.ours, bytes.data(), bytes.size(), 0), static_cast<ssize_t>(bytes.size()));
    });
    Simulator::Schedule(MilliSeconds(200), [&a, &replies, from, to] {
      replies = read_all(a.ours);  // the ARP reply: the node's MAC, where the namespace sends
      ASSERT_EQ(replies.size(), 1u);
      auto reply = Create<Packet>(replies[0].data(), replies[0].size());
      EthernetHeader eth(false);
      reply->RemoveHeader(eth);
      ArpHeader arp;
      reply->RemoveHeader(arp);
      const Mac48Address node_mac = Mac48Address::ConvertFrom(arp.GetSourceHardwareAddress());
      Icmpv4Echo echo;
      echo.SetIdentifier(7);
      echo.SetSequenceNumber(1);
      echo.SetData(Create<Packet>(56));
      auto packet = Create<Packet>();
      packet->AddHeader(echo);
      Icmpv4Header icmp;
      icmp.SetType(Icmpv4Header::ICMPV4_ECHO);
      icmp.EnableChecksum();
      packet->AddHeader(icmp);
      Ipv4Header ip;
      ip.SetSource(from);
      ip.SetDestination(to);
      ip.SetProtocol(1);
      ip.SetTtl(64);
      ip.SetTos(0x02);  // ECT(0)
      ip.SetPayloadSize(packet->GetSize());
      ip.EnableChecksum();
      packet->AddHeader(ip);
      const auto bytes = frame_of(packet, node_mac, 0x0800);
      ASSERT_EQ(::send(a.ours, bytes.data(), bytes.size(), 0), static_cast<ssize_t>(bytes.size()));
    });
  };
  const nlohmann::json result = sim::run_simulation(spec, additions);
  sim::tear_down_simulation();

  ASSERT_EQ(replies.size(), 1u);  // the ARP reply, nothing else
  EXPECT_TRUE(read_all(a.ours).empty());
  auto reply = Create<Packet>(replies[0].data(), replies[0].size());
  EthernetHeader eth(false);
  reply->RemoveHeader(eth);
  ArpHeader arp;
  reply->RemoveHeader(arp);
  EXPECT_TRUE(arp.IsReply());
  EXPECT_EQ(arp.GetSourceIpv4Address(), Ipv4Address("10.0.0.3"));
  EXPECT_EQ(Mac48Address::ConvertFrom(arp.GetDestinationHardwareAddress()), kNamespaceMac);

  const auto delivered = read_all(b.ours);
  ASSERT_EQ(delivered.size(), 1u);  // the echo request, handed to b's namespace, not answered by node 2
  auto frame = Create<Packet>(delivered[0].data(), delivered[0].size());
  frame->RemoveHeader(eth);
  EXPECT_EQ(eth.GetDestination(), kNamespaceMac);
  Ipv4Header ip;
  ip.EnableChecksum();
  frame->RemoveHeader(ip);
  EXPECT_TRUE(ip.IsChecksumOk());
  EXPECT_EQ(ip.GetTtl(), 63);  // one relay
  EXPECT_EQ(ip.GetTos(), 0x02);
  EXPECT_EQ(ip.GetSource(), Ipv4Address("10.0.0.1"));
  Icmpv4Header icmp;
  icmp.EnableChecksum();
  frame->RemoveHeader(icmp);
  EXPECT_EQ(icmp.GetType(), Icmpv4Header::ICMPV4_ECHO);

  EXPECT_EQ(ports[0]->counters().arp_replies, 1);
  EXPECT_EQ(ports[0]->counters().from_namespace, 1);
  EXPECT_EQ(ports[1]->counters().to_namespace, 1);
  EXPECT_EQ(result["flows"][0]["real"], true);
  ports.clear();
  for (Side* s : {&a, &b}) ::close(s->ours);
}

}  // namespace
}  // namespace mantra::emu
