// The LATP node agents of a run (paper §4.1), one per node, driven by ns-3.
//
// Each node's core NodeAgent (core/src/latp/node_agent.h) is fed:
//   - the PHY's state periods (WifiPhyStateHelper "State"): TX as own
//     transmissions, RX and CCA_BUSY as busy channel;
//   - each MAC ACK (WifiMac "AckedMpdu"), with the time its frame entered
//     the one-packet MAC queue, i.e. became ready for transmission (the
//     interface queue is the queue disc in front of it);
//   - every LATP datagram the node sends or forwards, at the moment the
//     interface queue hands it to the MAC: LatpQueueDisc, the radio's
//     interface queue (network/pri_queue_disc.h) that shows each dequeued
//     LATP packet (UDP to a port of an LATP flow) to the agent, which
//     rewrites R in place.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "latp/node_agent.h"
#include "network/pri_queue_disc.h"
#include "network/scenario.h"
#include "spec/spec.h"

namespace mantra::sim {

class LatpQueueDisc : public PriQueueDisc {
 public:
  static ns3::TypeId GetTypeId();
  // Packets to these UDP ports are LATP datagrams, shown to `agent`.
  void SetAgent(mantra::latp::NodeAgent* agent, std::set<uint16_t> latp_ports);

 private:
  ns3::Ptr<ns3::QueueDiscItem> DoDequeue() override;
  void stamp(ns3::QueueDiscItem& item);

  mantra::latp::NodeAgent* agent_ = nullptr;
  std::set<uint16_t> latp_ports_;
};

class LatpAgents {
 public:
  // Installs an agent on every node of a wireless scenario whose interface
  // queues are LatpQueueDiscs (build_scenario does so when spec needs agents).
  LatpAgents(const Spec& spec, Scenario& scenario);
  // Per node: the agent's counters and final estimates.
  nlohmann::json summary() const;

  struct ReadyFrame {
    uint64_t packet_uid = 0;
    int64_t ready_us = -1;
  };

 private:
  std::vector<std::unique_ptr<mantra::latp::NodeAgent>> agents_;
  std::vector<ReadyFrame> ready_;  // per node: the frame in the MAC queue
  std::vector<int64_t> unmatched_acks_;
};

}  // namespace mantra::sim
