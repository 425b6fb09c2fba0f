#include "network/ns2_wifi_manager.h"

#include <ns3/uinteger.h>
#include <ns3/wifi-psdu.h>

namespace ns3 {

NS_OBJECT_ENSURE_REGISTERED(Ns2WifiManager);

TypeId Ns2WifiManager::GetTypeId() {
  static TypeId tid =
      TypeId("ns3::Ns2WifiManager")
          .SetParent<ConstantRateWifiManager>()
          .SetGroupName("Wifi")
          .AddConstructor<Ns2WifiManager>()
          .AddAttribute("ShortRetryLimit",
                        "Attempts of an RTS, or of a data frame not above the RTS threshold, before the frame "
                        "is dropped (ns-2 ShortRetryLimit_)",
                        UintegerValue(7), MakeUintegerAccessor(&Ns2WifiManager::m_shortRetryLimit),
                        MakeUintegerChecker<uint32_t>(1))
          .AddAttribute("LongRetryLimit",
                        "Attempts of a data frame above the RTS threshold before it is dropped (ns-2 "
                        "LongRetryLimit_)",
                        UintegerValue(4), MakeUintegerAccessor(&Ns2WifiManager::m_longRetryLimit),
                        MakeUintegerChecker<uint32_t>(1));
  return tid;
}

void Ns2WifiManager::DoReportRtsFailed(WifiRemoteStation* station) { m_counters[station].last = Failed::kRts; }

void Ns2WifiManager::DoReportDataFailed(WifiRemoteStation* station) { m_counters[station].last = Failed::kData; }

void Ns2WifiManager::DoReportRtsOk(WifiRemoteStation* station, double, WifiMode, double) {
  Counters& c = m_counters[station];
  c.short_count = 0;
  c.after_cts = true;
}

void Ns2WifiManager::DoReportDataOk(WifiRemoteStation* station, double, WifiMode, double, MHz_u, uint8_t) {
  m_counters[station] = {};
}

void Ns2WifiManager::DoReportFinalRtsFailed(WifiRemoteStation* station) { m_counters[station] = {}; }

void Ns2WifiManager::DoReportFinalDataFailed(WifiRemoteStation* station) { m_counters[station] = {}; }

std::list<Ptr<WifiMpdu>> Ns2WifiManager::DoGetMpdusToDropOnTxFailure(WifiRemoteStation* station, Ptr<WifiPsdu> psdu) {
  Counters& c = m_counters[station];
  bool give_up = false;
  if (c.last == Failed::kData && c.after_cts) {
    give_up = ++c.long_count >= m_longRetryLimit;
  } else {
    give_up = ++c.short_count >= m_shortRetryLimit;
  }
  c.last = Failed::kNothing;
  c.after_cts = false;
  if (!give_up) return {};
  c = {};
  return {psdu->begin(), psdu->end()};
}

}  // namespace ns3
