// The LATP node agent (paper §4.1): what every node runs below IP.
//
// Model: a node measures how busy the channel around it is (B) and how fast
// its own MAC gets frames through (T), and bounds every LATP data packet it
// sends or forwards by the throughput it can still admit:
//
//   PHY state periods ──► busyness meter ──► B_sample at each transmission
//                                            attempt ──► WindowedEwma ──► B
//   MAC ACK of a frame ready at t_d, acked at t_a ──► T_sample = X/(t_a - t_d)
//                                            ──► WindowedEwma ──► T
//   egress of an LATP data packet ──► P = (B_TH - B) T / B  (B > 0), else B_TH T
//                                 ──► R = min(R, P)
//
// B_sample is the busy fraction (own transmission, reception, carrier sensed)
// of the time between two consecutive transmission attempts. The paper samples
// the channel every 20 us; summing the PHY's busy periods is the same count
// without sampling error. A transmission attempt is a transmission the node
// starts after the medium has been idle for at least DIFS (RTS, broadcast, or
// data without RTS); frames sent a SIFS after a reception (CTS, ACK, data after
// CTS) belong to the exchange already counted.
//
// States: [no estimate] ──first attempt──► [B: NaN until second attempt]
//         [no T sample] ──first ACK──► [T known]; P needs both, else no stamp.
//
// The agent is sans-IO: the driver (ns-3 traces, later a relay's radio) feeds
// it periods, ACKs and packets with times it reads itself.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "latp/windowed_ewma.h"
#include "mantra/params.h"
#include "mantra/units.h"

namespace mantra::latp {

struct NodeAgentConfig {
  double busyness_threshold = 0.95;      // B_TH
  Duration difs = Duration::micros(50);  // 802.11b DSSS: SIFS 10 + 2 slots of 20
};

class NodeAgent {
 public:
  explicit NodeAgent(NodeAgentConfig config = {}) : config_(config) {}
  static std::string parse(const Params& params, NodeAgentConfig& out);

  // The PHY was busy receiving or sensing a carrier over [start, start + d).
  void on_channel_busy(Time start, Duration d);
  // The PHY transmitted over [start, start + d).
  void on_transmit(Time start, Duration d);
  // The MAC got an ACK at `acked` for a frame of `size` ready at `ready`.
  void on_mac_acked(Time ready, Time acked, Bytes size);
  // An LATP data packet leaves this node: R = min(R, P). True if rewritten.
  bool on_egress(std::span<uint8_t> packet);

  // P in bytes/s; nullopt until B and T both have an estimate.
  std::optional<double> permissible_Bps() const;
  const WindowedEwma& busyness() const { return busyness_; }
  const WindowedEwma& throughput_Bps() const { return throughput_; }
  std::vector<std::pair<std::string, double>> diagnostics() const;

 private:
  void add_busy(Time start, Duration d);

  NodeAgentConfig config_;
  WindowedEwma busyness_;
  WindowedEwma throughput_;
  std::optional<Time> last_attempt_;
  Duration busy_since_attempt_;
  int64_t attempts_ = 0, acks_ = 0, egress_ = 0, stamped_ = 0;
  // Every PHY busy period seen: the first start, the latest end, the sum.
  std::optional<Time> first_busy_;
  Time last_busy_end_ = Time::zero();
  Duration busy_total_;
};

}  // namespace mantra::latp
