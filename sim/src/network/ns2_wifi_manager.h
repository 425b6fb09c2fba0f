// ns-2's 802.11 retry limits on ns-3.44's constant-rate Wi-Fi manager.
//
// ns-3.44 keeps one retry count per frame, raised by every failed attempt
// (RTS or data alike), and one limit, WifiMac::FrameRetryLimit. ns-2's
// Mac802_11 counts apart, as the 802.11-1999 station counters did:
//
//   short counter: failed RTS attempts, and failed data attempts of frames
//                  not longer than the RTS threshold; limit ShortRetryLimit_ 7
//   long counter:  failed data attempts of frames longer than the RTS
//                  threshold (those sent after an RTS/CTS); limit
//                  LongRetryLimit_ 4
//
//   CTS received      -> short counter 0
//   ACK received      -> both 0
//   counter at limit  -> the frame is dropped, both 0
//
// So with RTS on, a frame to a station that is gone is tried with 7 RTS and
// then dropped; a data frame whose RTS succeeds but whose ACK never comes is
// sent 4 times. The manager records which kind of attempt failed (the MAC
// reports it just before asking what to drop) and answers the drop question
// itself in DoGetMpdusToDropOnTxFailure, the 3.44 hook for this decision.
#pragma once

#include <ns3/constant-rate-wifi-manager.h>

#include <cstdint>
#include <list>
#include <map>

namespace ns3 {

class Ns2WifiManager : public ConstantRateWifiManager {
 public:
  static TypeId GetTypeId();
  Ns2WifiManager() = default;

 private:
  enum class Failed : uint8_t { kNothing, kRts, kData };
  struct Counters {
    uint32_t short_count = 0;
    uint32_t long_count = 0;
    Failed last = Failed::kNothing;
    bool after_cts = false;  // the data attempt followed a CTS (its frame is above the RTS threshold)
  };

  void DoReportRtsFailed(WifiRemoteStation* station) override;
  void DoReportDataFailed(WifiRemoteStation* station) override;
  void DoReportRtsOk(WifiRemoteStation* station, double ctsSnr, WifiMode ctsMode, double rtsSnr) override;
  void DoReportDataOk(WifiRemoteStation* station, double ackSnr, WifiMode ackMode, double dataSnr,
                      MHz_u dataChannelWidth, uint8_t dataNss) override;
  void DoReportFinalRtsFailed(WifiRemoteStation* station) override;
  void DoReportFinalDataFailed(WifiRemoteStation* station) override;
  std::list<Ptr<WifiMpdu>> DoGetMpdusToDropOnTxFailure(WifiRemoteStation* station, Ptr<WifiPsdu> psdu) override;

  std::map<const WifiRemoteStation*, Counters> m_counters;
  uint32_t m_shortRetryLimit = 7;
  uint32_t m_longRetryLimit = 4;
};

}  // namespace ns3
