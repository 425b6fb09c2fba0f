#include "network/radio.h"

#include <ns3/constant-position-mobility-model.h>
#include <ns3/core-module.h>
#include <ns3/error-model.h>
#include <ns3/mobility-model.h>
#include <ns3/propagation-loss-model.h>
#include <ns3/wifi-module.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "network/channel_error.h"
#include "network/ns2_wifi_manager.h"

namespace mantra::sim {
namespace {

constexpr double kTxPowerW = 0.28183815;  // ns-2 Pt_
constexpr double kFrequencyHz = 914e6;    // ns-2 freq_ (Lucent WaveLAN)
constexpr double kAntennaHeightM = 1.5;   // ns-2 antenna Z_
constexpr double kPreambleSnrDb = 4.0;    // ThresholdPreambleDetectionModel default
// YansWifiChannel drops frames below RxSensitivity + 10log10(22/20) for DSSS.
const double kDsssWidthCorrectionDb = 10.0 * std::log10(22.0 / 20.0);

// ns-3's name of the 802.11b mode sending at `bps` (spec.cc admits only these).
std::string dsss_mode(int64_t bps) {
  switch (bps) {
    case 2'000'000:
      return "DsssRate2Mbps";
    case 5'500'000:
      return "DsssRate5_5Mbps";
    case 11'000'000:
      return "DsssRate11Mbps";
    case 1'000'000:
      return "DsssRate1Mbps";
    default:
      throw std::logic_error("radio: no 802.11b mode sends at " + std::to_string(bps) + " b/s");
  }
}

double tx_power_dbm() { return 10.0 * std::log10(kTxPowerW * 1000.0); }

ns3::Ptr<ns3::TwoRayGroundPropagationLossModel> make_loss_model() {
  auto m = ns3::CreateObject<ns3::TwoRayGroundPropagationLossModel>();
  m->SetAttribute("Frequency", ns3::DoubleValue(kFrequencyHz));
  m->SetAttribute("SystemLoss", ns3::DoubleValue(1.0));
  m->SetAttribute("HeightAboveZ", ns3::DoubleValue(kAntennaHeightM));
  return m;
}

}  // namespace

double preset_rx_power_dbm(double distance_m) {
  auto model = make_loss_model();
  auto a = ns3::CreateObject<ns3::ConstantPositionMobilityModel>();
  auto b = ns3::CreateObject<ns3::ConstantPositionMobilityModel>();
  a->SetPosition(ns3::Vector(0, 0, 0));
  b->SetPosition(ns3::Vector(distance_m, 0, 0));
  return model->CalcRxPower(tx_power_dbm(), a, b);
}

ns3::NetDeviceContainer install_radio(const RadioSpec& radio, const ChannelErrorSpec& channel_error,
                                      ChannelErrorDrops* channel_error_drops, ns3::NodeContainer& nodes,
                                      int64_t stream) {
  using namespace ns3;
  const double rx_threshold_dbm = preset_rx_power_dbm(radio.rx_range_m);
  const double cs_threshold_dbm = preset_rx_power_dbm(radio.cs_range_m);

  // One-packet MAC queue and no lifetime: the interface queue is the
  // traffic-control queue disc, as ns-2's IFQ in front of its MAC.
  Config::SetDefault("ns3::WifiMacQueue::MaxSize", QueueSizeValue(QueueSize("1p")));
  Config::SetDefault("ns3::WifiMacQueue::MaxDelay", TimeValue(Seconds(3600)));

  YansWifiChannelHelper channel;
  channel.SetPropagationDelay("ns3::ConstantSpeedPropagationDelayModel");
  channel.AddPropagationLoss("ns3::TwoRayGroundPropagationLossModel", "Frequency", DoubleValue(kFrequencyHz),
                             "SystemLoss", DoubleValue(1.0), "HeightAboveZ", DoubleValue(kAntennaHeightM));
  YansWifiPhyHelper phy;
  phy.SetChannel(channel.Create());
  phy.Set("TxPowerStart", DoubleValue(tx_power_dbm()));
  phy.Set("TxPowerEnd", DoubleValue(tx_power_dbm()));
  phy.Set("RxSensitivity", DoubleValue(cs_threshold_dbm - kDsssWidthCorrectionDb));
  phy.Set("CcaSensitivity", DoubleValue(cs_threshold_dbm));
  phy.Set("CcaEdThreshold", DoubleValue(cs_threshold_dbm));
  if (radio.cs_range_m > radio.rx_range_m) {
    // Frames between the two ranges hold the medium but are not decoded.
    phy.SetPreambleDetectionModel("ns3::ThresholdPreambleDetectionModel", "MinimumRssi", DoubleValue(rx_threshold_dbm),
                                  "Threshold", DoubleValue(kPreambleSnrDb));
  } else {
    phy.DisablePreambleDetectionModel();
  }

  WifiHelper wifi;
  wifi.SetStandard(WIFI_STANDARD_80211b);
  // Naming the TypeId through the class links its registration in (a static
  // library drops unreferenced objects, and the lookup by name would fail).
  wifi.SetRemoteStationManager(Ns2WifiManager::GetTypeId().GetName(), "DataMode", StringValue("DsssRate2Mbps"),
                               "ControlMode", StringValue("DsssRate1Mbps"), "NonUnicastMode",
                               StringValue(dsss_mode(radio.broadcast_bps)), "RtsCtsThreshold",
                               UintegerValue(radio.rts ? 0 : 65535), "ShortRetryLimit",
                               UintegerValue(radio.short_retry), "LongRetryLimit", UintegerValue(radio.long_retry));
  WifiMacHelper mac;
  mac.SetType("ns3::AdhocWifiMac");
  NetDeviceContainer devices = wifi.Install(phy, mac, nodes);
  stream += wifi.AssignStreams(devices, stream);

  // A frame the error hits: between the two thresholds (sensed, not decoded).
  const double hit_dbm = std::min(rx_threshold_dbm - 1.0, (rx_threshold_dbm + cs_threshold_dbm) / 2);
  install_channel_error(channel_error, devices, hit_dbm, stream, channel_error_drops);
  return devices;
}

}  // namespace mantra::sim
