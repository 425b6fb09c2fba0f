// Constant bit rate source and sink: the papers' UDP cross traffic.
//
// The sender is the rate sender with a fixed-rate law: one packet of
// `packet_size` bytes every packet_size/rate, no feedback, no no-feedback
// timer, no reaction to loss, each packet with the ECN codepoint asked for
// (none by default). With `interval_jitter` j each gap is drawn uniformly
// in [1 - j, 1 + j) x packet_size/rate (ns-2's CBR with `random_ 1`, as
// cbrgen.tcl made the MANET papers' traffic, is j = 0.5), from a generator
// seeded with `jitter_seed`: the mean rate is kept, the lockstep of sources
// that started together is not. With an offered source (`source_offered`, a media
// trace) it sends the application's packets, each paced by its own size at
// the rate. The sink only counts, ECN marks included.
//
// Data packet, 16 bytes + zero filler up to the packet size:
//   +---------------+---------------+-------------------------------+
//   |  type = 0x01  |   reserved    |          reserved             |
//   +---------------+---------------+-------------------------------+
//   |                        sequence number                        |
//   +---------------------------------------------------------------+
//   |             send timestamp, microseconds (64 bits)            |
//   +---------------------------------------------------------------+
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/split_mix.h"
#include "mantra/endpoint.h"
#include "mantra/params.h"
#include "mantra/wire.h"
#include "rate/rate_law.h"
#include "rate/rate_sender.h"

namespace mantra::cbr {

constexpr size_t kHeaderBytes = 16;

struct CbrHeader {
  uint32_t seq = 0;
  Time timestamp;
};
DecodeResult<CbrHeader> decode(std::span<const uint8_t> bytes);

struct CbrConfig {
  SendingConfig sending;
  Rate rate = Rate::zero();    // required: no sensible default rate
  Ecn ecn = Ecn::kNotEct;      // the codepoint every packet asks for (`ecn`: 0 Not-ECT, 1 ECT(1), 2 ECT(0))
  double interval_jitter = 0;  // each gap uniform in [1 - j, 1 + j) x nominal; 0 <= j < 1
  uint64_t jitter_seed = 0;    // the gaps' generator (an integer below 2^53, as params are doubles)
};

class CbrLaw : public RateLaw {
 public:
  using Config = CbrConfig;
  explicit CbrLaw(const CbrConfig& config) : config_(config), jitter_(config.jitter_seed) {}
  static std::string parse(const Params& params, CbrConfig& out);

  size_t data_header_bytes() const override { return kHeaderBytes; }
  void write_data(const DataStamp& stamp, const SendState& state, std::vector<uint8_t>& out) override;
  Ecn data_ecn() const override { return config_.ecn; }
  ReportOutcome on_datagram(Time, std::span<const uint8_t>, SendState&) override { return ReportOutcome::kRejected; }
  Rate allowed_rate(const SendState&) const override { return config_.rate; }
  Duration next_gap(Duration nominal) override;
  std::optional<Duration> nofeedback_interval(const SendState&) const override { return std::nullopt; }
  std::vector<std::pair<std::string, double>> diagnostics(const SendState&) const override { return {}; }

 private:
  CbrConfig config_;
  SplitMix64 jitter_;
};

using CbrSender = RateSenderWith<CbrLaw>;

class CbrReceiver : public Receiver {
 public:
  struct Config {};  // the sink takes only floor_report, which it has nothing to answer with
  explicit CbrReceiver(Config = {}) {}
  static std::string parse(const Params& params, Config&);

  void handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) override;
  void handle_timeout(Time) override {}
  std::optional<Datagram> poll_transmit(Time) override { return std::nullopt; }
  std::optional<Time> poll_timeout() const override { return std::nullopt; }
  EndpointStats stats() const override { return stats_; }

 private:
  EndpointStats stats_;
};

}  // namespace mantra::cbr
