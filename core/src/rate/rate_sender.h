// The one sender of every rate-based protocol (TFRC, ADTFRC, LATP, CBR):
// the plumbing once, the rate law (rate/rate_law.h) apart.
//
// Model: the sender takes packets from the application's data source
// (rate/data_source.h; greedy by default), stamps each through the law's
// wire with the next sequence number, and spaces them at the law's pacing
// rate (t_nom += size/rate, or the law's jittered gap; no burst credit after
// an idle spell). Reports
// from the receiver go to the law; an accepted one pulls the next send in
// to last send + s/X (so a rate that rose applies at once) and re-arms the
// no-feedback timer; after a no-feedback expiry that raised the rate (LATP's
// one-packet-per-RTT floor) the next send is pulled in the same way.
// Control packets the law originates go out ahead of data; rate updates,
// when the law has them, run on the law's own clock.
//
// The safety floor (`safety_floor` 1), for paths where a protocol's own
// signal is absent (LATP without node agents) or misread (ADTFRC's detector
// calling congestion losses channel errors): the rate the sender sends and
// paces at is the law's, capped by TFRC's rule (RFC 5348 §4.3) on what the
// receiver measured, the loss event rate p over every loss and the receive
// rate X_recv (RateLaw::floor_signal):
//   p > 0:  X_floor = max(min(X_eq(s, R, p), 2 X_recv), s / t_mbi)
//   p = 0:  X_floor = max(2 X_recv, s / R)
// with R the sender's smoothed RTT and t_mbi 64 s; where it holds the rate
// down, packets are paced with §4.5's oscillation reduction once there is
// loss, as TFRC's are. The law keeps its own rate and state; only what is
// sent is capped. No cap before the first
// report with the receiver's measurements and an RTT sample.
//
//   [not started] ──first poll──► [sending] ◄──report taken: re-arm timer──┐
//                                   │  │ data due & source has a packet   │
//                                   │  └──► stamp, count, pace ────────────┤
//                                   │ no-feedback timer ──► law ─────────────┤
//                                   │     (restart / after d / stop)       │
//                                   └ rate update due ──► law.on_rate_update┘
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "mantra/endpoint.h"
#include "mantra/params.h"
#include "rate/data_source.h"
#include "rate/rate_law.h"
#include "rate/send_state.h"

namespace mantra {

// The parameters every rate sender shares, one meaning each.
struct SendingConfig {
  // The size of a data datagram (the transport's payload: the protocol's
  // header and the data), bytes, from the protocol's header size to 65507.
  int64_t packet_bytes = 1000;  // the papers' 1000-byte media packets
  SourceConfig source;
  // `safety_floor` 1: the rate sent never exceeds what TFRC's rule allows on
  // the receiver's measured loss and receive rate (below). Off by default and
  // in every reproduction; on by default in mantra-udp.
  bool safety_floor = false;

  // Reads `packet_size`, `source_rate_bps`, `source_offered`,
  // `source_buffer_packets` and `safety_floor`; `header_bytes` is the
  // smallest packet the protocol can send.
  static void parse(ParamReader& r, size_t header_bytes, SendingConfig& out);
};

class RateSender : public Sender {
 public:
  RateSender(SendingConfig config, std::unique_ptr<RateLaw> law);

  void handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) override;
  void handle_timeout(Time now) override;
  std::optional<Datagram> poll_transmit(Time now) override;
  std::optional<Time> poll_timeout() const override;
  EndpointStats stats() const override;
  Rate allowed_rate() const override { return capped(law_->allowed_rate(state_)); }
  int64_t data_header_bytes() const override { return static_cast<int64_t>(law_->data_header_bytes()); }
  // The application offers a packet; false unless the source is an offered
  // one (`source_offered`). Its app_id comes back on its Datagram.
  bool offer(const AppPacket& packet) override { return source_.offer(packet); }

  const SendState& state() const { return state_; }
  const RateLaw& law() const { return *law_; }
  const DataSource& source() const { return source_; }

 private:
  void start(Time now);
  void arm_nofeedback(Time now, std::optional<Duration> interval);
  // The next send comes no later than one packet at the allowed rate after
  // the last: a rate that rose applies at once, not after the old, longer gap.
  void pull_next_send();
  std::optional<Datagram> next_data(Time now);
  // The safety floor's rate now; nullopt: off, or nothing measured yet.
  std::optional<Rate> floor_rate() const;
  Rate capped(Rate law_rate) const;
  // The pacing rate under the floor's cap: with loss, §4.5's oscillation
  // reduction, X * R_sqmean / sqrt(R_sample), no lower than s / t_mbi.
  Rate floor_pacing(Rate floor) const;

  bool safety_floor_;
  int64_t floor_capped_packets_ = 0;  // data packets sent while the floor held the law's rate down
  std::unique_ptr<RateLaw> law_;
  SendState state_;
  DataSource source_;
  EndpointStats stats_;
  Time t_nom_;  // nominal send time of the next data packet
  uint32_t next_seq_ = 0;
  int64_t nofeedback_expiries_ = 0;
};

// A rate sender whose law is known by type, built from the law's config
// (which holds the SendingConfig as `sending`): the name each protocol
// exports (tfrc::TfrcSender, ...), with typed access to its law.
template <typename Law>
class RateSenderWith : public RateSender {
 public:
  explicit RateSenderWith(typename Law::Config config = {})
      : RateSender(config.sending, std::make_unique<Law>(config)) {}
  const Law& law() const { return static_cast<const Law&>(RateSender::law()); }
};

}  // namespace mantra
