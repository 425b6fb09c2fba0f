// Results per group of flows (a flow's `group`, by default its protocol), and
// the TF-WMFC paper's model check for ECN-TCP flows (Figs. 4, 5).
//
// ecn_model, per ECN-TCP flow: P_M as seen by its source, read two ways
// (docs/result-schema.md, "ECN model"): window reductions on an ECN echo per
// data segment sent (the model's reading: one mark per cycle), and CE-marked
// per data segment received; R the mean of the sender's RTT samples; and the
// refined (eq. 3) and Floyd (eq. 2) rates at each reading.
//
// groups: {name: {flows, throughput_kbps (mean over the group's flows), min,
// max, series (the group's mean receive rate per interval, over the flows
// active in it), phases ({phase: {throughput_kbps}}: that series' mean over
// each of the spec's phases), ecn_model means, and the models' prediction over
// the measured mean (model_ratio_*)}}.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "spec/spec.h"

namespace mantra::sim {

// The model check of one ECN-TCP flow from its summary; null without RTT samples.
nlohmann::json ecn_model(const FlowSpec& flow, const nlohmann::json& summary);

// phases: {name: {flows (active in the phase), aggregate_kbps (their summed
// mean receive rates over it), fair_share_kbps (aggregate / flows), jain
// (Jain's index of those mean rates; null if none received)}}: what a group's
// phase rate compares with when flows join and leave, and how evenly they share.
nlohmann::json phase_totals(const Spec& spec, const std::vector<FlowSpec>& flows,
                            const std::vector<nlohmann::json>& summaries);

nlohmann::json flow_groups(const Spec& spec, const std::vector<FlowSpec>& flows,
                           const std::vector<nlohmann::json>& summaries);

}  // namespace mantra::sim
