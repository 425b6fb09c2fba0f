#include "emu_run.h"

#include <ns3/boolean.h>
#include <ns3/global-value.h>
#include <ns3/ipv4.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <sched.h>
#include <unistd.h>

#include <sstream>
#include <stdexcept>

#include "network/routing_packets.h"
#include "run.h"

namespace mantra::emu {

using namespace ns3;

std::atomic<bool> g_stop_requested{false};

namespace {

// A lag sample each millisecond of simulated time: fine enough to see the
// 802.11 exchanges' bursts, 1000 events a second beside the radio's many.
constexpr int64_t kLagProbeIntervalMs = 1;

struct CpuSplit {
  std::vector<int> simulator;  // this process: the scheduler, which busy-waits, and the TAP readers
  std::vector<int> command;    // the programs in the namespaces
};

// One CPU for the simulator, the others for the command; on one CPU, nothing pinned.
CpuSplit split_cpus() {
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) return {};
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &mine)) cpus.push_back(c);
  }
  if (cpus.size() < 2) return {};
  return {{cpus.front()}, {cpus.begin() + 1, cpus.end()}};
}

void pin_this_thread(const std::vector<int>& cpus) {
  if (cpus.empty()) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) CPU_SET(c, &set);
  sched_setaffinity(0, sizeof set, &set);  // before any thread: the TAP readers inherit it
}

std::string text_of(Ipv4Address address) {
  std::ostringstream s;
  address.Print(s);
  return s.str();
}

}  // namespace

EmuOutcome run_emulation(const sim::Spec& spec, const EmuOptions& options, EmuSession& session) {
  const CpuSplit cpus = split_cpus();
  pin_this_thread(cpus.simulator);
  GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RealtimeSimulatorImpl"));
  GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));

  nlohmann::json endpoints = nlohmann::json::array();
  sim::RunAdditions additions;
  additions.real_flows = options.real_flows;
  additions.install = [&](const sim::Spec& s, sim::Scenario& scenario) {
    NodeOwnTraffic own;
    own.routing = sim::routing_packets_of(s.routing);
    for (size_t i = 0; i < s.flows.size(); ++i) {
      if (!options.real_flows.count(i)) own.simulated_ports.insert(sim::flow_port(i));
    }
    for (const Endpoint& e : options.endpoints) {
      const Ptr<Node> node = scenario.nodes.Get(static_cast<uint32_t>(e.node));
      const Ipv4Address address = scenario.addresses[static_cast<size_t>(e.node)];
      Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
      const int32_t interface = ipv4->GetInterfaceForAddress(address);
      if (interface < 0) throw std::runtime_error("node " + std::to_string(e.node) + " has no address");
      const int prefix = ipv4->GetAddress(static_cast<uint32_t>(interface), 0).GetMask().GetPrefixLength();
      session.namespaces.push_back(std::make_unique<EndpointNamespace>(e.namespace_name, text_of(address), prefix));
      const EndpointNamespace& ns = *session.namespaces.back();
      const int fd = ::dup(ns.tap_fd());  // the device closes its own when it stops
      if (fd < 0) throw std::runtime_error("cannot duplicate the TAP's fd");
      session.ports.push_back(std::make_unique<EmuPort>(node, address, fd, ns.mac(), own));
      endpoints.push_back({{"node", e.node},
                           {"namespace", e.namespace_name},
                           {"namespace_created", ns.created()},
                           {"interface", EndpointNamespace::kInterface},
                           {"address", text_of(address)},
                           {"prefix_bits", prefix}});
    }
    session.lag = std::make_unique<LagProbe>(MilliSeconds(kLagProbeIntervalMs), g_stop_requested);
    if (!options.command.empty()) {
      session.command =
          std::make_unique<NamespaceCommand>(options.command, options.endpoints.front().namespace_name, cpus.command);
      Simulator::ScheduleNow([&session] { session.command->start(); });
    }
  };

  EmuOutcome outcome;
  additions.report = [&](nlohmann::json& result) {
    nlohmann::json emulation;
    emulation["repeatable"] = false;
    emulation["realtime"] = {
        {"scheduler", "ns3::RealtimeSimulatorImpl"}, {"synchronization", "BestEffort"}, {"checksums", true}};
    nlohmann::json lag = lag_summary(session.lag->lags_us());
    lag["probe_interval_ms"] = kLagProbeIntervalMs;
    lag["bound_ms"] = options.max_lag_ms;
    outcome.within_bound = !lag["p99"].is_null() && lag["p99"].get<double>() <= options.max_lag_ms;
    lag["within_bound"] = outcome.within_bound;
    emulation["lag_ms"] = lag;
    emulation["stopped_at_s"] =
        session.lag->stopped_at_s() ? nlohmann::json(*session.lag->stopped_at_s()) : nlohmann::json(nullptr);
    emulation["cpus"] = {{"simulator", cpus.simulator}, {"command", cpus.command}};
    for (size_t k = 0; k < session.ports.size(); ++k) endpoints[k].update(session.ports[k]->report());
    emulation["endpoints"] = endpoints;
    emulation["real_flows"] = options.real_flows;
    if (session.command) {
      emulation["command"] = session.command->finish();
      outcome.command_ok = session.command->succeeded();
    } else {
      emulation["command"] = nullptr;
    }
    result["emulation"] = emulation;
    result["provenance"]["realtime"] = true;
  };
  outcome.result = sim::run_simulation(spec, additions);
  return outcome;
}

}  // namespace mantra::emu
