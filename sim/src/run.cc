#include "run.h"

#include <ns3/core-module.h>
#include <ns3/network-module.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "endpoint_app.h"
#include "flow_metrics.h"
#include "latp_agents.h"
#include "loss_oracle.h"
#include "mantra/registry.h"
#include "mantra_version.h"
#include "random_pairs.h"
#include "scenario.h"
#include "tcp_flow.h"

namespace mantra::sim {
namespace {

struct FlowRuntime {
  std::unique_ptr<FlowMetrics> metrics;
  std::unique_ptr<SegmentClock> clock;
  ns3::Ptr<EndpointApp> sender, receiver;
  ns3::Ptr<TcpSourceApp> tcp_source;
};

FlowRuntime attach_flow(const Spec& spec, Scenario& s, const FlowSpec& f, uint32_t index, LossOracle& oracle) {
  const uint16_t port = flow_port(index);
  FlowRuntime rt;
  rt.metrics = std::make_unique<FlowMetrics>(f, spec.interval_s, spec.smoothness_window_s, spec.measure_from_s,
                                             spec.measure_to_s);
  ns3::Ptr<ns3::Node> src = s.nodes.Get(f.src), dst = s.nodes.Get(f.dst);
  ns3::Ptr<ns3::Application> source, sink;
  if (f.protocol == "tcp") {
    rt.clock = std::make_unique<SegmentClock>();
    rt.tcp_source = ns3::CreateObject<TcpSourceApp>(s.addresses[f.dst], port, f, rt.metrics.get(), rt.clock.get());
    source = rt.tcp_source;
    sink = ns3::CreateObject<TcpSinkApp>(port, f, rt.metrics.get(), rt.clock.get());
  } else {
    // The spec parser already built these endpoints once.
    auto sender = mantra::make_sender(f.protocol, f.sender_params());
    auto receiver = mantra::make_receiver(f.protocol, f.receiver_params);
    if (!sender.endpoint) throw std::runtime_error("flow endpoints: " + sender.error);
    if (!receiver.endpoint) throw std::runtime_error("flow endpoints: " + receiver.error);
    rt.sender = ns3::CreateObject<EndpointApp>(std::move(sender.endpoint), EndpointApp::Role::kSender, port,
                                               s.addresses[f.dst], rt.metrics.get(), index, &oracle);
    rt.receiver = ns3::CreateObject<EndpointApp>(std::move(receiver.endpoint), EndpointApp::Role::kReceiver, port,
                                                 ns3::Ipv4Address(), rt.metrics.get(), index, &oracle);
    source = rt.sender;
    sink = rt.receiver;
  }
  src->AddApplication(source);
  dst->AddApplication(sink);
  source->SetStartTime(ns3::Seconds(f.start_s));
  source->SetStopTime(ns3::Seconds(f.stop_s));
  sink->SetStartTime(ns3::Seconds(0));
  sink->SetStopTime(ns3::Seconds(spec.duration_s));
  return rt;
}

// Per-flow metrics averaged over the non-CBR flows (the LATP paper's Table 2
// "average per flow"), flows without a value (no delay) left out, and their
// aggregate throughput.
nlohmann::json flow_means(const std::vector<nlohmann::json>& flows) {
  nlohmann::json out;
  const auto mean_of = [&](const nlohmann::json::json_pointer& at) -> nlohmann::json {
    double sum = 0;
    int n = 0;
    for (const auto& f : flows) {
      if (f.contains(at) && f[at].is_number()) {
        sum += f[at].get<double>();
        ++n;
      }
    }
    return n ? nlohmann::json(sum / n) : nlohmann::json(nullptr);
  };
  out["delay_ms"] = mean_of("/delay_ms/mean"_json_pointer);
  out["jitter_ms"] = mean_of("/jitter_ms"_json_pointer);
  out["plr"] = mean_of("/plr"_json_pointer);
  out["smoothness"] = mean_of("/smoothness"_json_pointer);
  out["throughput_kbps"] = mean_of("/throughput_kbps"_json_pointer);
  double total = 0;
  for (const auto& f : flows) total += f["throughput_kbps"].get<double>();
  out["aggregate_kbps"] = total;
  return out;
}

}  // namespace

nlohmann::json run_simulation(const Spec& spec) {
  const auto wall_start = std::chrono::steady_clock::now();
  Scenario scenario;
  build_scenario(spec, scenario);
  LossOracle oracle(spec, scenario.nodes);
  std::unique_ptr<LatpAgents> agents;
  if (spec.needs_latp_agents()) agents = std::make_unique<LatpAgents>(spec, scenario);
  // Random pairs are drawn on the positions at t = 0. A moving node's mobility model takes its
  // first position when ns-3 initialises the node, in an event at t = 0; until then every moving
  // node reads (0, 0) and no pair is ever hops apart. Run the events already at t = 0 first.
  const bool any_random_pair =
      std::any_of(spec.flows.begin(), spec.flows.end(), [](const FlowSpec& f) { return f.random_pair(); });
  if (any_random_pair && spec.mobility.model != "static") {
    ns3::Simulator::Stop(ns3::Seconds(0));
    ns3::Simulator::Run();
  }
  const std::vector<FlowSpec> drawn = draw_random_pairs(spec, scenario);
  std::vector<FlowRuntime> flows;
  for (size_t i = 0; i < drawn.size(); ++i) {
    flows.push_back(attach_flow(spec, scenario, drawn[i], static_cast<uint32_t>(i), oracle));
  }
  ns3::Simulator::Stop(ns3::Seconds(spec.duration_s));
  ns3::Simulator::Run();
  const uint64_t events = ns3::Simulator::GetEventCount();

  nlohmann::json result;
  result["schema"] = "mantra-result/1";
  result["spec"] = spec.source;
  std::vector<double> elastic;  // non-CBR throughputs, for Jain's index
  std::vector<nlohmann::json> elastic_summaries;
  for (uint32_t i = 0; i < flows.size(); ++i) {
    FlowRuntime& rt = flows[i];
    if (rt.sender) rt.metrics->set_diagnostics("sender", endpoint_diagnostics(rt.sender->endpoint()));
    if (rt.receiver) rt.metrics->set_diagnostics("receiver", endpoint_diagnostics(rt.receiver->endpoint()));
    if (rt.tcp_source) rt.metrics->set_diagnostics("sender", {{"gave_up", rt.tcp_source->gave_up() ? 1.0 : 0.0}});
    nlohmann::json summary = rt.metrics->summary();
    if (rt.receiver) {  // core flows: packets are followed by sequence number
      summary["loss_causes"] = oracle.drop_causes(i);
      const auto verdicts = take_loss_verdicts(rt.receiver->endpoint());
      if (!verdicts.empty() || rt.metrics->flow().protocol == "adtfrc")
        summary["detection"] = score_detection(verdicts, oracle, i);
    }
    if (rt.metrics->flow().protocol != "cbr") {
      elastic.push_back(rt.metrics->throughput_kbps());
      elastic_summaries.push_back(summary);
    }
    result["flows"].push_back(summary);
  }
  const auto jain = jain_index(elastic);
  result["fairness_jain"] = jain ? nlohmann::json(*jain) : nlohmann::json(nullptr);
  result["flow_means"] = flow_means(elastic_summaries);
  result["queue_drops"] = scenario.drops.ifq_per_node;
  int64_t ifq_total = 0;
  for (int64_t d : scenario.drops.ifq_per_node) ifq_total += d;
  result["drops"] = {
      {"ifq", ifq_total}, {"mac_retry", scenario.drops.mac_retry}, {"no_route", scenario.drops.no_route}};
  if (agents) result["latp_agents"] = agents->summary();
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  result["provenance"] = {{"commit", kMantraCommit},
                          {"ns3_version", kNs3Version},
                          {"seed", spec.seed},
                          {"wall_s", wall_s},
                          {"events", events}};
  return result;
}

void tear_down_simulation() { ns3::Simulator::Destroy(); }

}  // namespace mantra::sim
