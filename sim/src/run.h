// One simulation: build the scenario of a spec, attach the flows, run, and
// return the result document (docs/result-schema.md).
#pragma once

#include <nlohmann/json.hpp>

#include "spec/spec.h"

namespace mantra::sim {

// Builds and runs the simulation and returns its result; the simulator is
// left standing, so the caller can store the result before tearing it down.
nlohmann::json run_simulation(const Spec& spec);

// Simulator::Destroy: disposes every ns-3 object of the run. Call after the
// result is stored: a fault here can no longer lose a finished run.
void tear_down_simulation();

}  // namespace mantra::sim
