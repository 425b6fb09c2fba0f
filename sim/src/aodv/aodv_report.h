// What our AODV did in a run, summed over its nodes, for the result's
// `routing` object (docs/result-schema.md).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "aodv/aodv_node.h"

namespace mantra::sim::aodv {

nlohmann::json aodv_report(const std::vector<std::unique_ptr<AodvNode>>& nodes);

}  // namespace mantra::sim::aodv
