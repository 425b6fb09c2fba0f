#include "tcp_flow.h"

#include <ns3/core-module.h>
#include <ns3/inet-socket-address.h>
#include <ns3/tcp-socket-factory.h>

namespace mantra::sim {

void configure_tcp_defaults() {
  using namespace ns3;
  Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TypeId::LookupByName("ns3::TcpNewReno")));
  Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TypeId::LookupByName("ns3::TcpClassicRecovery")));
  Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
  Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
  Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(false));
  Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));
  Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(1));
  Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
  Config::SetDefault("ns3::TcpSocket::DataRetries", UintegerValue(1000));  // ns-2 never gives up
  Config::SetDefault("ns3::TcpSocket::ConnCount", UintegerValue(1000));
}

TcpSourceApp::TcpSourceApp(ns3::Ipv4Address peer, uint16_t port, const FlowSpec& flow, FlowMetrics* metrics,
                           SegmentClock* clock)
    : peer_(peer), port_(port), flow_(flow), metrics_(metrics), clock_(clock) {}

void TcpSourceApp::StartApplication() {
  using namespace ns3;
  socket_ = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
  socket_->SetAttribute("SegmentSize", UintegerValue(flow_.packet_size));
  socket_->SetAttribute("SndBufSize", UintegerValue(4 * flow_.max_window * flow_.packet_size));
  socket_->TraceConnectWithoutContext("Tx", MakeCallback(&TcpSourceApp::OnTx, this));
  socket_->Bind();
  socket_->Connect(InetSocketAddress(peer_, port_));
  socket_->SetSendCallback(MakeCallback(&TcpSourceApp::Fill, this));
}

void TcpSourceApp::StopApplication() {
  if (socket_) {
    socket_->SetSendCallback(ns3::MakeNullCallback<void, ns3::Ptr<ns3::Socket>, uint32_t>());
    socket_->Close();
  }
}

void TcpSourceApp::Fill(ns3::Ptr<ns3::Socket> socket, uint32_t available) {
  // A greedy source: keep the send buffer full.
  while (available >= static_cast<uint32_t>(flow_.packet_size)) {
    if (socket->Send(ns3::Create<ns3::Packet>(flow_.packet_size)) < 0) break;
    available = socket->GetTxAvailable();
  }
}

void TcpSourceApp::OnTx(ns3::Ptr<const ns3::Packet> p, const ns3::TcpHeader& h, ns3::Ptr<const ns3::TcpSocketBase>) {
  if (p->GetSize() == 0) return;  // SYN, pure ACK, FIN
  clock_->sent_ns[h.GetSequenceNumber().GetValue()] = ns3::Simulator::Now().GetNanoSeconds();
  metrics_->on_sent(ns3::Simulator::Now().GetSeconds(), p->GetSize());
}

TcpSinkApp::TcpSinkApp(uint16_t port, const FlowSpec& flow, FlowMetrics* metrics, SegmentClock* clock)
    : port_(port), flow_(flow), metrics_(metrics), clock_(clock) {}

void TcpSinkApp::StartApplication() {
  using namespace ns3;
  listener_ = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
  listener_->SetAttribute("SegmentSize", UintegerValue(flow_.packet_size));
  // The advertised window caps the sender at max_window segments (ns-2 window_).
  listener_->SetAttribute("RcvBufSize", UintegerValue(flow_.max_window * flow_.packet_size));
  listener_->Bind(InetSocketAddress(Ipv4Address::GetAny(), port_));
  listener_->Listen();
  listener_->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                               MakeCallback(&TcpSinkApp::OnAccept, this));
}

void TcpSinkApp::StopApplication() {
  for (auto& s : accepted_) s->Close();
  if (listener_) listener_->Close();
}

void TcpSinkApp::OnAccept(ns3::Ptr<ns3::Socket> socket, const ns3::Address&) {
  socket->SetRecvCallback(ns3::MakeCallback(&TcpSinkApp::OnReceive, this));
  socket->TraceConnectWithoutContext("Rx", ns3::MakeCallback(&TcpSinkApp::OnRx, this));
  accepted_.push_back(socket);
}

void TcpSinkApp::OnReceive(ns3::Ptr<ns3::Socket> socket) {
  while (ns3::Ptr<ns3::Packet> p = socket->Recv()) {
    if (p->GetSize() > 0) metrics_->on_goodput(ns3::Simulator::Now().GetSeconds(), p->GetSize());
  }
}

void TcpSinkApp::OnRx(ns3::Ptr<const ns3::Packet> p, const ns3::TcpHeader& h, ns3::Ptr<const ns3::TcpSocketBase>) {
  if (p->GetSize() == 0) return;
  auto it = clock_->sent_ns.find(h.GetSequenceNumber().GetValue());
  const int64_t now = ns3::Simulator::Now().GetNanoSeconds();
  metrics_->on_arrival(now / 1e9, it == clock_->sent_ns.end() ? 0.0 : (now - it->second) / 1e9);
}

}  // namespace mantra::sim
