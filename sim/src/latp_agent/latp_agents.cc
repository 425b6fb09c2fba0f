#include "latp_agent/latp_agents.h"

#include <ns3/ipv4-queue-disc-item.h>
#include <ns3/node.h>
#include <ns3/simulator.h>
#include <ns3/traffic-control-layer.h>
#include <ns3/udp-header.h>
#include <ns3/wifi-mac-queue.h>
#include <ns3/wifi-mac.h>
#include <ns3/wifi-mpdu.h>
#include <ns3/wifi-net-device.h>
#include <ns3/wifi-phy-state-helper.h>
#include <ns3/wifi-phy.h>

#include "latp/latp_wire.h"
#include "mantra/registry.h"

namespace mantra::sim {

using namespace ns3;

namespace {

constexpr uint8_t kUdp = 17;
constexpr size_t kUdpHeaderBytes = 8;
constexpr size_t kLatpHeaderBytes = mantra::latp::kDataHeaderBytes;

// The LATP header as raw bytes, so R can be rewritten in a packet in place
// (RemoveHeader / AddHeader keep the packet's tags).
class LatpHeaderBytes : public Header {
 public:
  static TypeId GetTypeId() {
    static TypeId tid = TypeId("mantra::LatpHeaderBytes").SetParent<Header>().AddConstructor<LatpHeaderBytes>();
    return tid;
  }
  TypeId GetInstanceTypeId() const override { return GetTypeId(); }
  uint32_t GetSerializedSize() const override { return kLatpHeaderBytes; }
  void Serialize(Buffer::Iterator it) const override { it.Write(bytes, kLatpHeaderBytes); }
  uint32_t Deserialize(Buffer::Iterator it) override {
    it.Read(bytes, kLatpHeaderBytes);
    return kLatpHeaderBytes;
  }
  void Print(std::ostream& os) const override { os << "latp header"; }
  uint8_t bytes[kLatpHeaderBytes] = {};
};

mantra::Time at(ns3::Time t) { return mantra::Time::from_us(t.GetMicroSeconds()); }
mantra::Duration lasting(ns3::Time t) { return mantra::Duration::micros(t.GetMicroSeconds()); }

}  // namespace

NS_OBJECT_ENSURE_REGISTERED(LatpQueueDisc);

TypeId LatpQueueDisc::GetTypeId() {
  static TypeId tid =
      TypeId("mantra::LatpQueueDisc").SetParent<PriQueueDisc>().SetGroupName("Mantra").AddConstructor<LatpQueueDisc>();
  return tid;
}

void LatpQueueDisc::SetAgent(mantra::latp::NodeAgent* agent, std::set<uint16_t> latp_ports) {
  agent_ = agent;
  latp_ports_ = std::move(latp_ports);
}

Ptr<QueueDiscItem> LatpQueueDisc::DoDequeue() {
  Ptr<QueueDiscItem> item = PriQueueDisc::DoDequeue();
  if (item && agent_) stamp(*item);
  return item;
}

void LatpQueueDisc::stamp(QueueDiscItem& item) {
  auto* ip = dynamic_cast<Ipv4QueueDiscItem*>(&item);
  if (!ip || ip->GetHeader().GetProtocol() != kUdp) return;
  Ptr<Packet> p = item.GetPacket();
  if (p->GetSize() < kUdpHeaderBytes + kLatpHeaderBytes) return;
  uint8_t head[kUdpHeaderBytes + kLatpHeaderBytes];
  p->CopyData(head, sizeof head);
  const uint16_t dst_port = static_cast<uint16_t>(head[2] << 8 | head[3]);
  if (!latp_ports_.count(dst_port)) return;
  if (!agent_->on_egress(std::span<uint8_t>(head + kUdpHeaderBytes, kLatpHeaderBytes))) return;
  UdpHeader udp;
  LatpHeaderBytes latp;
  p->RemoveHeader(udp);
  p->RemoveHeader(latp);
  std::copy(head + kUdpHeaderBytes, head + sizeof head, latp.bytes);
  p->AddHeader(latp);
  // With checksums on (real time, mantra-emu: the receiving kernel checks
  // them), the rewritten R needs a new UDP checksum; otherwise the header
  // goes back as it came (its checksum field 0).
  if (Node::ChecksumEnabled()) {
    UdpHeader fresh;
    fresh.SetSourcePort(udp.GetSourcePort());
    fresh.SetDestinationPort(udp.GetDestinationPort());
    fresh.EnableChecksums();
    fresh.InitializeChecksum(ip->GetHeader().GetSource(), ip->GetHeader().GetDestination(), kUdp);
    udp = fresh;
  }
  p->AddHeader(udp);
}

LatpAgents::LatpAgents(const Spec& spec, Scenario& s) {
  std::set<uint16_t> ports;
  for (size_t i = 0; i < spec.flows.size(); ++i) {
    if (mantra::is_latp_stamped(spec.flows[i].protocol)) ports.insert(flow_port(i));
  }
  const uint32_t n = s.nodes.GetN();
  ready_.assign(n, {});
  unmatched_acks_.assign(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    mantra::latp::NodeAgentConfig config;  // the spec parser checked these parameters
    if (const std::string error = mantra::latp::NodeAgent::parse(spec.latp_agent_params, config); !error.empty()) {
      throw std::runtime_error("latp_agent: " + error);
    }
    agents_.push_back(std::make_unique<mantra::latp::NodeAgent>(config));
    mantra::latp::NodeAgent* agent = agents_.back().get();
    Ptr<Node> node = s.nodes.Get(i);
    auto dev = DynamicCast<WifiNetDevice>(node->GetDevice(0));
    if (!dev) throw std::runtime_error("latp agents need a wireless topology");

    Ptr<QueueDisc> root = node->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(dev);
    auto qd = DynamicCast<LatpQueueDisc>(root);
    if (!qd) throw std::runtime_error("latp agents: node " + std::to_string(i) + " has no LatpQueueDisc");
    qd->SetAgent(agent, ports);

    const bool phy_ok = dev->GetPhy()->GetState()->TraceConnectWithoutContext(
        "State", MakeBoundCallback(
                     +[](mantra::latp::NodeAgent* a, ns3::Time start, ns3::Time duration, WifiPhyState state) {
                       if (state == WifiPhyState::TX) a->on_transmit(at(start), lasting(duration));
                       if (state == WifiPhyState::RX || state == WifiPhyState::CCA_BUSY) {
                         a->on_channel_busy(at(start), lasting(duration));
                       }
                     },
                     agent));
    Ptr<WifiMac> mac = dev->GetMac();
    const bool queue_ok =
        mac->GetTxopQueue(AC_BE_NQOS)
            ->TraceConnectWithoutContext(
                "Enqueue", MakeBoundCallback(
                               +[](ReadyFrame* ready, Ptr<const WifiMpdu> mpdu) {
                                 *ready = {mpdu->GetPacket()->GetUid(), Simulator::Now().GetMicroSeconds()};
                               },
                               &ready_[i]));
    const bool ack_ok = mac->TraceConnectWithoutContext(
        "AckedMpdu",
        MakeBoundCallback(
            +[](mantra::latp::NodeAgent* a, ReadyFrame* ready, int64_t* unmatched, Ptr<const WifiMpdu> mpdu) {
              if (mpdu->GetPacket()->GetUid() != ready->packet_uid || ready->ready_us < 0) {
                ++*unmatched;
                return;
              }
              a->on_mac_acked(mantra::Time::from_us(ready->ready_us), at(Simulator::Now()),
                              mantra::Bytes(mpdu->GetPacketSize()));
            },
            agent, &ready_[i], &unmatched_acks_[i]));
    if (!phy_ok || !queue_ok || !ack_ok) throw std::runtime_error("latp agents: an ns-3 trace source is missing");
  }
}

nlohmann::json LatpAgents::summary() const {
  nlohmann::json nodes = nlohmann::json::array();
  for (size_t i = 0; i < agents_.size(); ++i) {
    nlohmann::json a = {{"node", i}, {"unmatched_acks", unmatched_acks_[i]}};
    for (const auto& [k, v] : agents_[i]->diagnostics()) a[k] = v;
    nodes.push_back(a);
  }
  return nodes;
}

}  // namespace mantra::sim
