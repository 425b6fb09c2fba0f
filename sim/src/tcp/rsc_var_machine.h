// The receiver of RSC-VAR (Kojima & Ishihara, "Receiver-initiated
// Sending-rate Control based on Data Receive Rate for Ad Hoc Networks
// connected to Internet", section 4), as a state machine with no ns-3 in it:
// data arrivals, RTT samples and timer expiries in; the ACK to send, when,
// and the window to advertise out. RscVarTcpSocket carries it out on an ns-3
// receiving socket; docs/protocols/rsc-var.md gives the readings.
//
// Model. The receiver steers an unmodified sender by pacing its ACKs: each
// data segment's ACK (with the ACK number of that moment) waits in a FIFO
// whose head leaves every T_ack = T_base * exp(VAR_AT) (eq. 7), and each ACK
// advertises W_adv = (sRTT / T_ack) * MSS (eq. 5). AT = data received in the
// last sRTT / sRTT is sampled on every new data segment from one sRTT after
// the first (eq. 8); VAR_AT is its dispersion over the last K samples (eq. 3,
// read as the sample standard deviation over the mean; K = 5 while the
// fluctuation over 50 samples exceeds theta_co, else 50); the mean
// of the last n VAR_AT values (Table 1's n) drives T_base every two sRTTs
// (eq. 9); a receive timeout (no data for 4 sRTT) grows T_base by beta.
//
//                 first RTT sample / T_base = RTT/2
//   NORMAL ──────────────────────────────────────────▶ SLOW_START
//   (ACKs leave at once,                                │  every 2 sRTT:
//    as a normal receiver's)                            │   VAR < th_ss,low: T_base *= alpha
//                                                       │   VAR > th_ss,high: T_base *= beta ─┐
//                                                       │   else: unchanged (count it)        │
//         T_base unchanged for `ss_stable_updates`      │                                     │
//         updates in a row, or a receive timeout        ▼                                     │
//                              CONGESTION_AVOIDANCE ◀─────────────────────────────────────────┘
//                              every 2 sRTT: VAR < th_ca,low: T_base -= gamma;
//                                            VAR > th_ca,high: T_base += delta
//   Any state but NORMAL: a receive timeout / T_base *= beta (and CA).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

namespace mantra::sim {

enum class RscVarState { kNormal, kSlowStart, kCongestionAvoidance };

// How eq. 3's fluctuation is read (the extracted formula sums signed
// deviations, which is always zero).
enum class RscVarDispersion {
  kStdDev,   // sqrt(sum (AT_i - AVE)^2 / (K - 1)) / AVE: the (K - 1) is the sample variance's
  kMeanAbs,  // sum |AT_i - AVE| / ((K - 1) AVE): the formula with the absolute value restored
};

struct RscVarConfig {
  // Table 1.
  double theta_ss_high = 0.3;
  double theta_ss_low = 0.2;
  double theta_ca_high = 0.15;
  double theta_ca_low = 0.05;
  double theta_co = 0.3;  // above it, K = k_congestion
  int k_normal = 50;
  int k_congestion = 5;
  int n_average = 50;  // Table 1's n: the VAR_AT values averaged into eq. 9's VAR-bar (our reading)
  // Which fluctuation level picks K (section 4.2 names none): the one over
  // k_normal samples (true), or the previous VAR_AT itself (false: the
  // literal reading, under which K flips back and forth whenever the last 5
  // samples are calmer than the last 50).
  bool k_from_long_term = true;
  double alpha = 0.9;
  double beta = 1.2;
  double gamma_s = 0.001;
  double delta_s = 0.003;
  double timeout_srtts = 4;  // TimeOut = 4 sRTT
  // Section 4.2.2: T_base changes every two sRTTs.
  double update_srtts = 2;
  // Section 4.2.3's "a certain period" without a change of T_base in slow
  // start, in T_base updates (our reading: 5 updates, 10 sRTTs).
  int ss_stable_updates = 5;
  RscVarDispersion dispersion = RscVarDispersion::kStdDev;
  // Guards, not the paper's: T_base stays within [min, max].
  double min_t_base_s = 0.001;
  double max_t_base_s = 10.0;
};

// An ACK waiting in the queue: the ACK number of its data segment's arrival
// and the timestamp it echoes (RFC 7323: that segment's).
struct QueuedAck {
  uint32_t ack = 0;
  uint32_t echo = 0;
};

struct RscVarCounters {
  int64_t updates = 0;           // T_base updates (every two sRTTs)
  int64_t decreases = 0;         // of which shortened T_base
  int64_t increases = 0;         // of which lengthened it
  int64_t timeouts = 0;          // receive timeouts (each grows T_base by beta)
  int64_t acks_queued = 0;       // ACKs that waited in the ACK queue
  int64_t acks_immediate = 0;    // ACKs sent at once (NORMAL)
  double slow_start_end_s = -1;  // when slow start ended (-1: never)
};

class RscVarMachine {
 public:
  explicit RscVarMachine(const RscVarConfig& config) : config_(config) {}

