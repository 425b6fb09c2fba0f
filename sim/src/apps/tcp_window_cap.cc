#include "apps/tcp_window_cap.h"

#include <algorithm>

namespace mantra::sim {

ns3::TypeId TcpWindowCap::GetTypeId() {
  static ns3::TypeId tid = ns3::TypeId("mantra::sim::TcpWindowCap").SetParent<ns3::TcpCongestionOps>();
  return tid;
}

TcpWindowCap::TcpWindowCap(ns3::Ptr<ns3::TcpCongestionOps> inner, uint32_t max_window_segments)
    : inner_(inner), max_window_segments_(max_window_segments) {}

TcpWindowCap::TcpWindowCap(const TcpWindowCap& other)
    : ns3::TcpCongestionOps(other), inner_(other.inner_->Fork()), max_window_segments_(other.max_window_segments_) {}

void TcpWindowCap::cap(ns3::Ptr<ns3::TcpSocketState> tcb) const {
  tcb->m_cWnd = std::min<uint32_t>(tcb->m_cWnd, max_window_segments_ * tcb->m_segmentSize);
}

std::string TcpWindowCap::GetName() const { return inner_->GetName(); }

void TcpWindowCap::Init(ns3::Ptr<ns3::TcpSocketState> tcb) { inner_->Init(tcb); }

uint32_t TcpWindowCap::GetSsThresh(ns3::Ptr<const ns3::TcpSocketState> tcb, uint32_t bytes_in_flight) {
  return inner_->GetSsThresh(tcb, bytes_in_flight);
}

void TcpWindowCap::IncreaseWindow(ns3::Ptr<ns3::TcpSocketState> tcb, uint32_t segments_acked) {
  inner_->IncreaseWindow(tcb, segments_acked);
  cap(tcb);
}

void TcpWindowCap::PktsAcked(ns3::Ptr<ns3::TcpSocketState> tcb, uint32_t segments_acked, const ns3::Time& rtt) {
  inner_->PktsAcked(tcb, segments_acked, rtt);
}

void TcpWindowCap::CongestionStateSet(ns3::Ptr<ns3::TcpSocketState> tcb,
                                      const ns3::TcpSocketState::TcpCongState_t new_state) {
  inner_->CongestionStateSet(tcb, new_state);
}

void TcpWindowCap::CwndEvent(ns3::Ptr<ns3::TcpSocketState> tcb, const ns3::TcpSocketState::TcpCAEvent_t event) {
  inner_->CwndEvent(tcb, event);
}

bool TcpWindowCap::HasCongControl() const { return inner_->HasCongControl(); }

void TcpWindowCap::CongControl(ns3::Ptr<ns3::TcpSocketState> tcb, const ns3::TcpRateOps::TcpRateConnection& rc,
                               const ns3::TcpRateOps::TcpRateSample& rs) {
  inner_->CongControl(tcb, rc, rs);
  cap(tcb);
}

ns3::Ptr<ns3::TcpCongestionOps> TcpWindowCap::Fork() { return ns3::CopyObject<TcpWindowCap>(this); }

}  // namespace mantra::sim
