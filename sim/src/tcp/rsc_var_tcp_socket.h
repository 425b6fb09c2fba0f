// The receiving socket of a flow with `receiver: rsc-var`: ns-3's
// TcpSocketBase whose pure ACKs go through RSC-VAR's ACK queue
// (tcp/rsc_var_machine.h) and whose advertised window is eq. 5's. The sender
// is ns-3's NewReno, unchanged; docs/protocols/rsc-var.md gives the readings.
//
// - ACKs: every pure ACK ns-3 would send (one per data segment, DelAckCount
//   1; duplicates too) is queued with the ACK number of that moment and sent
//   when the machine's timer says, its header built as ns-3 builds a pure
//   ACK (timestamps, window) but with the queued ACK number and echo, and a
//   window counted from that number. SYN, FIN, RST
//   and ACKs with ECE pass at once; the window updates ns-3 sends when the
//   application reads are not sent (one ACK per data segment).
// - sRTT: the sender's TCP timestamps echo the TSval of our ACKs, which is
//   stamped when an ACK leaves the queue; a data segment carrying an echo
//   not seen before gives RTT = now - echo (1 ms resolution), so the time
//   ACKs wait in the queue is not in it. Each queued ACK echoes the TSval of
//   the segment it acknowledges (RFC 7323 4.3), so the sender's RTO covers
//   the wait. Both ends run with timestamps.
// - Receive timeout: no data segment for 4 sRTT.
// - The listening socket is one of these; ns-3 forks it per connection.
#pragma once

#include <ns3/event-id.h>
#include <ns3/nstime.h>
#include <ns3/tcp-socket-base.h>

#include <vector>

#include "tcp/rsc_var_machine.h"

namespace mantra::sim {

// The ACK interval and T_base at each T_base change and each second, for
// the paper's Fig. 8.
struct RscVarSample {
  double t_s = 0;
  double t_ack_s = 0;
  double t_base_s = 0;
  double var_at = 0;
};

class RscVarTcpSocket : public ns3::TcpSocketBase {
 public:
  static ns3::TypeId GetTypeId();
  RscVarTcpSocket() = default;
  RscVarTcpSocket(const RscVarTcpSocket& other);
  // A socket on `node`, made as TcpL4Protocol::CreateSocket makes its own.
  static ns3::Ptr<RscVarTcpSocket> create(ns3::Ptr<ns3::Node> node, const RscVarConfig& config);

  const RscVarMachine& machine() const { return machine_; }
  const std::vector<RscVarSample>& samples() const { return samples_; }
  int64_t rtt_samples() const { return rtt_samples_; }

 protected:
  ns3::Ptr<ns3::TcpSocketBase> Fork() override;
  void ReceivedData(ns3::Ptr<ns3::Packet> packet, const ns3::TcpHeader& header) override;
  void SendEmptyPacket(uint8_t flags) override;
  uint16_t AdvertisedWindowSize(bool scale) const override;

 private:
  void take_rtt_sample(const ns3::TcpHeader& header);
  void arm_ack_timer();
  void on_ack_timer();
  void send_ack(const QueuedAck& queued);
  void on_receive_timeout();
  void record(double now_s);

  RscVarMachine machine_{RscVarConfig{}};
  ns3::EventId ack_timer_;
  ns3::EventId receive_timeout_;
  ns3::Time receive_due_;          // when the receive timeout fires if no more data arrives (exact: ns-3 time)
  bool in_received_data_ = false;  // within ReceivedData: its ACK is the segment's own
  uint32_t last_echo_ = 0;
  int64_t rtt_samples_ = 0;
  double last_t_base_s_ = -1;
  double last_sample_s_ = -1;
  std::vector<RscVarSample> samples_;
};

}  // namespace mantra::sim
