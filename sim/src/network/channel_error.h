// Channel error on the radio, at one of three placements (docs/run-spec.md,
// "channel_error"):
//
//   frame   each frame a PHY receives fails with probability `rate` (ns-2's
//           IncomingErrProc): the MAC retries, so few losses reach IP, but a
//           frame that fails every retry is a MAC failure and a route break;
//   packet  each packet the MAC has received (and acknowledged) is dropped
//           with probability `rate` before it goes up to IP: every loss
//           reaches the routing layer or the transport, and none is a MAC
//           failure;
//   bursty  each link is a two-state (Gilbert) channel, good (no error) and
//           bad (every frame from either end fails), with exponential
//           sojourns: bad for `burst` seconds on average and a `rate` share
//           of the time; a bad period longer than the MAC's retries makes MAC
//           failures and route changes as well as loss.
//
// `links` limits the error to the links listed (both directions); by default
// every link has it. Frame error on every link is ns-3's RateErrorModel on
// each receiving PHY; on listed links, and bursty error, it is the last stage
// of the channel's propagation loss, which knows both ends of every frame: a
// hit frame arrives too weak to decode but strong enough to hold the medium.
#pragma once

#include <ns3/net-device-container.h>
#include <ns3/node-container.h>

#include <cstdint>
#include <vector>

#include "network/drop_observer.h"
#include "spec/spec.h"

namespace mantra::sim {

// What the error took: the frames or packets, counted; and, with the packet
// placement, each packet at the node whose error dropped it (the loss oracle
// watches these: no ns-3 trace sees a packet the MAC received and never
// handed up).
struct ChannelErrorDrops {
  int64_t count = 0;
  std::vector<DropObserver> packet_observers;
};

// Installs `error` on `devices` (the Wi-Fi devices of one channel) with
// random streams from `stream` on; returns the next free stream. A frame the
// error hits on a listed link arrives at `hit_dbm`. `dropped` (if not null)
// takes what the error took.
int64_t install_channel_error(const ChannelErrorSpec& error, ns3::NetDeviceContainer& devices, double hit_dbm,
                              int64_t stream, ChannelErrorDrops* dropped);

}  // namespace mantra::sim
