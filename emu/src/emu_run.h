// One emulation: a run spec's network in ns-3's real time, with the named
// endpoints' namespaces attached to their nodes (emu_port.h), the command
// started in the first one, and the real-time lag measured throughout.
//
//   options ─► CPUs split (simulator | command) ─► real time + checksums on
//           ─► run_simulation(spec, additions):
//                network and simulated flows built ─► install: namespaces + TAPs,
//                EmuPorts, lag probe, command at t = 0 ─► run to spec.duration
//                ─► report: command waited for / stopped, `emulation` block
#pragma once

#include <atomic>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "emu_options.h"
#include "emu_port.h"
#include "endpoint_namespace.h"
#include "lag_probe.h"
#include "namespace_command.h"
#include "spec/spec.h"

namespace mantra::emu {

// What an emulation holds until the simulator is torn down: the namespaces
// must outlive the devices on their TAPs.
struct EmuSession {
  std::vector<std::unique_ptr<EndpointNamespace>> namespaces;
  std::vector<std::unique_ptr<EmuPort>> ports;
  std::unique_ptr<LagProbe> lag;
  std::unique_ptr<NamespaceCommand> command;
};

struct EmuOutcome {
  nlohmann::json result;
  bool within_bound = true;  // the lag's p99 stayed within options.max_lag_ms
  bool command_ok = true;    // no command, or it exited 0 by itself
};

// Set from a signal handler (SIGINT, SIGTERM): the run stops at the next
// lag sample and its result is written, marked interrupted.
extern std::atomic<bool> g_stop_requested;

// Needs root (endpoint_namespace.h); the simulator is left standing.
EmuOutcome run_emulation(const sim::Spec& spec, const EmuOptions& options, EmuSession& session);

}  // namespace mantra::emu
