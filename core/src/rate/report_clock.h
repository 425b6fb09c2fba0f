// When a rate receiver reports: the feedback clock every rate-based
// receiver shares (TFRC, ADTFRC, LATP; TF-WMFC's fixed period T next).
//
// The receiver chooses the interval at each report: the sender's RTT
// (RFC 5348 §6: once per RTT), a fixed period, or zero (no clock yet: every
// data packet is answered). Urgent reasons (a new loss event, a probe, the
// sender's U bit) ask for a report at once.
//
//   [no clock] ──data──► due ──report──► [armed: interval] (zero: [no clock])
//   [armed] ──timer, data since last report──► due
//   [armed] ──timer, no data since──► [no clock] (idle: next data is due)
//   any ──report_now()──► due
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "mantra/endpoint.h"
#include "mantra/units.h"

namespace mantra {

class ReportClock {
 public:
  // A data packet arrived: due at once when no clock runs.
  void on_data() {
    data_since_report_ = true;
    if (!deadline_) due_ = true;
  }
  void report_now() { due_ = true; }
  void on_timeout(Time now) {
    if (!deadline_ || now < *deadline_) return;
    if (data_since_report_) {
      due_ = true;
    } else {
      deadline_.reset();  // idle: the next data packet restarts the clock
    }
  }
  bool due() const { return due_; }
  // A report went out; the next is due `interval` later (zero: no clock).
  void reported(Time now, Duration interval) {
    due_ = false;
    data_since_report_ = false;
    deadline_.reset();
    if (interval > Duration::zero()) deadline_ = now + interval;
  }
  std::optional<Time> deadline() const { return deadline_; }

 private:
  bool due_ = false;
  bool data_since_report_ = false;
  std::optional<Time> deadline_;
};

// An encoded report as the datagram a receiver sends, counted as sent.
inline Datagram report_datagram(std::vector<uint8_t> bytes, EndpointStats& stats) {
  Datagram d;
  d.bytes = std::move(bytes);
  d.kind = DatagramKind::kFeedback;
  stats.count_sent(d.bytes.size());
  return d;
}

}  // namespace mantra
