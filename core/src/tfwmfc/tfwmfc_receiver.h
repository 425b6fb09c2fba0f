// TF-WMFC receiver (paper §2.3.2): counts and reports, every T.
//
// Model: on each data packet n_pkt += 1, and n_M += 1 when it arrived marked
// CE (the codepoint the endpoint contract delivers). A sender report's t_s
// is kept with the time it arrived. Every T the receiver sends a receiver
// report {n_pkt, n_M, n_lost, t_s, t_d = now - t_s's arrival} and starts the
// counts again. n_lost (for the loss-based comparison, tfrc-loss) is RFC 3550
// A.3's: packets expected from the sequence numbers since the last report
// minus packets received, never below 0.
//
//   [idle] ──first data──► report at once (the sender's first RTT sample)
//      ▲                       │
//      │                       ▼
//      └── T passes, no data ── [armed: T] ──T passes, data since──► report
//
// Reading (the paper: "upon every epoch of T"): the first report goes out
// when the first data packet arrives, so the sender learns its RTT within one
// RTT, not after T; an interval with no data sends no report (the report
// clock idles, rate/report_clock.h) and the next data packet restarts it.
#pragma once

#include <optional>
#include <string>

#include "mantra/endpoint.h"
#include "mantra/params.h"
#include "rate/report_clock.h"
#include "tfwmfc/tfwmfc_wire.h"

namespace mantra::tfwmfc {

struct ReceiverConfig {
  Duration report_interval = Duration::seconds(1);  // T (paper Table 2: 1.0 s)
};

class TfwmfcReceiver : public Receiver {
 public:
  using Config = ReceiverConfig;
  explicit TfwmfcReceiver(ReceiverConfig config = {}) : config_(config) {}
  static std::string parse(const Params& params, ReceiverConfig& out);

  void handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) override;
  void handle_timeout(Time now) override { clock_.on_timeout(now); }
  std::optional<Datagram> poll_transmit(Time now) override;
  std::optional<Time> poll_timeout() const override { return clock_.deadline(); }
  EndpointStats stats() const override;

 private:
  void on_data(const DataHeader& h, Ecn ecn);

  ReceiverConfig config_;
  ReportClock clock_;
  EndpointStats stats_;
  // Since the last report.
  uint32_t n_pkt_ = 0;
  uint32_t n_marked_ = 0;
  // RFC 3550 A.3 loss accounting, over the whole flow.
  std::optional<int64_t> base_seq_;
  int64_t max_seq_ = -1;
  int64_t received_ = 0;
  int64_t expected_prior_ = 0;
  int64_t received_prior_ = 0;
  // The latest sender report: its timestamp and when it arrived.
  std::optional<Time> t_s_;
  Time t_s_arrival_;
  int64_t reports_ = 0;
  int64_t marked_total_ = 0;
  int64_t lost_total_ = 0;
};

}  // namespace mantra::tfwmfc
