// A TCP flow: one of ns-3's congestion controls (the flow kind's: NewReno,
// Vegas, ...) on sockets of its own, with the flow's segment size
// (`packet_size`), its window capped at `max_window` segments (ns-2's
// window_, TcpWindowCap), classic (RFC 6582) recovery, and the flow's
// `min_rto` and `clock_granularity`; every TCP socket of the run has
// ns-2-like settings (no SACK, no timestamps, no window scaling, one ACK per
// segment, initial window 1, no abort after six retries; docs/protocols/reno.md
// has the table). The source's socket is a VariantTcpSocket: true Reno,
// Freeze-Probing and ELFN are its options (tcp/variant_tcp_socket.h). A
// greedy source, or with media the video's frames at their pace
// (media/tcp_media_source.h), and a sink whose receive buffer is
// `receive_buffer` segments when given; with media the sink hands its
// in-order byte count to the flow's MediaLog.
//
// Measurement: every data segment the source's TCP transmits (retransmissions
// included) counts as sent; every data segment reaching the sink's TCP counts
// as an arrival, with its delay from that segment's latest transmission;
// bytes handed in order to the application are the goodput.
#pragma once

#include <ns3/application.h>
#include <ns3/ipv4-address.h>
#include <ns3/socket.h>
#include <ns3/tcp-header.h>
#include <ns3/tcp-socket-base.h>

#include <memory>
#include <string>
#include <vector>

#include "apps/flow_app.h"
#include "apps/flow_kinds.h"
#include "measurement/flow_metrics.h"
#include "media/tcp_media_source.h"
#include "tcp/variant_tcp_socket.h"

namespace mantra::sim {

// ns-2-like TCP defaults for every TCP socket of the run.
void configure_tcp_defaults();

class TcpSourceApp : public FlowApp {
 public:
  TcpSourceApp(const FlowContext& context, const FlowKind& kind);
  // True when ns-3 closed the connection on an error (retries exhausted).
  bool gave_up() const { return gave_up_; }
  void report(FlowMetrics& metrics, nlohmann::json& extra) override;

 private:
  void StartApplication() override;
  void StopApplication() override;
  void Fill(ns3::Ptr<ns3::Socket> socket, uint32_t available);
  // A packet of `bytes` of the stream, tagged for the ELFN notifier when the flow has elfn.
  ns3::Ptr<ns3::Packet> make_data(uint32_t bytes) const;
  void OnTx(ns3::Ptr<const ns3::Packet> p, const ns3::TcpHeader& h, ns3::Ptr<const ns3::TcpSocketBase> s);
  void OnError(ns3::Ptr<ns3::Socket> socket);
  int64_t cwr_entries_ = 0;  // ECN flows: window reductions on an ECN echo (entries into CA_CWR)

  ns3::Ipv4Address peer_;
  uint16_t port_;
  FlowSpec flow_;
  uint32_t index_;
  FlowMetrics* metrics_;
  SegmentClock* clock_;
  ElfnNotices* elfn_;
  FlowKind kind_;
  ns3::Ptr<VariantTcpSocket> socket_;
  bool gave_up_ = false;
  std::unique_ptr<TcpMediaSource> media_;  // a flow with media: the video instead of the greedy source
};

class TcpSinkApp : public FlowApp {
 public:
  // `kind`: the receiver's (its congestion control never acts: a sink sends
  // no data; rsc-var: the listener is an RscVarTcpSocket).
  TcpSinkApp(const FlowContext& context, const FlowKind& kind);
  // ECN flows: the CE marks the sink's IP saw on the flow's data. RSC-VAR:
  // the machine's state and counters, and the ACK interval over time.
  void report(FlowMetrics& metrics, nlohmann::json& extra) override;

 private:
  void StartApplication() override;
  void StopApplication() override;
  void OnAccept(ns3::Ptr<ns3::Socket> socket, const ns3::Address& from);
  void OnReceive(ns3::Ptr<ns3::Socket> socket);
  void OnRx(ns3::Ptr<const ns3::Packet> p, const ns3::TcpHeader& h, ns3::Ptr<const ns3::TcpSocketBase> s);
  void OnLocalDeliver(const ns3::Ipv4Header& ip, ns3::Ptr<const ns3::Packet> p, uint32_t interface);

  uint16_t port_;
  FlowSpec flow_;
  FlowMetrics* metrics_;
  SegmentClock* clock_;
  FlowKind kind_;
  bool probes_possible_;       // the sender freezes (ELFN, Freeze-Probing), so probes may arrive
  int64_t ce_received_ = 0;    // ECN flows: data segments that arrived marked CE
  int64_t data_received_ = 0;  // ECN flows: data segments that reached the sink's IP
  ns3::Ptr<ns3::Socket> listener_;
  std::vector<ns3::Ptr<ns3::Socket>> accepted_;
  MediaLog* media_ = nullptr;   // a flow with media
  int64_t in_order_bytes_ = 0;  // handed to the application so far
};

}  // namespace mantra::sim
