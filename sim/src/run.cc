#include "run.h"

#include <ns3/core-module.h>
#include <ns3/network-module.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "aodv/aodv_report.h"
#include "apps/flow_apps.h"
#include "apps/flow_kinds.h"
#include "dsr/dsr_report.h"
#include "latp_agent/latp_agents.h"
#include "mantra/registry.h"
#include "mantra_version.h"
#include "measurement/flow_groups.h"
#include "measurement/flow_metrics.h"
#include "measurement/loss_oracle.h"
#include "measurement/routed_hops.h"
#include "media/media_log.h"
#include "network/random_pairs.h"
#include "network/scenario.h"
#include "tcp/elfn_notices.h"

namespace mantra::sim {
namespace {

struct FlowRuntime {
  std::unique_ptr<FlowMetrics> metrics;
  std::unique_ptr<SegmentClock> clock;
  std::unique_ptr<MediaLog> media;
  ns3::Ptr<FlowApp> sender, receiver;
  bool elastic = true;
  bool real = false;  // carried by real programs (RunAdditions::real_flows): nothing installed
};

FlowRuntime attach_flow(const Spec& spec, Scenario& s, const FlowSpec& f, uint32_t index, LossOracle& oracle,
                        ElfnNotices* elfn) {
  FlowRuntime rt;
  rt.metrics = std::make_unique<FlowMetrics>(f, spec.interval_s, spec.smoothness_window_s, spec.measure_from_s,
                                             spec.measure_to_s);
  const FlowKind& sender_kind = *find_flow_kind(f.protocol);  // the spec parser checked both names
  if (sender_kind.tcp()) rt.clock = std::make_unique<SegmentClock>();
  const FlowKind& receiver_kind = f.receiver.empty() ? sender_kind : *find_flow_kind(f.receiver);
  rt.elastic = sender_kind.elastic;
  if (f.media) rt.media = std::make_unique<MediaLog>(*f.media, !sender_kind.tcp());
  const FlowContext context{
      f, index, flow_port(index), s.addresses[f.dst], rt.metrics.get(), &oracle, rt.clock.get(), elfn, rt.media.get()};
  rt.sender = make_sender_app(sender_kind, context);
  rt.receiver = make_receiver_app(receiver_kind, context);
  s.nodes.Get(f.src)->AddApplication(rt.sender);
  s.nodes.Get(f.dst)->AddApplication(rt.receiver);
  rt.sender->SetStartTime(ns3::Seconds(f.start_s));
  rt.sender->SetStopTime(ns3::Seconds(f.stop_s));
  rt.receiver->SetStartTime(ns3::Seconds(0));
  rt.receiver->SetStopTime(ns3::Seconds(spec.duration_s));
  return rt;
}

// Every hop_sampling seconds, each active flow's path length on the
// unit-disk graph of the positions of that moment (random_pairs.h).
void sample_hops(const Spec& spec, Scenario& s, std::vector<FlowRuntime>& flows) {
  for (double t = 0; t < spec.duration_s; t += spec.hop_sampling_s) {
    ns3::Simulator::Schedule(ns3::Seconds(t), [&spec, &s, &flows, t] {
      const auto neighbours = unit_disk_neighbours(s, spec.radio.rx_range_m);
      for (FlowRuntime& rt : flows) {
        if (rt.real) continue;
        const FlowSpec& f = rt.metrics->flow();
        if (t < f.start_s || t > f.stop_s) continue;
        const int hops = hop_distances(neighbours, f.src)[static_cast<size_t>(f.dst)];
        rt.metrics->on_hop_sample(hops >= 0 ? std::optional<int>(hops) : std::nullopt);
      }
    });
  }
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

// Every flow's packets together (a routing comparison's delivery ratio and
// delay): sent, received, their ratio, and the mean delay of the packets
// received (each flow's mean weighted by its packets).
nlohmann::json delivery_totals(const std::vector<nlohmann::json>& flows) {
  int64_t sent = 0, received = 0, timed = 0;
  double delay_sum_ms = 0;
  for (const auto& f : flows) {
    sent += f["sent"].get<int64_t>();
    const auto got = f["received"].get<int64_t>();
    received += got;
    if (f.contains("delay_ms") && f["delay_ms"].contains("mean") && f["delay_ms"]["mean"].is_number() && got > 0) {
      delay_sum_ms += f["delay_ms"]["mean"].get<double>() * static_cast<double>(got);
      timed += got;
    }
  }
  return {{"sent", sent},
          {"received", received},
          {"ratio", sent > 0 ? nlohmann::json(static_cast<double>(received) / static_cast<double>(sent)) : nullptr},
          {"delay_ms_mean", timed > 0 ? nlohmann::json(delay_sum_ms / static_cast<double>(timed)) : nullptr}};
}

}  // namespace

nlohmann::json run_simulation(const Spec& spec, const RunAdditions& additions) {
  const auto wall_start = std::chrono::steady_clock::now();
  Scenario scenario;
  build_scenario(spec, scenario);
  LossOracle oracle(spec, scenario.nodes);
  scenario.drops.channel_error.packet_observers.push_back(
      [&oracle](uint32_t node, ns3::Ptr<const ns3::Packet> p) { oracle.on_channel_error(node, p); });
  scenario.link_failure_flush.observe(
      [&oracle](uint32_t node, ns3::Ptr<const ns3::Packet> p) { oracle.on_flushed(node, p); });
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
  // ELFN's notices: the MAC of every node watches for them once any flow asks.
  std::unique_ptr<ElfnNotices> elfn;
  if (std::any_of(drawn.begin(), drawn.end(), [](const FlowSpec& f) { return f.tcp.elfn; })) {
    elfn = std::make_unique<ElfnNotices>();
    elfn->install(scenario.nodes);
  }
  std::vector<FlowRuntime> flows;
  for (size_t i = 0; i < drawn.size(); ++i) {
    if (additions.real_flows.count(i)) {
      FlowRuntime real;
      real.real = true;
      flows.push_back(std::move(real));
      continue;
    }
    flows.push_back(attach_flow(spec, scenario, drawn[i], static_cast<uint32_t>(i), oracle, elfn.get()));
  }
  if (spec.hop_sampling_s > 0 && !spec.topology.wired()) {
    sample_hops(spec, scenario, flows);
    if (spec.routing != "dsr-ns3") {  // its TTL says nothing of the route (measurement/routed_hops.h)
      for (uint32_t i = 0; i < flows.size(); ++i) {
        if (flows[i].real) continue;
        watch_routed_hops(scenario.nodes.Get(drawn[i].dst), scenario.addresses[drawn[i].src], flow_port(i),
                          *flows[i].metrics);
      }
    }
  }
  if (additions.install) additions.install(spec, scenario);
  ns3::Simulator::Stop(ns3::Seconds(spec.duration_s));
  ns3::Simulator::Run();
  const uint64_t events = ns3::Simulator::GetEventCount();

  nlohmann::json result;
  result["schema"] = "mantra-result/1";
  result["spec"] = spec.source;
  std::vector<double> elastic;  // non-CBR throughputs, for Jain's index
  std::vector<nlohmann::json> elastic_summaries;
  std::vector<FlowSpec> simulated;  // the flows the simulator ran, and their summaries
  std::vector<nlohmann::json> summaries;
  for (uint32_t i = 0; i < flows.size(); ++i) {
    FlowRuntime& rt = flows[i];
    if (rt.real) {
      result["flows"].push_back({{"real", true}, {"src", drawn[i].src}, {"dst", drawn[i].dst}, {"port", flow_port(i)}});
      continue;
    }
    nlohmann::json extra = nlohmann::json::object();
    rt.sender->report(*rt.metrics, extra);
    rt.receiver->report(*rt.metrics, extra);
    nlohmann::json summary = rt.metrics->summary();
    summary.update(extra);
    summary["group"] = drawn[i].group;
    if (drawn[i].ecn) summary["ecn_model"] = ecn_model(drawn[i], summary);
    if (rt.elastic) {
      elastic.push_back(rt.metrics->throughput_kbps());
      elastic_summaries.push_back(summary);
    }
    result["flows"].push_back(summary);
    simulated.push_back(drawn[i]);
    summaries.push_back(summary);
  }
  const auto jain = jain_index(elastic);
  result["fairness_jain"] = jain ? nlohmann::json(*jain) : nlohmann::json(nullptr);
  result["flow_means"] = flow_means(elastic_summaries);
  result["delivery"] = delivery_totals(summaries);
  result["groups"] = flow_groups(spec, simulated, summaries);
  if (!spec.phases.empty()) result["phases"] = phase_totals(spec, simulated, summaries);
  result["queue_drops"] = scenario.drops.ifq_per_node;
  int64_t ifq_total = 0;
  for (int64_t d : scenario.drops.ifq_per_node) ifq_total += d;
  result["drops"] = {{"ifq", ifq_total},
                     {"mac_retry", scenario.drops.mac_retry},
                     {"no_route", scenario.drops.no_route},
                     {"arp", scenario.drops.arp},
                     {"channel_error", scenario.drops.channel_error.count},
                     {"link_failure", scenario.link_failure_flush.flushed()}};
  if (agents) result["latp_agents"] = agents->summary();
  result["routing"] = {{"protocol", spec.routing}};
  if (spec.routing == "dsr") result["routing"].update(dsr::dsr_report(scenario.dsr_nodes));
  if (spec.routing == "aodv") result["routing"].update(aodv::aodv_report(scenario.aodv_nodes));
  if (scenario.routing_traffic.kind != RoutingPackets::kNone) {
    result["routing"]["packets_sent"]["all"] = scenario.routing_traffic.packets;
    result["routing"]["bytes_sent"]["all"] = scenario.routing_traffic.bytes;
  }
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  result["provenance"] = {{"commit", kMantraCommit},
                          {"ns3_version", kNs3Version},
                          {"seed", spec.seed},
                          {"wall_s", wall_s},
                          {"events", events}};
  if (additions.report) additions.report(result);
  return result;
}

void tear_down_simulation() { ns3::Simulator::Destroy(); }

}  // namespace mantra::sim
