// An ns-3 Application that runs one core endpoint over a UdpSocket.
//
// The app is the endpoint's driver: it feeds received datagrams and expired
// deadlines to the endpoint, sends whatever poll_transmit() returns, and
// schedules one ns-3 event at poll_timeout(). The bytes on the wire are the
// endpoint's bytes, unchanged. Measurement rides beside them in a packet tag
// (the send time of data packets), so no protocol bytes are parsed here.
// A flow with media: the sender's app feeds the video's packets to its
// sender (media/rate_media_feeder.h), and the receiver's app tells the flow's
// MediaLog which of them arrived (by the application id in the tag).
#pragma once

#include <ns3/application.h>
#include <ns3/event-id.h>
#include <ns3/ipv4-address.h>
#include <ns3/socket.h>

#include <memory>

#include "apps/flow_app.h"
#include "mantra/endpoint.h"
#include "measurement/flow_metrics.h"
#include "measurement/path_change_recovery.h"
#include "media/media_log.h"
#include "media/rate_media_feeder.h"

namespace mantra::sim {

class LossOracle;

class EndpointApp : public FlowApp {
 public:
  enum class Role { kSender, kReceiver };

  EndpointApp(std::unique_ptr<mantra::Endpoint> endpoint, Role role, uint16_t port, ns3::Ipv4Address peer,
              FlowMetrics* metrics, uint32_t flow, LossOracle* oracle);
  const mantra::Endpoint& endpoint() const { return *endpoint_; }
  mantra::Endpoint& endpoint() { return *endpoint_; }
  // Before the start: the sender carries the flow's video (its sender has an
  // offered source), the receiver records its arrivals into `log`.
  void carry_media(MediaLog* log, std::shared_ptr<const MediaSpec> spec, int64_t packet_bytes);
  // The endpoint's diagnostics; a receiver adds the flow's loss causes (the
  // loss oracle's) and, when it identifies causes, the score of its verdicts.
  void report(FlowMetrics& metrics, nlohmann::json& extra) override;

 private:
  void StartApplication() override;
  void StopApplication() override;
  void OnReceive(ns3::Ptr<ns3::Socket> socket);
  void OnTimer();
  void Pump();  // send what is due, then re-arm the timer
  // False for a data sequence number that has arrived before (a duplicate).
  bool first_arrival(int64_t seq);

  static constexpr int64_t kMaxTrackedSeq = int64_t{1} << 32;  // one bit each: at most 512 MiB

  std::unique_ptr<mantra::Endpoint> endpoint_;
  Role role_;
  uint16_t port_;
  ns3::Ipv4Address peer_;
  bool peer_known_;
  uint16_t peer_port_;
  FlowMetrics* metrics_;
  uint32_t flow_;
  LossOracle* oracle_;
  PathChangeRecovery recovery_;  // receiver: the rate's return after each path change
  ns3::Ptr<ns3::Socket> socket_;
  std::vector<uint8_t> rx_buffer_;
  std::vector<bool> arrived_;  // receiver: data sequence numbers seen, by number
  ns3::EventId timer_;
  bool running_ = false;
  MediaLog* media_log_ = nullptr;                  // a flow with media
  std::unique_ptr<RateMediaFeeder> media_feeder_;  // its sender's side
};

}  // namespace mantra::sim
