// Radio presets. `ns2-80211b` is ns-2's classic CMU 802.11 radio on ns-3.44
// (ns3-notes.md §1): 2 Mb/s data, 1 Mb/s control and broadcast, TwoRayGround
// at 914 MHz with 1.5 m antennas and 24.5 dBm, decode below rx_range, carrier
// sense below cs_range, RTS/CTS for every unicast frame, ns-2's 7/4 retry
// limits (Ns2WifiManager), no MAC queue lifetime and a drop-tail interface queue in
// the traffic-control layer (installed by the scenario).
#pragma once

#include <ns3/net-device-container.h>
#include <ns3/node-container.h>

#include <cstdint>

#include "network/channel_error.h"
#include "spec/spec.h"

namespace mantra::sim {

// The preset's data rate (its queue's link rate for RED's Table 1).
inline constexpr double kRadioDataRateBps = 2e6;

// Received power (dBm) of the preset's transmitter at `distance_m`, by the
// preset's own propagation model: the thresholds are this at the ranges.
double preset_rx_power_dbm(double distance_m);

// Installs Wi-Fi ad hoc devices with `radio` on `nodes`, with the channel
// error of channel_error.h (its hits counted in `channel_error_drops`).
// Random streams are assigned from `stream` on; returns the devices.
ns3::NetDeviceContainer install_radio(const RadioSpec& radio, const ChannelErrorSpec& channel_error,
                                      ChannelErrorDrops* channel_error_drops, ns3::NodeContainer& nodes,
                                      int64_t stream);

}  // namespace mantra::sim
