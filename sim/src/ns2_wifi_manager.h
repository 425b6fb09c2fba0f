// ns-2's retry semantics on ns-3.37's constant-rate Wi-Fi manager.
//
// In 3.37 an RTS that never gets a CTS is retried forever: the retry check
// looks at the long retry counter while an RTS failure bumps only the short
// one (ns3-notes.md §1). This manager counts RTS failures per station and
// gives up after MaxRtsRetries (ns-2's ShortRetryLimit_ = 7), so a broken
// link surfaces as a MAC drop that AODV reacts to, as in ns-2.
#pragma once

#include <map>

#include <ns3/constant-rate-wifi-manager.h>

namespace ns3 {

class Ns2WifiManager : public ConstantRateWifiManager {
 public:
  static TypeId GetTypeId();
  Ns2WifiManager() = default;

 private:
  void DoReportRtsFailed(WifiRemoteStation* station) override;
  void DoReportRtsOk(WifiRemoteStation* station, double ctsSnr, WifiMode ctsMode, double rtsSnr) override;
  void DoReportDataOk(WifiRemoteStation* station, double ackSnr, WifiMode ackMode, double dataSnr,
                      uint16_t dataChannelWidth, uint8_t dataNss) override;
  void DoReportFinalRtsFailed(WifiRemoteStation* station) override;
  void DoReportFinalDataFailed(WifiRemoteStation* station) override;
  bool DoNeedRetransmission(WifiRemoteStation* station, Ptr<const Packet> packet, bool normally) override;

  std::map<WifiRemoteStation*, uint32_t> m_rtsFailures;
  uint32_t m_maxRtsRetries = 7;
};

}  // namespace ns3
