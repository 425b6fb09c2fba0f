#include "apps/tcp_flow.h"

#include <ns3/core-module.h>
#include <ns3/inet-socket-address.h>
#include <ns3/tcp-congestion-ops.h>
#include <ns3/tcp-recovery-ops.h>
#include <ns3/tcp-socket-factory.h>

#include "apps/tcp_window_cap.h"

namespace mantra::sim {

namespace {

// What varies per flow: the segment size, the congestion control with ns-2's
// window cap, and the recovery (classic: ns-2's; ns-3's default is PRR).
void configure_flow_socket(ns3::Ptr<ns3::Socket> socket, const FlowSpec& flow, const std::string& congestion_type) {
  using namespace ns3;
  auto tcp = DynamicCast<TcpSocketBase>(socket);
  tcp->SetAttribute("SegmentSize", UintegerValue(static_cast<uint32_t>(flow.packet_size)));
  ObjectFactory congestion(congestion_type);
  tcp->SetCongestionControlAlgorithm(
      CreateObject<TcpWindowCap>(congestion.Create<TcpCongestionOps>(), static_cast<uint32_t>(flow.max_window)));
  tcp->SetRecoveryAlgorithm(CreateObject<TcpClassicRecovery>());
}

}  // namespace

void configure_tcp_defaults() {
  using namespace ns3;
  Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
  Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
  // ns-2's agents have no window scaling (its window is 16 bits of segments
  // capped by window_); ns-3.44 runs without it and with small receive
  // buffers (3.37 aborted in TcpRateLinux::SkbSent with either).
  Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(false));
  Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));
  Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(1));
  Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
  Config::SetDefault("ns3::TcpSocket::DataRetries", UintegerValue(1000));  // ns-2 never gives up
  Config::SetDefault("ns3::TcpSocket::ConnCount", UintegerValue(1000));
}

TcpSourceApp::TcpSourceApp(const FlowContext& context, std::string congestion_type)
    : peer_(context.destination),
      port_(context.port),
      flow_(context.flow),
      metrics_(context.metrics),
      clock_(context.clock),
      congestion_type_(std::move(congestion_type)) {}

void TcpSourceApp::report(FlowMetrics& metrics, nlohmann::json&) {
  metrics.set_diagnostics("sender", {{"gave_up", gave_up_ ? 1.0 : 0.0}});
}

void TcpSourceApp::StartApplication() {
  using namespace ns3;
  socket_ = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
  configure_flow_socket(socket_, flow_, congestion_type_);
  socket_->TraceConnectWithoutContext("Tx", MakeCallback(&TcpSourceApp::OnTx, this));
  socket_->Bind();
  socket_->Connect(InetSocketAddress(peer_, port_));
  socket_->SetSendCallback(MakeCallback(&TcpSourceApp::Fill, this));
  socket_->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(), MakeCallback(&TcpSourceApp::OnError, this));
}

void TcpSourceApp::OnError(ns3::Ptr<ns3::Socket>) { gave_up_ = true; }

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

TcpSinkApp::TcpSinkApp(const FlowContext& context, std::string congestion_type)
    : port_(context.port),
      flow_(context.flow),
      metrics_(context.metrics),
      clock_(context.clock),
      congestion_type_(std::move(congestion_type)) {}

void TcpSinkApp::StartApplication() {
  using namespace ns3;
  listener_ = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
  // Accepted sockets are forks of the listener: they keep its segment size
  // and buffer.
  configure_flow_socket(listener_, flow_, congestion_type_);
  if (flow_.receive_buffer > 0) {
    listener_->SetAttribute("RcvBufSize",
                            UintegerValue(static_cast<uint32_t>(flow_.receive_buffer * flow_.packet_size)));
  }
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
  // A segment re-cut on retransmission starts at a sequence number never
  // sent before: it arrives, but has no transmission time to measure from.
  auto it = clock_->sent_ns.find(h.GetSequenceNumber().GetValue());
  std::optional<double> sent_s;
  if (it != clock_->sent_ns.end()) sent_s = ns3::NanoSeconds(it->second).GetSeconds();
  metrics_->on_arrival(ns3::Simulator::Now().GetSeconds(), sent_s);
}

}  // namespace mantra::sim
