// ns-2's window_ for any ns-3 congestion control: wraps one (NewReno, Vegas,
// ...), forwards every call to it, and after each call in which the algorithm
// grows the window (IncreaseWindow, CongControl) caps the congestion window
// at `max_window` segments, as ns-2's sender keeps cwnd within window_.
// Every decision stays the wrapped algorithm's. The socket's own window
// inflation during fast recovery is not capped (ns-3 does it outside the
// congestion control); the cap applies again at the next increase.
#pragma once

#include <ns3/tcp-congestion-ops.h>

#include <cstdint>
#include <string>

namespace mantra::sim {

class TcpWindowCap : public ns3::TcpCongestionOps {
 public:
  static ns3::TypeId GetTypeId();
  TcpWindowCap() = default;
  TcpWindowCap(ns3::Ptr<ns3::TcpCongestionOps> inner, uint32_t max_window_segments);
  TcpWindowCap(const TcpWindowCap& other);

  std::string GetName() const override;
  void Init(ns3::Ptr<ns3::TcpSocketState> tcb) override;
  uint32_t GetSsThresh(ns3::Ptr<const ns3::TcpSocketState> tcb, uint32_t bytes_in_flight) override;
  void IncreaseWindow(ns3::Ptr<ns3::TcpSocketState> tcb, uint32_t segments_acked) override;
  void PktsAcked(ns3::Ptr<ns3::TcpSocketState> tcb, uint32_t segments_acked, const ns3::Time& rtt) override;
  void CongestionStateSet(ns3::Ptr<ns3::TcpSocketState> tcb,
                          const ns3::TcpSocketState::TcpCongState_t new_state) override;
  void CwndEvent(ns3::Ptr<ns3::TcpSocketState> tcb, const ns3::TcpSocketState::TcpCAEvent_t event) override;
  bool HasCongControl() const override;
  void CongControl(ns3::Ptr<ns3::TcpSocketState> tcb, const ns3::TcpRateOps::TcpRateConnection& rc,
                   const ns3::TcpRateOps::TcpRateSample& rs) override;
  ns3::Ptr<ns3::TcpCongestionOps> Fork() override;

 private:
  void cap(ns3::Ptr<ns3::TcpSocketState> tcb) const;

  ns3::Ptr<ns3::TcpCongestionOps> inner_;
  uint32_t max_window_segments_ = 0;
};

}  // namespace mantra::sim
