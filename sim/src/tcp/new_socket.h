// A TcpSocketBase subclass attached to a node as TcpL4Protocol::CreateSocket
// attaches its own sockets (node, protocol, the node's RTT estimator,
// congestion control and recovery types, registered with the protocol): the
// way to run a socket of our own type next to ns-3's in one simulation.
#pragma once

#include <ns3/node.h>
#include <ns3/object-factory.h>
#include <ns3/rtt-estimator.h>
#include <ns3/tcp-congestion-ops.h>
#include <ns3/tcp-l4-protocol.h>
#include <ns3/tcp-recovery-ops.h>

namespace mantra::sim {

template <typename Socket>
ns3::Ptr<Socket> new_socket(ns3::Ptr<ns3::Node> node) {
  auto tcp = node->GetObject<ns3::TcpL4Protocol>();
  const auto factory = [&](const char* attribute) {
    ns3::TypeIdValue type;
    tcp->GetAttribute(attribute, type);
    return ns3::ObjectFactory(type.Get().GetName());
  };
  auto socket = ns3::CreateObject<Socket>();
  socket->SetNode(node);
  socket->SetTcp(tcp);
  socket->SetRtt(factory("RttEstimatorType").template Create<ns3::RttEstimator>());
  socket->SetCongestionControlAlgorithm(factory("SocketType").template Create<ns3::TcpCongestionOps>());
  socket->SetRecoveryAlgorithm(factory("RecoveryType").template Create<ns3::TcpRecoveryOps>());
  tcp->AddSocket(socket);
  return socket;
}

}  // namespace mantra::sim
