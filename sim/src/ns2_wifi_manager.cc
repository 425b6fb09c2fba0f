#include "ns2_wifi_manager.h"

#include <ns3/uinteger.h>

namespace ns3 {

NS_OBJECT_ENSURE_REGISTERED(Ns2WifiManager);

TypeId Ns2WifiManager::GetTypeId() {
  static TypeId tid = TypeId("ns3::Ns2WifiManager")
                          .SetParent<ConstantRateWifiManager>()
                          .SetGroupName("Wifi")
                          .AddConstructor<Ns2WifiManager>()
                          .AddAttribute("MaxRtsRetries", "RTS attempts before the frame is dropped (ns-2: 7)",
                                        UintegerValue(7), MakeUintegerAccessor(&Ns2WifiManager::m_maxRtsRetries),
                                        MakeUintegerChecker<uint32_t>(1));
  return tid;
}

void Ns2WifiManager::DoReportRtsFailed(WifiRemoteStation* station) { m_rtsFailures[station]++; }

void Ns2WifiManager::DoReportRtsOk(WifiRemoteStation* station, double, WifiMode, double) { m_rtsFailures[station] = 0; }

void Ns2WifiManager::DoReportDataOk(WifiRemoteStation* station, double, WifiMode, double, uint16_t, uint8_t) {
  m_rtsFailures[station] = 0;
}

void Ns2WifiManager::DoReportFinalRtsFailed(WifiRemoteStation* station) { m_rtsFailures[station] = 0; }

void Ns2WifiManager::DoReportFinalDataFailed(WifiRemoteStation* station) { m_rtsFailures[station] = 0; }

bool Ns2WifiManager::DoNeedRetransmission(WifiRemoteStation* station, Ptr<const Packet>, bool normally) {
  uint32_t& failures = m_rtsFailures[station];
  if (failures >= m_maxRtsRetries) {
    failures = 0;
    return false;
  }
  return normally;
}

}  // namespace ns3
