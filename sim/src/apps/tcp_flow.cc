#include "apps/tcp_flow.h"

#include <ns3/core-module.h>
#include <ns3/inet-socket-address.h>
#include <ns3/ipv4-header.h>
#include <ns3/ipv4-l3-protocol.h>
#include <ns3/ipv4.h>
#include <ns3/tcp-congestion-ops.h>
#include <ns3/tcp-recovery-ops.h>
#include <ns3/tcp-socket-factory.h>

#include <algorithm>
#include <cmath>

#include "apps/tcp_window_cap.h"
#include "media/media_log.h"
#include "tcp/elfn_notices.h"
#include "tcp/rsc_var_tcp_socket.h"
#include "tcp/tcp_flow_tag.h"

namespace mantra::sim {

namespace {

// What varies per flow: the segment size, the timer settings, the congestion
// control with ns-2's window cap, and the recovery (classic: ns-2's; ns-3's
// default is PRR).
void configure_flow_socket(ns3::Ptr<ns3::Socket> socket, const FlowSpec& flow, const std::string& congestion_type) {
  using namespace ns3;
  auto tcp = DynamicCast<TcpSocketBase>(socket);
  tcp->SetAttribute("SegmentSize", UintegerValue(static_cast<uint32_t>(flow.packet_size)));
  tcp->SetAttribute("MinRto", TimeValue(Seconds(flow.tcp.min_rto_s)));
  tcp->SetAttribute("ClockGranularity", TimeValue(Seconds(flow.tcp.clock_granularity_s)));
  ObjectFactory congestion(congestion_type);
  tcp->SetCongestionControlAlgorithm(
      CreateObject<TcpWindowCap>(congestion.Create<TcpCongestionOps>(), static_cast<uint32_t>(flow.max_window)));
  tcp->SetRecoveryAlgorithm(CreateObject<TcpClassicRecovery>());
  if (flow.ecn) tcp->SetUseEcn(TcpSocketState::On);  // RFC 3168, classic: both ends negotiate it
  // An RSC-VAR receiver measures its RTT from the sender's timestamp echoes:
  // both ends run RFC 7323 timestamps (ns-2-like flows run without).
  const FlowKind* receiver = find_flow_kind(flow.receiver);
  if (receiver && receiver->tcp_rsc_var) tcp->SetAttribute("Timestamp", BooleanValue(true));
  // A window beyond 16 bits needs window scaling and buffers that hold it
  // (ns-2's window is not bounded by 64 KiB; ns-3's defaults are 128 KiB).
  const uint64_t window_bytes = static_cast<uint64_t>(flow.max_window) * static_cast<uint64_t>(flow.packet_size);
  if (window_bytes > 65535) {
    const auto buffer = static_cast<uint32_t>(std::max<uint64_t>(131072, 2 * window_bytes));
    tcp->SetAttribute("WindowScaling", BooleanValue(true));
    tcp->SetAttribute("SndBufSize", UintegerValue(buffer));
    tcp->SetAttribute("RcvBufSize", UintegerValue(buffer));
  }
}

TcpVariantOptions variant_options(const FlowKind& kind, const FlowSpec& flow, uint32_t index) {
  TcpVariantOptions o;
  o.flow = index;
  o.reno = kind.tcp_reno;
  o.limited_transmit = flow.tcp.limited_transmit;
  if (kind.tcp_freeze_probing) {
    FreezeConfig c;
    c.trigger = FreezeTrigger::kLoss;
    c.frozen_timer_s = flow.tcp.frozen_timer_s;
    c.probe_interval_s = flow.tcp.probe_interval_s;
    c.halve = flow.tcp.halve_on_resume == "after_probing" ? HalveOnResume::kAfterProbing : HalveOnResume::kBoth;
    o.freeze = c;
  } else if (flow.tcp.elfn) {
    FreezeConfig c;
    c.trigger = FreezeTrigger::kNotice;
    c.probe_interval_s = flow.tcp.probe_interval_s;  // ELFN has no frozen timer: it probes from the notice on
    c.halve = HalveOnResume::kNever;
    o.freeze = c;
  }
  return o;
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

TcpSourceApp::TcpSourceApp(const FlowContext& context, const FlowKind& kind)
    : peer_(context.destination),
      port_(context.port),
      flow_(context.flow),
      index_(context.index),
      metrics_(context.metrics),
      clock_(context.clock),
      elfn_(context.elfn),
      kind_(kind) {
  if (context.media) {
    media_ = std::make_unique<TcpMediaSource>(*context.media, flow_.media, flow_.packet_size, flow_.max_window,
                                              [this](uint32_t bytes) { return make_data(bytes); });
  }
}

namespace {

// The Freeze-Probing paper's model (section 4): TotalBytes = min(W_max/RTT,
// (1/RTT) sqrt(3 / (2 N_cycle))) (T_total - n T0) PacketSize, with RTT the
// mean of the sender's samples, N_cycle its NORMAL -> FROZEN entries and n
// its T_frozen and T_probe expiries, all counted in the run. N_cycle read as
// the paper names it (a count) and as the place it takes in Padhye et al.'s
// model (a probability: cycles per packet sent). The simulated TotalBytes is
// what the flow sent (the paper's "throughput": the bandwidth it takes);
// the ratio to what it delivered is given too.
nlohmann::json freeze_model(const FlowSpec& flow, const FlowMetrics& metrics, const FreezeCounters& c,
                            double rtt_mean_s) {
  const double w_max = flow.max_window, size = flow.packet_size;
  const double t_total = flow.stop_s - flow.start_s, t0 = flow.tcp.frozen_timer_s;
  const double cycles = static_cast<double>(c.loss_freezes);
  const double active = std::max(0.0, t_total - static_cast<double>(c.timer_expiries) * t0);
  const auto total_bytes = [&](double n_cycle) {
    const double window_bound = w_max / rtt_mean_s;
    const double loss_bound = n_cycle > 0 ? std::sqrt(3.0 / (2.0 * n_cycle)) / rtt_mean_s : window_bound;
    return std::min(window_bound, loss_bound) * active * size;
  };
  const double sent = static_cast<double>(metrics.sent_bytes());
  const double delivered = static_cast<double>(metrics.delivered_bytes());
  const double by_count = total_bytes(cycles);
  const double packets = static_cast<double>(metrics.sent_packets());
  const double by_probability = total_bytes(packets > 0 ? cycles / packets : 0);
  const auto ratio = [](double a, double b) { return b > 0 ? nlohmann::json(a / b) : nlohmann::json(nullptr); };
  return {{"rtt_s", rtt_mean_s},
          {"n_cycle", c.loss_freezes},
          {"n_t0", c.timer_expiries},
          {"total_bytes_count", by_count},
          {"total_bytes_probability", by_probability},
          {"ratio_count", ratio(by_count, sent)},
          {"ratio_probability", ratio(by_probability, sent)},
          {"ratio_count_delivered", ratio(by_count, delivered)},
          {"ratio_probability_delivered", ratio(by_probability, delivered)}};
}

}  // namespace

void TcpSourceApp::report(FlowMetrics& metrics, nlohmann::json& extra) {
  std::vector<std::pair<std::string, double>> d{{"gave_up", gave_up_ ? 1.0 : 0.0}};
  if (flow_.ecn) d.emplace_back("ecn_reductions", static_cast<double>(cwr_entries_));
  if (socket_) {
    d.emplace_back("rtt_samples", static_cast<double>(socket_->rtt_samples()));
    if (socket_->rtt_samples() > 0) d.emplace_back("rtt_mean_s", socket_->rtt_sum_s() / socket_->rtt_samples());
    if (const FreezeMachine* m = socket_->freeze_machine()) {
      const FreezeCounters c = m->counters(ns3::Simulator::Now().GetSeconds());
      d.insert(d.end(), {{"loss_freezes", static_cast<double>(c.loss_freezes)},
                         {"rto_freezes", static_cast<double>(c.rto_freezes)},
                         {"notice_freezes", static_cast<double>(c.notice_freezes)},
                         {"notices_ignored", static_cast<double>(c.notices_ignored)},
                         {"timer_expiries", static_cast<double>(c.timer_expiries)},
                         {"probes", static_cast<double>(c.probes)},
                         {"resumes_from_frozen", static_cast<double>(c.resumes_from_frozen)},
                         {"resumes_from_probing", static_cast<double>(c.resumes_from_probing)},
                         {"acks_ignored", static_cast<double>(c.acks_ignored)},
                         {"frozen_s", c.frozen_s}});
      if (kind_.tcp_freeze_probing && socket_->rtt_samples() > 0) {
        extra["freeze_model"] =
            freeze_model(flow_, metrics, c, socket_->rtt_sum_s() / static_cast<double>(socket_->rtt_samples()));
      }
    }
  }
  if (elfn_ && flow_.tcp.elfn) {
    const ElfnNotices::FlowCounts n = elfn_->counts(index_);
    d.insert(d.end(), {{"elfn_notices_sent", static_cast<double>(n.sent)},
                       {"elfn_notices_delivered", static_cast<double>(n.delivered)}});
  }
  metrics.set_diagnostics("sender", std::move(d));
  if (media_) extra["media"] = media_->report();
}

void TcpSourceApp::StartApplication() {
  using namespace ns3;
  socket_ = VariantTcpSocket::create(GetNode());
  configure_flow_socket(socket_, flow_, kind_.tcp_congestion_type);
  socket_->set_options(variant_options(kind_, flow_, index_));
  socket_->TraceConnectWithoutContext("Tx", MakeCallback(&TcpSourceApp::OnTx, this));
  if (flow_.ecn) {
    socket_->TraceConnectWithoutContext(
        "CongState",
        MakeBoundCallback(
            +[](TcpSourceApp* app, TcpSocketState::TcpCongState_t from, TcpSocketState::TcpCongState_t to) {
              if (to == TcpSocketState::CA_CWR && from != TcpSocketState::CA_CWR &&
                  app->metrics_->in_window(Simulator::Now().GetSeconds()))
                ++app->cwr_entries_;
            },
            this));
  }
  socket_->Bind();
  if (elfn_ && flow_.tcp.elfn) {
    elfn_->register_source(index_, GetNode()->GetId(), GetNode()->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal(),
                           socket_);
  }
  socket_->Connect(InetSocketAddress(peer_, port_));
  if (media_) {
    media_->start(socket_);  // the video's pace, not greedy
  } else {
    socket_->SetSendCallback(MakeCallback(&TcpSourceApp::Fill, this));
  }
  socket_->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(), MakeCallback(&TcpSourceApp::OnError, this));
}

void TcpSourceApp::OnError(ns3::Ptr<ns3::Socket>) { gave_up_ = true; }

void TcpSourceApp::StopApplication() {
  if (media_) media_->stop();
  if (socket_) {
    socket_->SetSendCallback(ns3::MakeNullCallback<void, ns3::Ptr<ns3::Socket>, uint32_t>());
    socket_->Close();
  }
}

void TcpSourceApp::Fill(ns3::Ptr<ns3::Socket> socket, uint32_t available) {
  // A greedy source: keep the send buffer full.
  while (available >= static_cast<uint32_t>(flow_.packet_size)) {
    if (socket->Send(make_data(static_cast<uint32_t>(flow_.packet_size))) < 0) break;
    available = socket->GetTxAvailable();
  }
}

ns3::Ptr<ns3::Packet> TcpSourceApp::make_data(uint32_t bytes) const {
  ns3::Ptr<ns3::Packet> data = ns3::Create<ns3::Packet>(bytes);
  if (flow_.tcp.elfn) {  // for the ELFN notifier on the way
    TcpFlowTag tag;
    tag.flow = index_;
    data->AddByteTag(tag);
  }
  return data;
}

void TcpSourceApp::OnTx(ns3::Ptr<const ns3::Packet> p, const ns3::TcpHeader& h, ns3::Ptr<const ns3::TcpSocketBase>) {
  if (p->GetSize() == 0) return;  // SYN, pure ACK, FIN
  clock_->sent_ns[h.GetSequenceNumber().GetValue()] = ns3::Simulator::Now().GetNanoSeconds();
  metrics_->on_sent(ns3::Simulator::Now().GetSeconds(), p->GetSize());
}

TcpSinkApp::TcpSinkApp(const FlowContext& context, const FlowKind& kind)
    : port_(context.port),
      flow_(context.flow),
      metrics_(context.metrics),
      clock_(context.clock),
      kind_(kind),
      probes_possible_(context.flow.tcp.elfn || find_flow_kind(context.flow.protocol)->tcp_freeze_probing),
      media_(context.media) {}

void TcpSinkApp::StartApplication() {
  using namespace ns3;
  if (kind_.tcp_rsc_var) {
    listener_ = RscVarTcpSocket::create(GetNode(), flow_.tcp.rsc_var);
  } else {
    listener_ = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
  }
  // Accepted sockets are forks of the listener: they keep its segment size,
  // buffer and type.
  configure_flow_socket(listener_, flow_, kind_.tcp_congestion_type);
  if (flow_.receive_buffer > 0) {
    listener_->SetAttribute("RcvBufSize",
                            UintegerValue(static_cast<uint32_t>(flow_.receive_buffer * flow_.packet_size)));
  }
  listener_->Bind(InetSocketAddress(Ipv4Address::GetAny(), port_));
  if (flow_.ecn) {  // the codepoint each data segment arrived with, at the sink's IP
    GetNode()->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext("LocalDeliver",
                                                                       MakeCallback(&TcpSinkApp::OnLocalDeliver, this));
  }
  listener_->Listen();
  listener_->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                               MakeCallback(&TcpSinkApp::OnAccept, this));
}

void TcpSinkApp::OnLocalDeliver(const ns3::Ipv4Header& ip, ns3::Ptr<const ns3::Packet> p, uint32_t) {
  if (ip.GetProtocol() != 6) return;
  ns3::TcpHeader tcp;
  if (p->PeekHeader(tcp) == 0 || tcp.GetDestinationPort() != port_) return;
  if (p->GetSize() <= tcp.GetSerializedSize()) return;  // no data
  if (!metrics_->in_window(ns3::Simulator::Now().GetSeconds())) return;
  ++data_received_;
  if (ip.GetEcn() == ns3::Ipv4Header::ECN_CE) ++ce_received_;
}

void TcpSinkApp::report(FlowMetrics& metrics, nlohmann::json& extra) {
  if (flow_.ecn) {
    metrics.set_diagnostics("receiver", {{"ce_received", static_cast<double>(ce_received_)},
                                         {"data_received", static_cast<double>(data_received_)}});
  }
  if (!kind_.tcp_rsc_var) return;
  // The connection's socket (the listener's fork); none if it never connected.
  if (accepted_.empty()) return;
  const ns3::Ptr<RscVarTcpSocket> socket = ns3::DynamicCast<RscVarTcpSocket>(accepted_.front());
  const RscVarMachine& m = socket->machine();
  const RscVarCounters& c = m.counters();
  metrics.set_diagnostics("receiver", {{"rsc_var_state", static_cast<double>(m.state())},
                                       {"slow_start_end_s", c.slow_start_end_s},
                                       {"t_base_ms", m.t_base_s() * 1e3},
                                       {"t_ack_ms", m.t_ack_s() * 1e3},
                                       {"srtt_ms", m.srtt_s() * 1e3},
                                       {"rtt_samples", static_cast<double>(socket->rtt_samples())},
                                       {"t_base_updates", static_cast<double>(c.updates)},
                                       {"t_base_decreases", static_cast<double>(c.decreases)},
                                       {"t_base_increases", static_cast<double>(c.increases)},
                                       {"receive_timeouts", static_cast<double>(c.timeouts)},
                                       {"acks_queued", static_cast<double>(c.acks_queued)},
                                       {"acks_immediate", static_cast<double>(c.acks_immediate)}});
  nlohmann::json series = {{"t", nlohmann::json::array()},
                           {"t_ack_ms", nlohmann::json::array()},
                           {"t_base_ms", nlohmann::json::array()},
                           {"var_at", nlohmann::json::array()}};
  for (const RscVarSample& s : socket->samples()) {
    series["t"].push_back(s.t_s);
    series["t_ack_ms"].push_back(s.t_ack_s * 1e3);
    series["t_base_ms"].push_back(s.t_base_s * 1e3);
    series["var_at"].push_back(s.var_at);
  }
  extra["rsc_var"] = {{"state", rsc_var_state_name(m.state())}, {"series", series}};
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
    if (p->GetSize() == 0) continue;
    metrics_->on_goodput(ns3::Simulator::Now().GetSeconds(), p->GetSize());
    in_order_bytes_ += p->GetSize();
    if (media_) media_->on_stream(in_order_bytes_, ns3::Simulator::Now().GetSeconds());
  }
}

void TcpSinkApp::OnRx(ns3::Ptr<const ns3::Packet> p, const ns3::TcpHeader& h, ns3::Ptr<const ns3::TcpSocketBase>) {
  if (p->GetSize() == 0) return;
  if (probes_possible_) {  // a freeze probe is not data
    TcpFlowTag tag;
    if (p->FindFirstMatchingByteTag(tag) && tag.probe) return;
  }
  // A segment re-cut on retransmission starts at a sequence number never
  // sent before: it arrives, but has no transmission time to measure from.
  auto it = clock_->sent_ns.find(h.GetSequenceNumber().GetValue());
  std::optional<double> sent_s;
  if (it != clock_->sent_ns.end()) sent_s = ns3::NanoSeconds(it->second).GetSeconds();
  metrics_->on_arrival(ns3::Simulator::Now().GetSeconds(), sent_s);
}

}  // namespace mantra::sim
