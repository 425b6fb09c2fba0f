#include "apps/endpoint_app.h"

#include <ns3/inet-socket-address.h>
#include <ns3/simulator.h>
#include <ns3/socket.h>
#include <ns3/udp-socket-factory.h>

#include "measurement/loss_oracle.h"
#include "measurement/measurement_tag.h"

namespace mantra::sim {
namespace {

mantra::Time now() { return mantra::Time::from_us(ns3::Simulator::Now().GetMicroSeconds()); }

}  // namespace

EndpointApp::EndpointApp(std::unique_ptr<mantra::Endpoint> endpoint, Role role, uint16_t port, ns3::Ipv4Address peer,
                         FlowMetrics* metrics, uint32_t flow, LossOracle* oracle)
    : endpoint_(std::move(endpoint)),
      role_(role),
      port_(port),
      peer_(peer),
      peer_known_(role == Role::kSender),
      peer_port_(port),
      metrics_(metrics),
      flow_(flow),
      oracle_(oracle) {}

void EndpointApp::carry_media(MediaLog* log, std::shared_ptr<const MediaSpec> spec, int64_t packet_bytes) {
  media_log_ = log;
  if (role_ != Role::kSender) return;
  auto& sender = dynamic_cast<mantra::Sender&>(*endpoint_);
  media_feeder_ = std::make_unique<RateMediaFeeder>(*log, sender, std::move(spec), packet_bytes, [this] { Pump(); });
}

void EndpointApp::report(FlowMetrics& metrics, nlohmann::json& extra) {
  if (role_ == Role::kSender) {
    metrics.set_diagnostics("sender", endpoint_->stats().named_values());
    if (media_feeder_) extra["media"] = media_feeder_->report();
    return;
  }
  metrics.set_diagnostics("receiver", endpoint_->stats().named_values());
  extra["loss_causes"] = oracle_->drop_causes(flow_);
  extra["path_changes"] = oracle_->path_changes(flow_);
  extra["path_change_recovery"] = recovery_.summary();
  auto* receiver = dynamic_cast<mantra::Receiver*>(endpoint_.get());
  const auto verdicts = receiver ? receiver->take_loss_verdicts() : std::vector<mantra::LossVerdict>{};
  if (!verdicts.empty() || (receiver && receiver->identifies_loss_causes())) {
    extra["detection"] = score_detection(verdicts, *oracle_, flow_);
  }
}

void EndpointApp::StartApplication() {
  socket_ = ns3::Socket::CreateSocket(GetNode(), ns3::UdpSocketFactory::GetTypeId());
  socket_->Bind(ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), port_));
  socket_->SetIpRecvTos(true);
  socket_->SetIpRecvTtl(true);  // the path's hop count, for the endpoints that use it
  socket_->SetRecvCallback(ns3::MakeCallback(&EndpointApp::OnReceive, this));
  running_ = true;
  if (media_feeder_) media_feeder_->start();
  Pump();
}

void EndpointApp::StopApplication() {
  running_ = false;
  ns3::Simulator::Cancel(timer_);
  if (media_feeder_) media_feeder_->stop();
  if (socket_) {
    socket_->SetRecvCallback(ns3::MakeNullCallback<void, ns3::Ptr<ns3::Socket>>());
    socket_->Close();
  }
}

void EndpointApp::OnReceive(ns3::Ptr<ns3::Socket> socket) {
  ns3::Address from;
  while (ns3::Ptr<ns3::Packet> p = socket->RecvFrom(from)) {
    if (!running_) continue;
    const auto addr = ns3::InetSocketAddress::ConvertFrom(from);
    if (!peer_known_) {  // the receiver answers whoever sent the data
      peer_ = addr.GetIpv4();
      peer_port_ = addr.GetPort();
      peer_known_ = true;
    }
    uint8_t ecn = 0;
    ns3::SocketIpTosTag tos;
    if (p->RemovePacketTag(tos)) ecn = tos.GetTos() & 0x3;
    uint8_t ttl = 0;  // 0: not known
    ns3::SocketIpTtlTag ttl_tag;
    if (p->RemovePacketTag(ttl_tag)) ttl = ttl_tag.GetTtl();
    MeasurementTag tag;
    if (role_ == Role::kReceiver && p->PeekPacketTag(tag)) {
      const double now_s = ns3::Simulator::Now().GetSeconds();
      if (first_arrival(tag.seq)) {
        metrics_->on_arrival(now_s, ns3::NanoSeconds(tag.sent_ns).GetSeconds());
        metrics_->on_goodput(now_s, p->GetSize());
        const bool changed = tag.seq >= 0 && oracle_->on_delivered(tag.flow, tag.seq);
        recovery_.on_arrival(now_s, p->GetSize(), changed);
        if (media_log_ && tag.app_id >= 0) media_log_->on_datagram(tag.app_id, now_s);
      } else {
        metrics_->on_duplicate(now_s);
      }
    }
    rx_buffer_.resize(p->GetSize());  // reused: no allocation per packet once grown
    p->CopyData(rx_buffer_.data(), rx_buffer_.size());
    endpoint_->handle_datagram_with_ttl(now(), rx_buffer_, static_cast<mantra::Ecn>(ecn), ttl);
  }
  Pump();
}

bool EndpointApp::first_arrival(int64_t seq) {
  if (seq < 0 || seq > kMaxTrackedSeq) return true;  // not followed: counted as it comes
  const auto i = static_cast<size_t>(seq);
  if (i >= arrived_.size()) arrived_.resize(std::max(i + 1, 2 * arrived_.size()), false);
  if (arrived_[i]) return false;
  arrived_[i] = true;
  return true;
}

void EndpointApp::OnTimer() {
  if (!running_) return;
  const mantra::Time t = now();
  if (auto deadline = endpoint_->poll_timeout(); deadline && *deadline <= t) endpoint_->handle_timeout(t);
  Pump();
}

void EndpointApp::Pump() {
  if (!running_) return;
  const mantra::Time t = now();
  while (peer_known_) {
    auto d = endpoint_->poll_transmit(t);
    if (!d) break;
    auto p = ns3::Create<ns3::Packet>(d->bytes.data(), d->bytes.size());
    const bool is_data = d->kind == mantra::DatagramKind::kData;
    if (is_data) {
      MeasurementTag tag;
      tag.sent_ns = ns3::Simulator::Now().GetNanoSeconds();
      tag.flow = flow_;
      tag.seq = d->seq;
      tag.app_id = d->app_id;
      p->AddPacketTag(tag);
      if (d->seq >= 0) oracle_->on_sent(flow_, d->seq);
      if (media_feeder_ && d->app_id >= 0) media_feeder_->on_sent();
    }
    if (d->ecn != mantra::Ecn::kNotEct) {
      ns3::SocketIpTosTag tos;
      tos.SetTos(static_cast<uint8_t>(d->ecn));
      p->AddPacketTag(tos);
    }
    if (role_ == Role::kSender && is_data) metrics_->on_sent(ns3::Simulator::Now().GetSeconds(), p->GetSize());
    socket_->SendTo(p, 0, ns3::InetSocketAddress(peer_, peer_port_));
  }
  ns3::Simulator::Cancel(timer_);
  if (auto deadline = endpoint_->poll_timeout()) {
    // Deadlines are in µs; never schedule in the past.
    const int64_t wait_us = std::max<int64_t>(0, deadline->us() - t.us());
    timer_ = ns3::Simulator::Schedule(ns3::MicroSeconds(wait_us), &EndpointApp::OnTimer, this);
  }
}

}  // namespace mantra::sim
