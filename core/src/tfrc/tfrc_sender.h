// TFRC sender (RFC 5348 §4, §8.2.1).
//
// Model: the sender paces packets at the allowed rate X. Each feedback gives
// an RTT sample, the receive rate X_recv and the loss event rate p. With
// p > 0, X follows the throughput equation, capped by twice what the receiver
// saw; with p = 0 it doubles once per RTT (slow start), likewise capped. No
// feedback for max(4R, 2s/X) halves the rate.
//
//          first feedback (R known)
//   [start: 1 pkt/s] ─────────────────► [slow start: X doubles per RTT,
//        │  nofeedback: X/2              │  X <= 2*max(X_recv_set)]
//        ▼                               │ report with p > 0
//   (stays, halving)                     ▼
//                               [equation: X = max(min(X_Bps, recv_limit),
//                                                  s/t_mbi)]
//           any state ──nofeedback timer──► X halved / limits updated (§4.4)
//
// The application source is either always backlogged (the papers' media
// senders) or produces packets at `source_rate`, which makes the sender
// data-limited when X exceeds it; §8.2.1's test then decides which branch of
// §4.3 step 4 a report takes.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/rtt_estimator.h"
#include "mantra/endpoint.h"
#include "mantra/params.h"
#include "tfrc/tfrc_wire.h"

namespace mantra::tfrc {

struct SenderConfig {
  int64_t packet_bytes = 1000;             // s: the papers' 1000-byte media packets
  Duration t_mbi = Duration::seconds(64);  // max back-off interval (RFC 5348 §4.3)
  bool oscillation_reduction = true;       // §4.5, RECOMMENDED; applied once p > 0
  Rate source_rate = Rate::zero();         // 0: always backlogged
  int64_t source_buffer_packets = 100;     // source packets kept while rate-limited
};

class TfrcSender : public Sender {
 public:
  explicit TfrcSender(SenderConfig config = {});
  static std::string parse(const Params& params, SenderConfig& out);

  void handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) override;
  void handle_timeout(Time now) override;
  std::optional<Datagram> poll_transmit(Time now) override;
  std::optional<Time> poll_timeout() const override;
  EndpointStats stats() const override;
  Rate allowed_rate() const override { return Rate::bytes_per_sec(x_); }

  // Inspection for tests and diagnostics.
  double rate_bytes_per_s() const { return x_; }
  double loss_event_rate() const { return p_; }
  bool has_rtt() const { return rtt_.has_sample(); }
  Duration rtt() const { return rtt_.smoothed(); }
  std::optional<Time> nofeedback_deadline() const { return nofeedback_deadline_; }
  double receive_limit() const;  // 2*max(X_recv_set) as used by slow start

 protected:
  // A feedback report, decoded. ADTFRC reacts to its options first.
  virtual void on_feedback(Time now, const Feedback& fb);
  // The nofeedback timer fired (RFC 5348 §4.4).
  virtual void on_nofeedback(Time now);
  // Options carried in every data packet; plain TFRC sends none.
  virtual void add_data_options(Time /*now*/, std::vector<WireOption>& /*options*/) {}

  double equation_rate() const;  // X_Bps at the current s, R, p
  double initial_rate() const;   // W_init / R (RFC 3390 window, §4.2)
  double min_rate() const { return static_cast<double>(config_.packet_bytes) / config_.t_mbi.secs(); }
  void restart_nofeedback_timer(Time now);
  Duration nofeedback_interval() const;

  SenderConfig config_;
  double x_;  // allowed rate X, bytes/s
  double p_ = 0.0;
  RttEstimator rtt_;
  std::optional<Time> nofeedback_deadline_;
  EndpointStats stats_;

 private:
  struct RecvSample {
    Time at;
    double bytes_per_s;
  };
  void update_x_recv_set(Time now, double x_recv);
  void maximize_x_recv_set(Time now, double x_recv);
  double max_x_recv_set() const;
  void recompute_rate(Time now, double recv_limit);
  bool interval_was_data_limited(Time t_recvdata) const;
  double source_packet_interval_s() const;
  bool has_backlog(Time now) const;          // a source packet waits to be sent
  void drop_stale_source_packets(Time now);  // beyond the source buffer
  Time next_source_packet_time() const;

  bool started_ = false;
  Time start_;
  Time t_nom_;  // nominal send time of the next packet
  Time tld_;    // last doubling in slow start
  bool tld_set_ = false;
  uint32_t next_seq_ = 0;
  std::vector<RecvSample> x_recv_set_;  // entry with infinite rate at start
  Time timer_set_at_;
  Time last_send_;
  int64_t source_consumed_ = 0;  // source packets sent or dropped
  int64_t source_dropped_ = 0;
  std::deque<std::pair<Time, bool>> sends_;  // (send time, not data-limited)
  int64_t nofeedback_expiries_ = 0;
};

}  // namespace mantra::tfrc
