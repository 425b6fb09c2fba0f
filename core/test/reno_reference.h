// A TCP-like reference flow for the in-memory link: NewReno congestion
// control (slow start, congestion avoidance, fast retransmit on 3 duplicate
// ACKs with partial-ACK recovery, RTO with exponential back-off, Karn's rule),
// one ACK per data packet. It exists to check that TFRC is TCP-friendly
// without ns-3; ns-3's own TCP is used in simulations.
#pragma once

#include <map>
#include <optional>
#include <set>

#include "common/rtt_estimator.h"
#include "mantra/endpoint.h"

namespace mantra::testlink {

class RenoSender : public Sender {
 public:
  explicit RenoSender(int64_t packet_bytes = 1000, double max_window = 1e9)
      : packet_bytes_(packet_bytes), max_window_(max_window) {}
  void handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) override;
  void handle_timeout(Time now) override;
  std::optional<Datagram> poll_transmit(Time now) override;
  std::optional<Time> poll_timeout() const override { return rto_deadline_; }
  EndpointStats stats() const override {
    EndpointStats s = stats_;
    s.diagnostics = {{"cwnd", cwnd_}, {"timeouts", static_cast<double>(timeouts_)}};
    return s;
  }
  Rate allowed_rate() const override;
  int64_t data_header_bytes() const override { return 5; }  // type and sequence number
  double cwnd() const { return cwnd_; }

 private:
  Datagram make_data(uint32_t seq);
  int64_t packet_bytes_;
  double max_window_;
  double cwnd_ = 2.0, ssthresh_ = 1e9;
  uint32_t snd_una_ = 0, snd_nxt_ = 0, recover_ = 0;
  int dupacks_ = 0;
  bool in_recovery_ = false;
  bool retransmit_now_ = false;
  std::map<uint32_t, Time> sent_at_;  // first transmissions, for RTT samples
  std::set<uint32_t> retransmitted_;
  RttEstimator rtt_{0.875, 0.875};
  double rttvar_s_ = 0.0;
  Duration rto_ = Duration::seconds(1);
  int backoff_ = 1;
  int64_t timeouts_ = 0;
  std::optional<Time> rto_deadline_;
  EndpointStats stats_;
};

class RenoReceiver : public Receiver {
 public:
  void handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) override;
  void handle_timeout(Time) override {}
  std::optional<Datagram> poll_transmit(Time now) override;
  std::optional<Time> poll_timeout() const override { return std::nullopt; }
  EndpointStats stats() const override { return stats_; }

 private:
  uint32_t next_expected_ = 0;
  std::set<uint32_t> out_of_order_;
  int pending_acks_ = 0;
  EndpointStats stats_;
};

}  // namespace mantra::testlink
