#include "apps/flow_kinds.h"

#include <vector>

#include "mantra/registry.h"

namespace mantra::sim {
namespace {

// Every core protocol of the registry is a kind of its own name; a
// fixed-rate one (cbr) takes a `rate` and does not count as elastic. Then the TCP variants, each one of ns-3's
// congestion controls under ns-2-like settings (tcp_flow.h).
std::vector<FlowKind> make_kinds() {
  std::vector<FlowKind> kinds;
  for (const std::string& name : mantra::protocol_names()) {
    FlowKind k;
    k.name = name;
    k.takes_rate = mantra::is_fixed_rate(name);
    k.elastic = !k.takes_rate;
    kinds.push_back(k);
  }
  const auto tcp_kind = [](std::string name, std::string congestion_type) {
    FlowKind k;
    k.name = std::move(name);
    k.transport = Transport::kTcp;
    k.tcp_congestion_type = std::move(congestion_type);
    return k;
  };
  FlowKind reno = tcp_kind("reno", "ns3::TcpNewReno");  // RFC 2001's Reno: NewReno's window growth, Reno's recovery
  reno.tcp_reno = reno.tcp_takes_elfn = true;
  kinds.push_back(reno);
  FlowKind newreno = tcp_kind("newreno", "ns3::TcpNewReno");  // RFC 6582, ns-2's Newreno agent
  newreno.tcp_takes_elfn = true;
  kinds.push_back(newreno);
  FlowKind freeze_probing = tcp_kind("freeze-probing", "ns3::TcpNewReno");  // Wang & Fan 2005, on Reno's window
  freeze_probing.tcp_freeze_probing = true;
  kinds.push_back(freeze_probing);
  kinds.push_back(tcp_kind("vegas", "ns3::TcpVegas"));        // Brakmo & Peterson, alpha 2, beta 4, gamma 1
  FlowKind rsc_var = tcp_kind("rsc-var", "ns3::TcpNewReno");  // Kojima & Ishihara: the receiver paces its ACKs
  rsc_var.receiver_only = rsc_var.tcp_rsc_var = true;
  kinds.push_back(rsc_var);
  FlowKind tcp = tcp_kind("tcp", "");
  tcp.alias_of = "newreno";  // the name of the specs written before the variants
  kinds.push_back(tcp);
  return kinds;
}

const std::vector<FlowKind>& kinds() {
  static const std::vector<FlowKind> list = make_kinds();
  return list;
}

}  // namespace

const FlowKind* find_flow_kind(std::string_view name) {
  for (const FlowKind& k : kinds()) {
    if (k.name == name) return k.alias_of.empty() ? &k : find_flow_kind(k.alias_of);
  }
  return nullptr;
}

bool can_pair(const FlowKind& sender, const FlowKind& receiver) {
  if (sender.transport != receiver.transport) return false;
  return sender.tcp() || sender.name == receiver.name;
}

std::string flow_kind_names(bool receivers) {
  std::string out;
  for (const FlowKind& k : kinds()) {
    if (k.receiver_only && !receivers) continue;
    out += (out.empty() ? "" : ", ") + k.name;
  }
  return out;
}

}  // namespace mantra::sim
