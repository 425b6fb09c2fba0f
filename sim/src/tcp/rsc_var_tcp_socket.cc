#include "tcp/rsc_var_tcp_socket.h"

#include <ns3/ipv4-end-point.h>
#include <ns3/simulator.h>
#include <ns3/tcp-l4-protocol.h>
#include <ns3/tcp-option-ts.h>
#include <ns3/tcp-rx-buffer.h>

#include <algorithm>

#include "tcp/new_socket.h"

namespace mantra::sim {

using ns3::Simulator;
using ns3::TcpHeader;

ns3::TypeId RscVarTcpSocket::GetTypeId() {
  static ns3::TypeId tid =
      ns3::TypeId("mantra::sim::RscVarTcpSocket").SetParent<ns3::TcpSocketBase>().AddConstructor<RscVarTcpSocket>();
  return tid;
}

// A fork (one per accepted connection) starts the machine afresh with the listener's settings.
RscVarTcpSocket::RscVarTcpSocket(const RscVarTcpSocket& other)
    : ns3::TcpSocketBase(other), machine_(other.machine_.config()) {}

ns3::Ptr<RscVarTcpSocket> RscVarTcpSocket::create(ns3::Ptr<ns3::Node> node, const RscVarConfig& config) {
  auto socket = new_socket<RscVarTcpSocket>(node);
  socket->machine_ = RscVarMachine(config);
  return socket;
}

ns3::Ptr<ns3::TcpSocketBase> RscVarTcpSocket::Fork() { return ns3::CopyObject<RscVarTcpSocket>(this); }

void RscVarTcpSocket::take_rtt_sample(const TcpHeader& header) {
  if (!header.HasOption(ns3::TcpOption::TS)) return;
  auto ts = ns3::DynamicCast<const ns3::TcpOptionTS>(header.GetOption(ns3::TcpOption::TS));
  const uint32_t echo = ts->GetEcho();
  // The first segment with an echo not seen before: later ones of the same
  // burst echo the same ACK and would count the sender's wait.
  if (echo == 0 || echo <= last_echo_) return;
  last_echo_ = echo;
  ++rtt_samples_;
  machine_.on_rtt_sample(Simulator::Now().GetSeconds(), ns3::TcpOptionTS::ElapsedTimeFromTsValue(echo).GetSeconds());
}

void RscVarTcpSocket::ReceivedData(ns3::Ptr<ns3::Packet> packet, const TcpHeader& header) {
  const double now = Simulator::Now().GetSeconds();
  take_rtt_sample(header);
  // New data: not wholly below what was already received in order.
  const bool is_new = header.GetSequenceNumber() + packet->GetSize() > m_tcb->m_rxBuffer->NextRxSequence();
  if (is_new && packet->GetSize() > 0) {
    if (const std::optional<double> due = machine_.on_data(now, packet->GetSize())) {
      // One pending event at most: it moves itself to the latest due time
      // when it fires early, instead of a cancel and a new event per segment.
      receive_due_ = Simulator::Now() + ns3::Seconds(*due - now);
      if (!receive_timeout_.IsPending()) {
        receive_timeout_ =
            Simulator::Schedule(receive_due_ - Simulator::Now(), &RscVarTcpSocket::on_receive_timeout, this);
      }
    }
    record(now);
  }
  in_received_data_ = true;
  ns3::TcpSocketBase::ReceivedData(packet, header);  // generates the ACK (SendEmptyPacket below)
  in_received_data_ = false;
}

void RscVarTcpSocket::on_receive_timeout() {
  if (Simulator::Now() < receive_due_) {  // data came since it was set: wait for the latest due time
    receive_timeout_ = Simulator::Schedule(receive_due_ - Simulator::Now(), &RscVarTcpSocket::on_receive_timeout, this);
    return;
  }
  const double now = Simulator::Now().GetSeconds();
  machine_.on_receive_timeout(now);
  record(now);
}

void RscVarTcpSocket::SendEmptyPacket(uint8_t flags) {
  const bool paced = flags == TcpHeader::ACK && m_state == ESTABLISHED && machine_.state() != RscVarState::kNormal;
  // One ACK per data segment (Fig. 4): the window update ns-3 sends when the
  // application reads would be a second ACK with the same number, paced like
  // the others, halving the rate and looking like a duplicate to the sender.
  if (paced && !in_received_data_) return;
  if (!paced || machine_.on_ack(m_tcb->m_rxBuffer->NextRxSequence().GetValue(), m_timestampToEcho)) {
    ns3::TcpSocketBase::SendEmptyPacket(flags);
    return;
  }
  if (!ack_timer_.IsPending()) arm_ack_timer();
}

void RscVarTcpSocket::arm_ack_timer() {
  const std::optional<double> due = machine_.next_ack_at_s();
  if (!due) return;
  const double now = Simulator::Now().GetSeconds();
  ack_timer_ = Simulator::Schedule(ns3::Seconds(std::max(0.0, *due - now)), &RscVarTcpSocket::on_ack_timer, this);
}

void RscVarTcpSocket::on_ack_timer() {
  if (const std::optional<QueuedAck> head = machine_.on_ack_timer(Simulator::Now().GetSeconds())) send_ack(*head);
  arm_ack_timer();
}

// A pure ACK as ns-3's SendEmptyPacket builds one, with the queued ACK number
// and timestamp echo (RFC 7323 §4.3: the echo of the segment it acknowledges,
// so the sender's RTT and RTO include the wait in the queue; its own TSval is
// the time it leaves, from which our RTT samples exclude the wait).
void RscVarTcpSocket::send_ack(const QueuedAck& queued) {
  if (m_endPoint == nullptr || m_state != ESTABLISHED) return;
  auto p = ns3::Create<ns3::Packet>();
  AddSocketTags(p, IsEct(TcpPacketType_t::PURE_ACK));
  TcpHeader header;
  header.SetFlags(TcpHeader::ACK);
  header.SetSequenceNumber(m_tcb->m_nextTxSequence);
  header.SetAckNumber(ns3::SequenceNumber32(queued.ack));
  header.SetSourcePort(m_endPoint->GetLocalPort());
  header.SetDestinationPort(m_endPoint->GetPeerPort());
  const uint32_t newest_echo = m_timestampToEcho;
  m_timestampToEcho = queued.echo;
  AddOptions(header);
  m_timestampToEcho = newest_echo;
  // Eq. 5's window counts from this ACK's own number, as every TCP window
  // does: the sender keeps at most sRTT / T_ack segments unacknowledged,
  // those whose ACKs wait in the queue included, so the queue cannot grow
  // past the window and hold the oldest ACK beyond the sender's RTO.
  header.SetWindowSize(AdvertisedWindowSize(true));
  if (m_highTxAck < header.GetAckNumber()) m_highTxAck = header.GetAckNumber();
  m_txTrace(p, header, this);
  m_tcp->SendPacket(p, header, m_endPoint->GetLocalAddress(), m_endPoint->GetPeerAddress(), m_boundnetdevice);
}

// Eq. 5 once the machine runs, within what the receive buffer allows
// (both counted from RCV.NXT).
uint16_t RscVarTcpSocket::AdvertisedWindowSize(bool scale) const {
  const uint16_t own = ns3::TcpSocketBase::AdvertisedWindowSize(scale);
  const std::optional<uint32_t> w = machine_.advertised_window_bytes(m_tcb->m_segmentSize);
  if (!w) return own;
  // Scaled up, not down: a window one scaling unit short of two segments
  // holds one.
  const uint32_t unit = scale ? (1u << m_rcvWindShift) : 1u;
  const uint32_t scaled = (*w + unit - 1) / unit;
  return static_cast<uint16_t>(std::min<uint32_t>(own, std::max<uint32_t>(scaled, 1)));
}

// One sample per T_base change and per second at most otherwise.
void RscVarTcpSocket::record(double now_s) {
  const bool changed = machine_.t_base_s() != last_t_base_s_;
  if (!changed && now_s - last_sample_s_ < 1.0) return;
  last_t_base_s_ = machine_.t_base_s();
  last_sample_s_ = now_s;
  if (machine_.state() == RscVarState::kNormal) return;
  samples_.push_back({now_s, machine_.t_ack_s(), machine_.t_base_s(), machine_.var_at()});
}

}  // namespace mantra::sim
