#include "tcp_flow.h"

#include <ns3/core-module.h>
#include <ns3/inet-socket-address.h>
#include <ns3/tcp-congestion-ops.h>
#include <ns3/tcp-socket-factory.h>

namespace ns3 {

// NewReno whose window never exceeds MaxWindow segments: ns-2's window_,
// applied at the sender as ns-2 does (min(cwnd, window_)).
class TcpNs2NewReno : public TcpNewReno {
 public:
  static TypeId GetTypeId() {
    static TypeId tid =
        TypeId("ns3::TcpNs2NewReno")
            .SetParent<TcpNewReno>()
            .AddConstructor<TcpNs2NewReno>()
            .AddAttribute("MaxWindow", "Largest congestion window, in segments (ns-2 window_)", UintegerValue(20),
                          MakeUintegerAccessor(&TcpNs2NewReno::m_maxWindow), MakeUintegerChecker<uint32_t>(1));
    return tid;
  }
  TcpNs2NewReno() = default;
  TcpNs2NewReno(const TcpNs2NewReno& o) : TcpNewReno(o), m_maxWindow(o.m_maxWindow) {}
  std::string GetName() const override { return "TcpNs2NewReno"; }
  Ptr<TcpCongestionOps> Fork() override { return CopyObject<TcpNs2NewReno>(this); }
  void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override {
    TcpNewReno::IncreaseWindow(tcb, segmentsAcked);
    tcb->m_cWnd = std::min<uint32_t>(tcb->m_cWnd, m_maxWindow * tcb->m_segmentSize);
  }

 private:
  uint32_t m_maxWindow = 20;
};

}  // namespace ns3

namespace mantra::sim {

void configure_tcp_defaults(int segment_bytes, int max_window) {
  using namespace ns3;
  Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segment_bytes));
  Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNs2NewReno::GetTypeId()));
  Config::SetDefault("ns3::TcpNs2NewReno::MaxWindow", UintegerValue(max_window));
  Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TypeId::LookupByName("ns3::TcpClassicRecovery")));
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

TcpSourceApp::TcpSourceApp(ns3::Ipv4Address peer, uint16_t port, const FlowSpec& flow, FlowMetrics* metrics,
                           SegmentClock* clock)
    : peer_(peer), port_(port), flow_(flow), metrics_(metrics), clock_(clock) {}

void TcpSourceApp::StartApplication() {
  using namespace ns3;
  socket_ = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
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

TcpSinkApp::TcpSinkApp(uint16_t port, const FlowSpec& flow, FlowMetrics* metrics, SegmentClock* clock)
    : port_(port), flow_(flow), metrics_(metrics), clock_(clock) {}

void TcpSinkApp::StartApplication() {
  using namespace ns3;
  listener_ = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
  if (flow_.receive_buffer > 0) {  // accepted sockets are forks of the listener and keep its buffer
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
