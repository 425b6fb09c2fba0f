// mantra's own packet formats (docs/protocols/mantra.md), big-endian.
//
// Data packet: LATP's 16-byte data header (latp/latp_wire.h, PT 1) unchanged,
// so LATP's node agents, where they run, find the rate field R at byte 12 and
// lower it to the throughput their node can still admit; then the send time
// in microseconds of the sender's clock, for the one-way delay:
//
//   | LATP data header: ports, seq 24, PT 1, U, time stamp ms, RTT ms, R |  0..15
//   |                 send time (64, us, sender's clock)                  | 16..23
//
// Report (receiver to sender), 68 bytes, one per feedback interval, on what
// arrived since the previous report:
//
//   | src port 16 | dst port 16 |                                           0
//   | highest seq (24) | PT 3 (4) | L (1) | P (1) | C (1) | N (1) |         4
//   | echo: send time of the highest packet (64, us) |                      8
//   | elapsed since it arrived (32, us) | interval (32, us) |              16
//   | packets (32) | bytes (32) | CE-marked packets (32) | losses (32) |   24
//   | minimum one-way delay (signed 64, us) |                              40
//   | mean one-way delay (signed 64, us) |                                 48
//   | lowest R seen (signed 32, B/s; INT32_MAX: none) |                    56
//   | loss event rate over every loss (32, parts per 10^9) |               60
//   | TTL (8) | timed size (16, bytes) | reserved (8) |                    64
//
// TTL is the IP TTL the interval's last packet arrived with (0: the driver
// cannot read it); C says the TTL changed within the interval (or since
// the previous interval's last packet): the path's hop count changed.
// The delays are those of the interval's full-size packets (at least 90 %
// of the largest the receiver has seen in the last 2 s, the timed size): on
// a multi-hop radio a packet's floor grows with its size. N says no
// full-size packet arrived: the delays are 0 and mean nothing. Timed size 0:
// not known (a receiver before this field, or no packet yet).
//
// One-way delays are the receiver's clock minus the sender's: on one host or
// in the simulator the true delay, across hosts that plus a fixed offset,
// which the sender's law removes by working on delay above its minimum. PT 3
// is no LATP type, so neither protocol takes the other's reports.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "latp/latp_wire.h"
#include "mantra/units.h"
#include "mantra/wire.h"

namespace mantra::knee {

constexpr size_t kDataHeaderBytes = latp::kDataHeaderBytes + 8;
constexpr size_t kReportBytes = 68;
constexpr uint8_t kReportType = 3;
// A packet of at least this share of the timed size is full-size: its delay
// is the report's.
constexpr double kFullSizeShare = 0.9;
// The receiver reports once per max(the sender's RTT, its report interval),
// by default this (docs/protocols/mantra.md: each report crosses every hop
// back and disturbs the chain's pipeline; 400 ms carried 3-5 % more than
// 200 ms at 4 and 7 hops, 800 ms reacted too late).
constexpr Duration kDefaultReportInterval = Duration::millis(400);

struct DataHeader {
  latp::DataHeader latp;  // ports, sequence, U, RTT, R
  int64_t send_time_us = 0;
};

struct Report {
  uint16_t src_port = 0;
  uint16_t dst_port = 0;
  uint32_t highest_seq = 0;  // 24 bits
  bool loss_detected = false;
  bool periodic = false;
  int64_t echo_send_time_us = 0;
  uint32_t elapsed_us = 0;
  uint32_t interval_us = 0;  // the span the counts cover
  uint32_t packets = 0;
  uint32_t bytes = 0;
  uint32_t ce_packets = 0;
  uint32_t losses = 0;
  int64_t owd_min_us = 0;
  int64_t owd_mean_us = 0;
  int32_t r_min_Bps = latp::kNoRateLimit;
  uint32_t loss_event_rate_ppb = 0;
  uint8_t ttl = 0;           // of the last packet; 0: not known
  bool ttl_changed = false;  // C: the path's hop count changed in the interval
  bool no_delay = false;     // N: no full-size packet, so no delay was measured
  uint16_t timed_bytes = 0;  // the size the delays are of (the largest of the last 2 s); 0: not known
};

// Writes the header, then zeros up to `packet_bytes` (>= kDataHeaderBytes).
void encode_data(const DataHeader& h, size_t packet_bytes, std::vector<uint8_t>& out);
std::vector<uint8_t> encode_report(const Report& r);
DecodeResult<DataHeader> decode_data(std::span<const uint8_t> bytes);
DecodeResult<Report> decode_report(std::span<const uint8_t> bytes);

}  // namespace mantra::knee
