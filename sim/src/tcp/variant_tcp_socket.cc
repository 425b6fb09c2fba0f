#include "tcp/variant_tcp_socket.h"

#include <ns3/ipv4-end-point.h>
#include <ns3/node.h>
#include <ns3/rtt-estimator.h>
#include <ns3/simulator.h>
#include <ns3/tcp-congestion-ops.h>
#include <ns3/tcp-l4-protocol.h>
#include <ns3/tcp-rate-ops.h>
#include <ns3/tcp-rx-buffer.h>
#include <ns3/tcp-tx-buffer.h>

#include <algorithm>

#include "tcp/new_socket.h"
#include "tcp/tcp_flow_tag.h"

namespace mantra::sim {

using ns3::SequenceNumber32;
using ns3::TcpSocketState;

ns3::TypeId VariantTcpSocket::GetTypeId() {
  static ns3::TypeId tid =
      ns3::TypeId("mantra::sim::VariantTcpSocket").SetParent<ns3::TcpSocketBase>().AddConstructor<VariantTcpSocket>();
  return tid;
}

ns3::Ptr<VariantTcpSocket> VariantTcpSocket::create(ns3::Ptr<ns3::Node> node) {
  return new_socket<VariantTcpSocket>(node);
}

void VariantTcpSocket::set_options(const TcpVariantOptions& options) {
  options_ = options;
  SetAttribute("LimitedTransmit", ns3::BooleanValue(options.limited_transmit));
  if (!options.freeze) return;
  machine_.emplace(*options.freeze);
  if (options.freeze->trigger == FreezeTrigger::kLoss) {
    // The machine counts duplicate ACKs and retransmits itself; ns-3 must
    // neither enter fast recovery nor send on duplicate ACKs.
    SetAttribute("ReTxThreshold", ns3::UintegerValue(1u << 30));
    SetAttribute("LimitedTransmit", ns3::BooleanValue(false));
  }
}

AckKind VariantTcpSocket::classify(ns3::Ptr<const ns3::Packet> packet, const ns3::TcpHeader& header) const {
  const SequenceNumber32 ack = header.GetAckNumber();
  const SequenceNumber32 head = m_txBuffer->HeadSequence();
  if (ack > head) return AckKind::kNew;
  if (ack == head && ack < m_tcb->m_highTxMark && packet->GetSize() == 0) return AckKind::kDuplicate;
  return AckKind::kOther;
}

void VariantTcpSocket::ReceivedAck(ns3::Ptr<ns3::Packet> packet, const ns3::TcpHeader& header) {
  if (!machine_ || m_state != ESTABLISHED) {
    pass_ack_to_tcp(packet, header);
    return;
  }
  const FreezeActions actions = machine_->on_ack(ns3::Simulator::Now().GetSeconds(), classify(packet, header));
  apply(actions);
  if (actions.pass_to_tcp) pass_ack_to_tcp(packet, header);
  if (actions.go_back) go_back();
}

// Only an ACK ns-3 processes (a frozen sender keeps some from it) ends an
// episode, so only such an ACK clears the marks.
void VariantTcpSocket::pass_ack_to_tcp(ns3::Ptr<ns3::Packet> packet, const ns3::TcpHeader& header) {
  clear_reno_marks(header.GetAckNumber());
  TcpSocketBase::ReceivedAck(packet, header);
}

// Without SACK, ns-3 counts each duplicate ACK as a SACKed segment
// (AddRenoSack: in recovery, and with limited transmit in the disorder state
// too) and keeps these marks after a new ACK ends the episode. When an ACK
// then makes a marked segment the head, TcpTxBuffer::DiscardUpTo marks the
// head lost without resending it, and one duplicate ACK later ns-3 starts a
// fast recovery (IsLost(head)). NewReno and Reno keep no scoreboard (RFC
// 5681, 6582; ns-2's agents): a new ACK outside recovery, or one that ends
// it, clears the marks, before ns-3's ReceivedAck discards up to it.
void VariantTcpSocket::clear_reno_marks(const SequenceNumber32& ack) {
  if (m_sackEnabled || m_txBuffer->GetSacked() == 0 || ack <= m_txBuffer->HeadSequence()) return;
  const TcpSocketState::TcpCongState_t state = m_tcb->m_congState.Get();
  // Reno's recovery ends on its first new ACK (ProcessAck), NewReno's on one at m_recover.
  const bool ends_recovery = state == TcpSocketState::CA_RECOVERY && (options_.reno || ack >= m_recover);
  if (state == TcpSocketState::CA_OPEN || state == TcpSocketState::CA_DISORDER || ends_recovery) {
    m_txBuffer->ResetRenoSack();
  }
}

void VariantTcpSocket::go_back() {
  // As ns-3's own timeout does it, without its backoff and window cut:
  // everything sent counts as lost and is sent again from SND.UNA, in the
  // LOSS state (duplicate ACKs are not counted there) until all of it is
  // acknowledged.
  m_txBuffer->SetSentListLost(true);
  m_tcb->m_nextTxSequence = m_txBuffer->HeadSequence();
  m_dupAckCount = 0;
  m_recover = m_tcb->m_highTxMark;
  m_recoverActive = true;
  if (m_tcb->m_congState != TcpSocketState::CA_LOSS) {
    m_congestionControl->CongestionStateSet(m_tcb, TcpSocketState::CA_LOSS);
    m_tcb->m_congState = TcpSocketState::CA_LOSS;
  }
  m_tcb->m_cWndInfl = m_tcb->m_cWnd.Get();
  SendPendingData(m_connected);
}

void VariantTcpSocket::ProcessAck(const SequenceNumber32& ack, bool scoreboard_updated, uint32_t current_delivered,
                                  const SequenceNumber32& old_head, bool received_data) {
  const bool partial =
      options_.reno && m_tcb->m_congState == TcpSocketState::CA_RECOVERY && ack > old_head && ack < m_recover;
  if (partial) m_recover = ack;  // a partial ACK ends Reno's recovery as a full one would
  // Delivery-rate bookkeeping only for a socket asked for samples (every ACK
  // of every TCP flow passes here). current_delivered is what the ACK's SACK
  // blocks delivered; the cumulative ACK delivers the rest inside ProcessAck.
  const uint64_t delivered_before = on_sample_ ? m_rateOps->GetConnectionRate().m_delivered - current_delivered : 0;
  const uint32_t in_flight_before = m_tcb->m_bytesInFlight.Get();  // the sample's record only
  TcpSocketBase::ProcessAck(ack, scoreboard_updated, current_delivered, old_head, received_data);
  if (on_sample_) take_delivery_sample(m_rateOps->GetConnectionRate().m_delivered - delivered_before, in_flight_before);
}

void VariantTcpSocket::ReTxTimeout() {
  if (machine_ && m_state == ESTABLISHED && m_txBuffer->SizeFromSequence(m_txBuffer->HeadSequence()) > 0) {
    const FreezeActions actions = machine_->on_rto(ns3::Simulator::Now().GetSeconds());
    if (!actions.pass_to_tcp) {
      apply(actions);
      return;
    }
  }
  TcpSocketBase::ReTxTimeout();
}

// Frozen: nothing leaves. In the disorder state (one or two duplicate ACKs)
// without SACK and without limited transmit, no new data leaves either:
// ns-3 asserts that none does then. A greedy sender, its window full, never
// tries; an application-limited one (a video) would. What waits goes with
// the next ACK handled outside the disorder state. With limited transmit
// on, the window ns-3 computes (each duplicate ACK counted as a segment
// gone) lets RFC 3042's new segments leave.
uint32_t VariantTcpSocket::AvailableWindow() const {
  if (frozen_) return 0;
  if (m_tcb->m_congState == ns3::TcpSocketState::CA_DISORDER && !m_sackEnabled && !m_limitedTx) return 0;
  return TcpSocketBase::AvailableWindow();
}

ns3::Time VariantTcpSocket::CalculateRttSample(const ns3::TcpHeader& header, const ns3::RttHistory& history) {
  // A segment sent before the last freeze ended measured the outage, not the
  // path: Karn's rule, stretched over a freeze. (ns-3 takes samples from
  // every ACK before ReceivedAck sees it, the ACK that ends a freeze too.)
  if (frozen_ || history.time < resumed_at_) return ns3::Time(0);
  const ns3::Time sample = TcpSocketBase::CalculateRttSample(header, history);
  if (!sample.IsZero()) {
    ++rtt_samples_;
    rtt_sum_s_ += sample.GetSeconds();
  }
  return sample;
}

void VariantTcpSocket::sample_delivery_rate(std::function<void(const DeliverySample&)> on_sample) {
  on_sample_ = std::move(on_sample);
}

void VariantTcpSocket::take_delivery_sample(uint64_t delivered, uint32_t in_flight_before) {
  if (delivered == 0) return;
  const auto& rs =
      m_rateOps->GenerateSample(static_cast<uint32_t>(delivered), 0, false, in_flight_before, m_tcb->m_minRtt);
  // (rs.m_deliveryRate keeps an earlier value for an app-limited sample below
  // it; the rate is computed from the sample's own numbers.)
  if (rs.m_delivered > 0 && rs.m_interval.IsStrictlyPositive()) {
    on_sample_({static_cast<double>(rs.m_delivered) * 8 / rs.m_interval.GetSeconds(), rs.m_interval.GetSeconds(),
                rs.m_isAppLimited});
  }
}

void VariantTcpSocket::on_link_failure_notice() {
  if (!machine_ || m_state != ESTABLISHED) return;
  apply(machine_->on_notice(ns3::Simulator::Now().GetSeconds()));
}

void VariantTcpSocket::on_timer() { apply(machine_->on_timer(ns3::Simulator::Now().GetSeconds())); }

void VariantTcpSocket::apply(const FreezeActions& a) {
  if (a.retransmit_head && m_txBuffer->SizeFromSequence(m_txBuffer->HeadSequence()) > 0) {
    SendDataPacket(m_txBuffer->HeadSequence(), m_tcb->m_segmentSize, true);
  }
  if (a.send_probe) send_probe();
  if (a.freeze) {
    frozen_ = true;
    m_retxEvent.Cancel();  // the retransmission timer is frozen with the rest
  }
  if (a.halve_window) halve_window();
  if (a.resume) {
    frozen_ = false;
    resumed_at_ = ns3::Simulator::Now();
    // The timer restarts with the RTO kept through the freeze (no backoff).
    if (m_txBuffer->SizeFromSequence(m_txBuffer->HeadSequence()) > 0 && !m_retxEvent.IsPending()) {
      m_retxEvent = ns3::Simulator::Schedule(m_rto, &VariantTcpSocket::ReTxTimeout, this);
    }
  }
  if (a.cancel_timer) timer_.Cancel();
  if (a.arm_timer_s) {
    timer_.Cancel();
    timer_ = ns3::Simulator::Schedule(ns3::Seconds(*a.arm_timer_s), &VariantTcpSocket::on_timer, this);
  }
}

void VariantTcpSocket::halve_window() {
  const uint32_t segment = m_tcb->m_segmentSize;
  const uint32_t half = m_tcb->m_cWnd.Get() / 2;
  m_tcb->m_ssThresh = std::max(half, 2 * segment);
  m_tcb->m_cWnd = std::max(half, segment);
  m_tcb->m_cWndInfl = m_tcb->m_cWnd.Get();
}

void VariantTcpSocket::send_probe() {
  if (m_endPoint == nullptr) return;
  // One byte the receiver already has: it answers with an ACK of RCV.NXT.
  ns3::Ptr<ns3::Packet> probe = ns3::Create<ns3::Packet>(1);
  TcpFlowTag tag;
  tag.flow = options_.flow;
  tag.probe = true;
  probe->AddByteTag(tag);
  ns3::TcpHeader header;
  header.SetFlags(ns3::TcpHeader::ACK);
  header.SetSequenceNumber(m_txBuffer->HeadSequence() - 1);
  header.SetAckNumber(m_tcb->m_rxBuffer->NextRxSequence());
  header.SetSourcePort(m_endPoint->GetLocalPort());
  header.SetDestinationPort(m_endPoint->GetPeerPort());
  header.SetWindowSize(AdvertisedWindowSize());
  m_tcp->SendPacket(probe, header, m_endPoint->GetLocalAddress(), m_endPoint->GetPeerAddress(), m_boundnetdevice);
}

}  // namespace mantra::sim
