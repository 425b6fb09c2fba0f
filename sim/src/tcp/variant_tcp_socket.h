// The sending socket of every TCP flow: ns-3's TcpSocketBase with what the
// TCP family of the papers needs and ns-3 lacks, each off unless asked for.
//
// - Limited transmit (RFC 3042, ns-2's singledup_) as the flow asks; with
//   it off and SACK off, no new data leaves in the disorder state (one or
//   two duplicate ACKs), where ns-3 asserts that none does.
// - Reno (docs/protocols/reno.md): fast recovery ends on the first new ACK.
//   ns-3 treats a partial ACK the NewReno way inside ProcessAck whatever the
//   recovery module; here a partial ACK moves the recovery point down to it
//   first, so ns-3 takes its full-ACK path: cwnd = ssthresh, recovery over.
//   A second loss of the same window needs three new duplicate ACKs (a
//   second halving) or the retransmission timer.
// - A freeze (freeze_machine.h): Freeze-Probing on its own losses, or ELFN on
//   a link-failure notice (elfn_notices.h). Frozen, the socket sends no data
//   and its retransmission timer is stopped; the probe is one byte just below
//   SND.UNA (keep-alive style), which an unmodified receiver answers with an
//   ACK; the paper's 40-byte probe is a bare header that draws none. A
//   segment sent before a freeze ended gives no RTT sample (it measured the
//   outage: Karn's rule stretched over the freeze).
// - Delivery-rate samples for whoever asks (a video's source): ns-3's own
//   TcpRateLinux (tcp_rate.c's algorithm: each ACK's newly ACKed or SACKed
//   bytes since the newest segment it delivered was sent, over the longer of
//   that segment's send and ACK phases; a sample over less than the minimum
//   RTT dropped) keeps its books for every socket but generates a sample only
//   for a congestion control that reads one (HasCongControl); here one is
//   generated on each ACK that delivered data.
//
// Only the sending side is a VariantTcpSocket; the sink is ns-3's own.
#pragma once

#include <ns3/event-id.h>
#include <ns3/tcp-socket-base.h>

#include <functional>
#include <optional>

#include "tcp/delivery_sample.h"
#include "tcp/freeze_machine.h"

namespace mantra::sim {

struct TcpVariantOptions {
  uint32_t flow = 0;                   // the flow's place in the spec (tags the probes)
  bool reno = false;                   // leave fast recovery on the first new ACK
  bool limited_transmit = true;        // RFC 3042: a new segment on each of the first two duplicate ACKs
  std::optional<FreezeConfig> freeze;  // Freeze-Probing or ELFN
};

class VariantTcpSocket : public ns3::TcpSocketBase {
 public:
  static ns3::TypeId GetTypeId();
  VariantTcpSocket() = default;
  // A socket on `node`, made as TcpL4Protocol::CreateSocket makes its own
  // (node, protocol, RTT estimator, registered with the protocol).
  static ns3::Ptr<VariantTcpSocket> create(ns3::Ptr<ns3::Node> node);

  // Before Connect(). A Freeze-Probing sender takes over fast retransmit
  // from ns-3 (whose threshold it raises out of reach).
  void set_options(const TcpVariantOptions& options);
  // An ELFN notice for this connection arrived.
  void on_link_failure_notice();

  const FreezeMachine* freeze_machine() const { return machine_ ? &*machine_ : nullptr; }
  // Round-trip samples the sender took (the model's RTT).
  int64_t rtt_samples() const { return rtt_samples_; }
  double rtt_sum_s() const { return rtt_sum_s_; }
  // The congestion window (bytes) and the smoothed RTT (s; 0 before a sample).
  uint32_t cwnd_bytes() const { return m_tcb->m_cWnd.Get(); }
  double srtt_s() const { return m_tcb->m_srtt.Get().GetSeconds(); }
  ns3::TcpSocketState::TcpCongState_t congestion_state() const { return m_tcb->m_congState.Get(); }
  // Duplicate ACKs counted since the last new ACK.
  uint32_t duplicate_acks() const { return m_dupAckCount; }
  // From now on, each delivery-rate sample to `on_sample`.
  void sample_delivery_rate(std::function<void(const DeliverySample&)> on_sample);

 protected:
  void ReceivedAck(ns3::Ptr<ns3::Packet> packet, const ns3::TcpHeader& header) override;
  void ProcessAck(const ns3::SequenceNumber32& ack, bool scoreboard_updated, uint32_t current_delivered,
                  const ns3::SequenceNumber32& old_head, bool received_data) override;
  void ReTxTimeout() override;
  uint32_t AvailableWindow() const override;
  ns3::Time CalculateRttSample(const ns3::TcpHeader& header, const ns3::RttHistory& history) override;

 private:
  // Without SACK, ns-3's guessed scoreboard is cleared before an ACK that
  // leaves no recovery behind it (docs/protocols/reno.md, "Duplicate ACKs
  // counted as SACKs").
  void clear_reno_marks(const ns3::SequenceNumber32& ack);
  // ns-3's ReceivedAck, the marks cleared first where they must be.
  void pass_ack_to_tcp(ns3::Ptr<ns3::Packet> packet, const ns3::TcpHeader& header);
  // A delivery-rate sample of the ACK that delivered `delivered` bytes, to on_sample_.
  void take_delivery_sample(uint64_t delivered, uint32_t in_flight_before);
  AckKind classify(ns3::Ptr<const ns3::Packet> packet, const ns3::TcpHeader& header) const;
  // Carries out the machine's actions but the passing on, which is the caller's.
  void apply(const FreezeActions& actions);
  void halve_window();
  void go_back();
  void send_probe();
  void on_timer();

  TcpVariantOptions options_;
  std::optional<FreezeMachine> machine_;
  ns3::EventId timer_;
  bool frozen_ = false;
  ns3::Time resumed_at_;  // when the last freeze ended
  int64_t rtt_samples_ = 0;
  double rtt_sum_s_ = 0;
  std::function<void(const DeliverySample&)> on_sample_;  // empty: no samples asked for
};

}  // namespace mantra::sim