  // An RTT sample (RFC 6298's smoothing gives sRTT). The first one ends NORMAL.
  void on_rtt_sample(double now_s, double rtt_s);
  // A new data segment of `bytes` arrived: AT, VAR_AT, K and (every two
  // sRTTs) T_base. Returns when the receive timeout must fire if no more
  // data arrives (nullopt in NORMAL).
  std::optional<double> on_data(double now_s, uint32_t bytes);
  // No data since the timeout was armed: T_base *= beta, and CA.
  void on_receive_timeout(double now_s);

  // A normal receiver would send an ACK with `ack` now, echoing timestamp
  // `echo` (an opaque value the queue keeps with it). Returns true if it must
  // be sent at once (NORMAL); otherwise it waits in the ACK queue and
  // `next_ack_at_s` says when the head leaves.
  bool on_ack(uint32_t ack, uint32_t echo);
  // The ACK timer fired: the head to send now (if any).
  std::optional<QueuedAck> on_ack_timer(double now_s);
  // When the ACK queue's head is due (nullopt: queue empty).
  std::optional<double> next_ack_at_s() const;

  RscVarState state() const { return state_; }
  double t_base_s() const { return t_base_s_; }
  double t_ack_s() const;                 // eq. 7
  double var_at() const { return var_; }  // the latest VAR_AT
  double var_average() const;             // VAR-bar: the mean of the last n VAR_AT
  double srtt_s() const { return srtt_s_; }
  int k() const { return k_; }
  size_t ack_queue_length() const { return acks_.size(); }
  // Eq. 5 in bytes for a segment size of `mss`, rounded up to whole
  // segments (at least one); nullopt in NORMAL (the socket's own window holds).
  std::optional<uint32_t> advertised_window_bytes(uint32_t mss) const;
  const RscVarCounters& counters() const { return counters_; }
  const RscVarConfig& config() const { return config_; }

 private:
  void update_t_base(double now_s);
  void set_t_base(double t_s);
  double dispersion(int k) const;

  RscVarConfig config_;
  RscVarState state_ = RscVarState::kNormal;
  double srtt_s_ = 0;
  double t_base_s_ = 0;
  double var_ = 0;
  int k_ = 0;
  double last_update_s_ = 0;
  double sampling_from_s_ = -1;  // AT samples from here: one sRTT after the first data segment (-1: none yet)
  int unchanged_updates_ = 0;
  std::deque<std::pair<double, uint32_t>> arrivals_;  // (time, bytes) within the last sRTT
  uint64_t bytes_in_srtt_ = 0;
  std::deque<double> at_samples_;   // AT, the newest last (at most k_normal)
  std::deque<double> var_samples_;  // VAR_AT, the newest last (at most n_average)
  std::deque<QueuedAck> acks_;      // the ACK queue
  double last_ack_sent_s_ = -1;     // -1: none paced yet
  RscVarCounters counters_;
};

const char* rsc_var_state_name(RscVarState state);

}  // namespace mantra::sim
