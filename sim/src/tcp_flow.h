// A TCP flow: ns-3's NewReno with ns-2-like settings (no SACK, no
// timestamps, no window scaling, one ACK per segment, initial window 1,
// 200 ms minimum RTO, no abort after six retries, the window capped at
// `max_window` segments as ns-2's window_), a greedy source and a sink whose
// receive buffer is `receive_buffer` segments when given.
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

#include <map>

#include "flow_metrics.h"

namespace mantra::sim {

// ns-2-like TCP defaults for every TCP socket of the run. All TCP flows of a
// run share one segment size and one max_window (ns-3 sets both per run).
void configure_tcp_defaults(int segment_bytes, int max_window);

// Latest transmission time of each sequence number, shared by source and sink.
struct SegmentClock {
  std::map<uint32_t, int64_t> sent_ns;
};

class TcpSourceApp : public ns3::Application {
 public:
  TcpSourceApp(ns3::Ipv4Address peer, uint16_t port, const FlowSpec& flow, FlowMetrics* metrics, SegmentClock* clock);
  // True when ns-3 closed the connection on an error (retries exhausted).
  bool gave_up() const { return gave_up_; }

 private:
  void StartApplication() override;
  void StopApplication() override;
  void Fill(ns3::Ptr<ns3::Socket> socket, uint32_t available);
  void OnTx(ns3::Ptr<const ns3::Packet> p, const ns3::TcpHeader& h, ns3::Ptr<const ns3::TcpSocketBase> s);
  void OnError(ns3::Ptr<ns3::Socket> socket);

  ns3::Ipv4Address peer_;
  uint16_t port_;
  FlowSpec flow_;
  FlowMetrics* metrics_;
  SegmentClock* clock_;
  ns3::Ptr<ns3::Socket> socket_;
  bool gave_up_ = false;
};

class TcpSinkApp : public ns3::Application {
 public:
  TcpSinkApp(uint16_t port, const FlowSpec& flow, FlowMetrics* metrics, SegmentClock* clock);

 private:
  void StartApplication() override;
  void StopApplication() override;
  void OnAccept(ns3::Ptr<ns3::Socket> socket, const ns3::Address& from);
  void OnReceive(ns3::Ptr<ns3::Socket> socket);
  void OnRx(ns3::Ptr<const ns3::Packet> p, const ns3::TcpHeader& h, ns3::Ptr<const ns3::TcpSocketBase> s);

  uint16_t port_;
  FlowSpec flow_;
  FlowMetrics* metrics_;
  SegmentClock* clock_;
  ns3::Ptr<ns3::Socket> listener_;
  std::vector<ns3::Ptr<ns3::Socket>> accepted_;
};

}  // namespace mantra::sim
