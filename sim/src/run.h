// One simulation: build the scenario of a spec, attach the flows, run, and
// return the result document (docs/result-schema.md).
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>

#include "network/scenario.h"
#include "spec/spec.h"

namespace mantra::sim {

// What a driver around the simulator adds to a run (mantra-emu: real
// programs at some nodes). mantra-sim adds nothing.
struct RunAdditions {
  // Flows of the spec that real programs carry: the simulator installs no
  // application for them (their LATP packets are still stamped by the agents,
  // found by the flow's port), and their entry in the result's `flows` says
  // only where they ran ({"real": true, src, dst, port}).
  std::set<size_t> real_flows;
  // Called once the network and the simulated flows are in, before the run.
  std::function<void(const Spec&, Scenario&)> install;
  // Called on the finished result, before it is returned.
  std::function<void(nlohmann::json&)> report;
};

// Builds and runs the simulation and returns its result; the simulator is
// left standing, so the caller can store the result before tearing it down.
nlohmann::json run_simulation(const Spec& spec, const RunAdditions& additions = {});

// Simulator::Destroy: disposes every ns-3 object of the run. Call after the
// result is stored: a fault here can no longer lose a finished run.
void tear_down_simulation();

}  // namespace mantra::sim
