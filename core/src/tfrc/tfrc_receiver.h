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
// The feedback clock is the rate receivers' ReportClock (rate/report_clock.h),
// armed for R_m after each report; a new loss event reports at once (the
// X_recv window still >= one RTT).
//
// An extension (ADTFRC) composes this receiver through ReceiverExtension:
// it sees each data packet, decides whether each loss counts toward p, and
// adds options to each report; it writes nothing of TFRC's.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "common/loss_detector.h"
#include "common/loss_intervals.h"
#include "common/receive_rate_meter.h"
#include "mantra/endpoint.h"
#include "mantra/params.h"
#include "rate/report_clock.h"
#include "tfrc/tfrc_wire.h"

namespace mantra::tfrc {

struct ReceiverConfig {
  bool history_discounting = true;  // RFC 5348 §5.5 (optional); ns-2's sink default
  // `floor_report` 1: each report also carries the loss event rate over
  // every loss, counted or not (common/floor_report.h), for the sender's
  // safety floor. Off in every reproduction.
  bool floor_report = false;
};

// What an extension of TFRC's receiver decides.
class ReceiverExtension {
 public:
  enum class LossUse { kIgnore, kCount, kCountAndReportNow };
  virtual ~ReceiverExtension() = default;
  // A decoded data packet, before the losses its arrival revealed are used.
  virtual void on_data(Time now, const DataHeader& header, const LossDetector::Arrival& arrival,
                       Duration sender_rtt) = 0;
  // Whether one detected loss counts toward p (and asks for a report now).
  virtual LossUse on_loss(int64_t seq) = 0;
  // Options appended to a report.
  virtual void add_feedback_options(Time now, std::vector<WireOption>& options) = 0;
};

class TfrcReceiver : public Receiver {
 public:
  using Config = ReceiverConfig;
  explicit TfrcReceiver(ReceiverConfig config = {}, ReceiverExtension* extension = nullptr);
  static std::string parse(const Params& params, ReceiverConfig& out);
  // TFRC's receiver parameters, read with a reader an extension shares.
  static void read(ParamReader& r, ReceiverConfig& out);

  void handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) override;
  void handle_timeout(Time now) override { clock_.on_timeout(now); }
  std::optional<Datagram> poll_transmit(Time now) override;
  std::optional<Time> poll_timeout() const override { return clock_.deadline(); }
  EndpointStats stats() const override;

  // Reports at the next poll, echoing `timestamp` of a packet that arrived
  // at `arrival` and taking the sender's RTT it carried (ADTFRC's probe).
  void answer(Time timestamp, Time arrival, Duration sender_rtt);

  double loss_event_rate() const { return intervals_.loss_event_rate(); }
  const LossIntervals& intervals() const { return intervals_; }
  Duration sender_rtt() const { return sender_rtt_; }

 private:
  void add_loss(int64_t seq, Time nominal_arrival);
  // §6.3.1's first interval for `intervals` at its first loss event.
  void synthesize_first_interval(Time now, LossIntervals& intervals) const;

  ReceiverConfig config_;
  ReceiverExtension* extension_;
  LossDetector detector_;
  LossIntervals intervals_;
  LossIntervals all_losses_;  // every loss, for the floor report (floor_report only)
  ReportClock clock_;
  Duration sender_rtt_;  // R_m: the latest RTT estimate carried in data
  double mean_packet_bytes_ = 0;
  EndpointStats stats_;
  Time last_timestamp_;  // send timestamp of the latest data packet
  Time last_arrival_;    // when it arrived
  std::optional<Time> last_feedback_;
  ReceiveRateMeter arrivals_;  // for X_recv
  int64_t ecn_marks_ = 0;
};

}  // namespace mantra::tfrc
