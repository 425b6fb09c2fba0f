// mantra-bare-cbr SPEC.json RATE_BPS: the network of a run spec as mantra-sim
// builds it (the same scenario code: nodes, links, queues, routing), but each
// flow replaced by ns-3's own OnOffApplication sending UDP at a constant
// RATE_BPS, with the flow's packet size, start and stop, into ns-3's
// PacketSink. No mantra app, tag, trace or metric: the bare cost of ns-3 on
// that topology, for bench/fig8_cost.py. Prints {"events", "wall_s", "duration_s",
// "received_bytes"} as JSON.
#include <ns3/applications-module.h>
#include <ns3/core-module.h>
#include <ns3/internet-module.h>
#include <ns3/network-module.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "network/scenario.h"
#include "spec/spec.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: mantra-bare-cbr SPEC.json RATE_BPS\n";
    return 2;
  }
  try {
    std::ifstream in(argv[1]);
    std::stringstream text;
    text << in.rdbuf();
    const mantra::sim::Spec spec = mantra::sim::parse_spec(mantra::sim::read_spec_json(text.str()));
    const double rate_bps = std::stod(argv[2]);
    const auto wall_start = std::chrono::steady_clock::now();
    mantra::sim::Scenario s;
    mantra::sim::build_scenario(spec, s);
    std::vector<ns3::Ptr<ns3::PacketSink>> sinks;
    for (size_t i = 0; i < spec.flows.size(); ++i) {
      const mantra::sim::FlowSpec& f = spec.flows[i];
      const uint16_t port = mantra::sim::flow_port(i);
      ns3::OnOffHelper source("ns3::UdpSocketFactory", ns3::InetSocketAddress(s.addresses[f.dst], port));
      source.SetConstantRate(ns3::DataRate(static_cast<uint64_t>(rate_bps)), static_cast<uint32_t>(f.packet_size));
      ns3::ApplicationContainer app = source.Install(s.nodes.Get(f.src));
      app.Start(ns3::Seconds(f.start_s));
      app.Stop(ns3::Seconds(f.stop_s));
      ns3::PacketSinkHelper sink("ns3::UdpSocketFactory", ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), port));
      ns3::ApplicationContainer sink_app = sink.Install(s.nodes.Get(f.dst));
      sinks.push_back(ns3::DynamicCast<ns3::PacketSink>(sink_app.Get(0)));
    }
    ns3::Simulator::Stop(ns3::Seconds(spec.duration_s));
    ns3::Simulator::Run();
    uint64_t received = 0;
    for (const auto& sink : sinks) received += sink->GetTotalRx();
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    std::cout << "{\"events\": " << ns3::Simulator::GetEventCount() << ", \"wall_s\": " << wall_s
              << ", \"duration_s\": " << spec.duration_s << ", \"received_bytes\": " << received << "}\n";
    ns3::Simulator::Destroy();
  } catch (const std::exception& e) {
    std::cerr << "mantra-bare-cbr: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
