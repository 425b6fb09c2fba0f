// TFRC receiver (RFC 5348 §5, §6).
//
// Model: the receiver measures the loss event rate p and the receive rate
// X_recv and reports them, with a timestamp echo for the sender's RTT sample,
// at least once per RTT and at once when a new loss event raises p.
//
//   data packet ──► LossDetector (3 later packets = lost, §5.1)
//                     └─► LossIntervals (events ≥ 1 RTT apart, 8 weighted
//                         intervals, discounting, §5.2-5.5) ──► p
//   feedback timer (R_m, the RTT carried in data) ──► report {t_recvdata,
//                         t_delay, X_recv over max(R_m, since last report), p}
//
// States of the feedback clock:
//
//   [no data] ──first packet──► report now, arm R_m ──► [armed]
//   [armed] ──timer, data since last report──► report, re-arm ──► [armed]
//   [armed] ──timer, no data since last report──► [idle]
//   [idle]  ──data──► report now, arm R_m ──► [armed]
//   any ──new loss event──► report now (X_recv window still ≥ one RTT)
//
// Sub-classes (ADTFRC) hook into on_data() and add feedback options.
#pragma once

#include <deque>
#include <optional>
#include <string>

#include "common/loss_detector.h"
#include "common/loss_intervals.h"
#include "common/receive_rate_meter.h"
#include "mantra/endpoint.h"
#include "mantra/params.h"
#include "tfrc/tfrc_wire.h"

namespace mantra::tfrc {

struct ReceiverConfig {
  bool history_discounting = true;  // RFC 5348 §5.5 (optional); ns-2's sink default
};

class TfrcReceiver : public Receiver {
 public:
  explicit TfrcReceiver(ReceiverConfig config = {});
  static std::string parse(const Params& params, ReceiverConfig& out);

  void handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) override;
  void handle_timeout(Time now) override;
  std::optional<Datagram> poll_transmit(Time now) override;
  std::optional<Time> poll_timeout() const override { return feedback_deadline_; }
  EndpointStats stats() const override;

  double loss_event_rate() const { return intervals_.loss_event_rate(); }
  const LossIntervals& intervals() const { return intervals_; }

 protected:
  // Feeds one detected loss; returns true if it began a new loss event.
  // ADTFRC overrides this to count only losses seen in congestion.
  virtual bool add_loss(int64_t seq, Time nominal_arrival);
  // A decoded data packet, before the losses its arrival revealed are fed
  // to add_loss(); ADTFRC identifies the network state here.
  virtual void on_data(Time /*now*/, const DataHeader& /*header*/, const LossDetector::Arrival& /*arrival*/) {}
  // Options appended to each report; plain TFRC adds none.
  virtual void add_feedback_options(Time /*now*/, std::vector<WireOption>& /*options*/) {}

  // Sends a report at the next poll, echoing `timestamp` of a packet that
  // arrived at `arrival` (ADTFRC answers a probe so).
  void report_now(Time timestamp, Time arrival);

  ReceiverConfig config_;
  LossDetector detector_;
  LossIntervals intervals_;
  Duration sender_rtt_;  // R_m: the latest RTT estimate carried in data
  double mean_packet_bytes_ = 0;
  bool feedback_now_ = false;

 private:
  void synthesize_first_interval(Time now);

  EndpointStats stats_;
  bool data_since_feedback_ = false;
  Time last_timestamp_;  // send timestamp of the latest data packet
  Time last_arrival_;    // when it arrived
  std::optional<Time> last_feedback_;
  std::optional<Time> feedback_deadline_;
  ReceiveRateMeter arrivals_;  // for X_recv
  int64_t ecn_marks_ = 0;
};

}  // namespace mantra::tfrc
