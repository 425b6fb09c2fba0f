#include "network/queues.h"

#include <ns3/core-module.h>
#include <ns3/network-module.h>
#include <ns3/traffic-control-module.h>

#include <algorithm>
#include <cmath>

#include "network/pri_queue_disc.h"

namespace mantra::sim {

RedNumbers red_numbers(const QueueSpec& q, double link_bps) {
  const double c = link_bps / 1e6;  // Table 1's C, Mb/s
  RedNumbers n;
  n.limit = q.limit > 0 ? q.limit : std::max(1, static_cast<int>(std::lround(400 * c / 16)));
  n.min_th = q.min_th >= 0 ? q.min_th : 5 * c / 16;
  n.max_th = q.max_th >= 0 ? q.max_th : 50 * c / 16;
  n.max_th = std::min(n.max_th, static_cast<double>(n.limit));
  n.min_th = std::min(n.min_th, n.max_th);
  return n;
}

void install_queue(ns3::NetDeviceContainer& devices, const QueueSpec& q, double link_bps, double link_delay_s,
                   int default_limit, const std::string& fifo_type, RoutingPackets routing_first) {
  using namespace ns3;
  TrafficControlHelper tch;
  if (!q.red) {
    const auto limit = static_cast<uint32_t>(q.limit_or(default_limit));
    const uint16_t handle =
        tch.SetRootQueueDisc(fifo_type, "MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, limit)));
    tch.AddInternalQueues(handle, 1, "mantra::FlushableQueue", "MaxSize",
                          QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, limit)));
    QueueDiscContainer discs = tch.Install(devices);
    for (uint32_t i = 0; i < discs.GetN(); ++i) {
      if (auto pri = DynamicCast<PriQueueDisc>(discs.Get(i))) pri->set_routing_first(routing_first);
    }
    return;
  }
  const RedNumbers n = red_numbers(q, link_bps);
  const uint16_t handle = tch.SetRootQueueDisc(
      "ns3::RedQueueDisc",                                                                           //
      "MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, static_cast<uint32_t>(n.limit))),  //
      "MinTh", DoubleValue(n.min_th),                                                                //
      "MaxTh", DoubleValue(n.max_th),                                                                //
      "LInterm", DoubleValue(1.0 / q.max_p),                                                         //
      "QW", DoubleValue(q.w_q),                                                                      //
      "UseEcn", BooleanValue(q.ecn),                                                                 //
      "UseHardDrop", BooleanValue(q.hard_drop),                                                      //
      "Gentle", BooleanValue(q.gentle),                                                              //
      "MeanPktSize", UintegerValue(1000),                                                            //
      "LinkBandwidth", DataRateValue(DataRate(static_cast<uint64_t>(link_bps))),                     //
      "LinkDelay", TimeValue(Seconds(link_delay_s)));
  tch.AddInternalQueues(handle, 1, "mantra::FlushableQueue", "MaxSize",
                        QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, static_cast<uint32_t>(n.limit))));
  tch.Install(devices);
}

}  // namespace mantra::sim
