// One simulation: build the scenario of a spec, attach the flows, run, and
// return the result document (docs/result-schema.md).
#pragma once

#include <nlohmann/json.hpp>

#include "spec.h"

namespace mantra::sim {

nlohmann::json run_simulation(const Spec& spec);

}  // namespace mantra::sim
