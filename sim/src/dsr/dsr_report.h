// What our DSR did in a run, summed over its nodes, for the result's
// `routing` object (docs/result-schema.md).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "dsr/dsr_node.h"

namespace mantra::sim::dsr {

nlohmann::json dsr_report(const std::vector<std::unique_ptr<DsrNode>>& nodes);

}  // namespace mantra::sim::dsr
